/**
 * The service's A2A v1.0 endpoint (JSON-RPC binding) at `/a2a`: `SendMessage` starts a paid skill's task or pays for
 * it, `GetTask` reads a task, `CancelTask` declines one; every other method of A2A is answered as unsupported (the
 * card declares no streaming, no push notifications, no extended card). A skill call or a payment needs the x402
 * extension activated (`A2A-Extensions`, or 0.x's `X-A2A-Extensions`); a message of text only is answered with the
 * skills and their prices, free. Bad input is an error naming the field, before any payment is read; what a payment
 * came to is the task's state (paid-skills.ts, task-answers.ts).
 */
import type { ServerResponse } from "node:http";
import type { Logger } from "pino";
import { toErrorResponse } from "../http/errors.js";
import type { ParsedRequest } from "../http/input-guard.js";
import { sendJson } from "../http/send-json.js";
import {
  errorReply,
  RPC_ERROR,
  type RpcError,
  type RpcRequest,
  readRequest,
  resultReply,
  rpcError,
} from "./json-rpc.js";
import type { PaidSkills, TaskReply } from "./paid-skills.js";
import {
  A2A_PROTOCOL_VERSION,
  EXTENSION_HEADERS,
  X402_EXTENSION_URI,
  X402_EXTENSION_URI_V01,
  X402_META,
} from "./protocol.js";

type Answer = { result: string } | { error: RpcError };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const invalidParams = (field: string, message: string): Answer => ({
  error: rpcError(RPC_ERROR.invalidParams, `${field}: ${message}`, { field }),
});

/** The x402 extension's URI the request activates, if it activates it. */
function activated(req: ParsedRequest): string | undefined {
  for (const name of EXTENSION_HEADERS) {
    const value = req.headers[name];
    const uris = (Array.isArray(value) ? value.join(",") : (value ?? "")).split(",").map((uri) => uri.trim());
    const uri = uris.find((u) => u === X402_EXTENSION_URI || u === X402_EXTENSION_URI_V01);
    if (uri) return uri;
  }
  return undefined;
}

const NEEDS_EXTENSION = rpcError(
  RPC_ERROR.extensionSupportRequired,
  `Paid skills need the x402 extension: send the header A2A-Extensions: ${X402_EXTENSION_URI}.`,
  { uri: X402_EXTENSION_URI },
);

/** A task reply as a JSON-RPC answer: `SendMessage`'s `{task}`, or `GetTask`'s bare task. */
function taskResult(reply: TaskReply, taskId: string, wrap: boolean): Answer {
  switch (reply.kind) {
    case "task":
      return { result: wrap ? `{"task":${reply.json}}` : reply.json };
    case "not_found":
      return {
        error: rpcError(RPC_ERROR.taskNotFound, `No task ${taskId} (it never was, or it expired).`, { taskId }),
      };
    case "terminal":
      return {
        error: rpcError(RPC_ERROR.unsupportedOperation, `Task ${taskId} is over (${reply.state}): start a new task.`, {
          taskId,
          state: reply.state,
        }),
      };
    case "unknown_skill":
      return invalidParams("skill", "the task's skill is no longer offered");
  }
}

/** A message of text only: the skills, their prices and how to call one, as an agent's message. */
function catalogueMessage(skills: PaidSkills, contextId: unknown): string {
  const lines = skills.summaries.map((s) => `- ${s.name}: ${s.description}`);
  const text = [
    "Every skill is paid per call with x402 (activate the extension in the A2A-Extensions header).",
    'Send a data part {"skill": "<name>", "arguments": {...}}; the task then asks for payment.',
    ...lines,
  ].join("\n");
  const data = { skills: skills.summaries };
  const message = {
    messageId: crypto.randomUUID(),
    ...(typeof contextId === "string" && contextId && { contextId }),
    role: "ROLE_AGENT",
    parts: [{ text }, { data, mediaType: "application/json" }],
  };
  return JSON.stringify({ message });
}

/** A message on an existing task: a payment, or the payer declining to pay. */
async function onTask(skills: PaidSkills, message: Record<string, unknown>, taskId: string, requestId: string) {
  const metadata = isRecord(message.metadata) ? message.metadata : {};
  const status = metadata[X402_META.status];
  if (status === "payment-rejected") return taskResult(await skills.reject(taskId), taskId, true);
  if (status !== "payment-submitted")
    return invalidParams(
      `message.metadata["${X402_META.status}"]`,
      'a message on a task says "payment-submitted" (with the payment) or "payment-rejected"',
    );
  const payload = metadata[X402_META.payload];
  if (!isRecord(payload) && typeof payload !== "string")
    return invalidParams(`message.metadata["${X402_META.payload}"]`, "the signed x402 v2 PaymentPayload is missing");
  return taskResult(await skills.pay(taskId, payload, requestId), taskId, true);
}

/** The skill a message calls: the first data part naming one. */
function skillCall(parts: unknown[]): { skill: unknown; args: unknown; at: number } | undefined {
  const at = parts.findIndex((part) => isRecord(part) && isRecord(part.data) && "skill" in part.data);
  if (at < 0) return undefined;
  const data = (parts[at] as { data: Record<string, unknown> }).data;
  return { skill: data.skill, args: data.arguments ?? {}, at };
}

async function sendMessage(skills: PaidSkills, req: ParsedRequest, params: Record<string, unknown>): Promise<Answer> {
  const { message } = params;
  if (!isRecord(message) || !Array.isArray(message.parts))
    return invalidParams("message", "a message with its parts is required");
  const call = skillCall(message.parts);
  const paying = typeof message.taskId === "string" && message.taskId !== "";
  if (!call && !paying) return { result: catalogueMessage(skills, message.contextId) };
  if (!activated(req)) return { error: NEEDS_EXTENSION };
  if (paying) return onTask(skills, message, message.taskId as string, req.requestId);
  const { skill, args, at } = call as NonNullable<typeof call>;
  const field = `message.parts[${at}].data`;
  if (typeof skill !== "string" || !skills.summaries.some((s) => s.name === skill))
    return invalidParams(
      `${field}.skill`,
      `names no skill; the skills: ${skills.summaries.map((s) => s.name).join(", ")}`,
    );
  if (!isRecord(args)) return invalidParams(`${field}.arguments`, "must be an object of the skill's arguments");
  const contextId = typeof message.contextId === "string" ? message.contextId : undefined;
  return taskResult(await skills.start(skill, args, contextId, req.requestId), "", true);
}

const UNSUPPORTED = new Set([
  "SendStreamingMessage",
  "SubscribeToTask",
  "ListTasks",
  "CreateTaskPushNotificationConfig",
  "GetTaskPushNotificationConfig",
  "ListTaskPushNotificationConfigs",
  "DeleteTaskPushNotificationConfig",
]);

async function answer(skills: PaidSkills, req: ParsedRequest, rpc: RpcRequest): Promise<Answer> {
  const taskId = typeof rpc.params.id === "string" ? rpc.params.id : undefined;
  switch (rpc.method) {
    case "SendMessage":
      return sendMessage(skills, req, rpc.params);
    case "GetTask":
      return taskId
        ? taskResult(await skills.get(taskId), taskId, false)
        : invalidParams("id", "the task's id is required");
    case "CancelTask": {
      if (!taskId) return invalidParams("id", "the task's id is required");
      const reply = await skills.reject(taskId);
      if (reply.kind === "terminal")
        return { error: rpcError(RPC_ERROR.taskNotCancelable, `Task ${taskId} is over (${reply.state}).`, { taskId }) };
      return taskResult(reply, taskId, false);
    }
    case "GetExtendedAgentCard":
      return { error: rpcError(RPC_ERROR.extendedCardNotConfigured, "This agent has no extended card.") };
  }
  if (UNSUPPORTED.has(rpc.method))
    return { error: rpcError(RPC_ERROR.unsupportedOperation, `${rpc.method} is not supported by this agent.`) };
  return { error: rpcError(RPC_ERROR.methodNotFound, `No method ${rpc.method}.`, { method: rpc.method }) };
}

/** The version a request asks for, when it is one this endpoint does not speak (absent: today's). */
function unsupportedVersion(req: ParsedRequest): RpcError | undefined {
  const asked = req.headers["a2a-version"];
  if (asked === undefined || asked === A2A_PROTOCOL_VERSION || asked === "1") return undefined;
  return rpcError(
    RPC_ERROR.versionNotSupported,
    `A2A version ${asked} is not supported; this agent speaks ${A2A_PROTOCOL_VERSION}.`,
    {
      supported: [A2A_PROTOCOL_VERSION],
    },
  );
}

export interface A2aEndpoint {
  serve(req: ParsedRequest, res: ServerResponse): Promise<void>;
  /** A POST whose body could not be read as JSON: JSON-RPC's parse error. */
  unreadable(error: unknown, req: ParsedRequest, res: ServerResponse): void;
}

export function a2aEndpoint(skills: PaidSkills, logger: Logger): A2aEndpoint {
  /**
   * A method that could not be answered (the tasks' database out of reach, a fault): JSON-RPC's internal error with
   * the contract's code and, where one is known, when to come back. Nothing was charged: a payment's own outcomes
   * are tasks, and this is before or beside the pipeline.
   */
  const failed = (error: unknown, rpc: RpcRequest): Answer => {
    const { status, body, headers } = toErrorResponse(error);
    if (status >= 500) logger.error({ err: error, method: rpc.method }, "A2A method failed");
    const retry = Number(headers["Retry-After"]);
    const data = { error: body.error, ...(retry > 0 && { retryAfterSeconds: retry }) };
    return { error: rpcError(RPC_ERROR.internal, body.message, data) };
  };
  const headers = (req: ParsedRequest): Record<string, string> => {
    const uri = activated(req);
    return uri ? { "A2A-Extensions": uri } : {};
  };
  return {
    async serve(req, res) {
      if (req.method !== "POST") {
        res.setHeader("Allow", "POST");
        return sendJson(
          res,
          405,
          errorReply(null, rpcError(RPC_ERROR.invalidRequest, "A2A's JSON-RPC binding takes a POST.")),
        );
      }
      const rpc = readRequest(req.body);
      if ("error" in rpc) return sendJson(res, 200, errorReply(rpc.id, rpc.error));
      const version = unsupportedVersion(req);
      const reply = version ? { error: version } : await answer(skills, req, rpc).catch((error) => failed(error, rpc));
      sendJson(
        res,
        200,
        "result" in reply ? resultReply(rpc.id, reply.result) : errorReply(rpc.id, reply.error),
        headers(req),
      );
    },
    unreadable(error, req, res) {
      const message = error instanceof Error ? error.message : "the body is not JSON";
      sendJson(res, 200, errorReply(null, rpcError(RPC_ERROR.parse, `Parse error: ${message}`)), headers(req));
    },
  };
}
