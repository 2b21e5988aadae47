/**
 * A2A v1.0's JSON-RPC binding as the suite speaks it to any target, by hand: one POST per request, with `fetch`
 * (no A2A SDK: the suite is black-box, and ships as a package of its own). The endpoint is where the target's agent
 * card sends an A2A client: the URL of its JSON-RPC interface of version 1.0. A skill is called with x402's A2A
 * transport (x402 `specs/transports-v2/a2a.md`): the x402 extension activated in `A2A-Extensions`, a data part
 * `{skill, arguments}` starting the task, a payment message on the task carrying `x402.payment.payload`.
 */
import { randomUUID } from "node:crypto";
import { A2A_BINDING, A2A_PROTOCOL_VERSION, X402_EXTENSION_URI, X402_META } from "../server/a2a/protocol.js";
import type { PaymentRequiredV2 } from "./checks.js";

/** The error codes A2A v1.0 gives its errors (its JSON-RPC binding), and JSON-RPC's own that it uses. */
export const A2A_ERROR = {
  methodNotFound: -32601,
  invalidParams: -32602,
  taskNotFound: -32001,
  unsupportedOperation: -32004,
  extensionSupportRequired: -32008,
} as const;

/** A2A v1.0's task states, as its JSON names them. */
export const TASK_STATE = {
  completed: "TASK_STATE_COMPLETED",
  failed: "TASK_STATE_FAILED",
  inputRequired: "TASK_STATE_INPUT_REQUIRED",
} as const;

/** A part of a message or an artifact: text, or data. */
export interface Part {
  text?: string;
  data?: unknown;
}

/** An A2A v1.0 `Task`, as far as the checks read it. */
export interface Task {
  id: string;
  contextId?: string;
  status?: { state?: string; message?: { parts?: Part[]; metadata?: Record<string, unknown> } };
  artifacts?: { parts?: Part[] }[];
}

/** A JSON-RPC response, as far as the checks read it. */
export interface A2aAnswer {
  /** The HTTP status. */
  status: number;
  /** The request's id, to be found again in the response. */
  id: string;
  // biome-ignore lint/suspicious/noExplicitAny: a result of any method, read field by field by the checks
  result?: any;
  error?: { code: number; message: string; data?: Record<string, unknown> };
  /** The response's own id. */
  answeredId?: unknown;
}

/** The URL of the card's JSON-RPC interface of A2A 1.0 at `baseUrl`: where an A2A client sends. */
export async function a2aEndpointOf(baseUrl: string, timeoutMs: number): Promise<string> {
  const res = await fetch(`${baseUrl}/.well-known/agent-card.json`, { signal: AbortSignal.timeout(timeoutMs) });
  const card = (await res.json().catch(() => undefined)) as { supportedInterfaces?: unknown } | undefined;
  const interfaces = Array.isArray(card?.supportedInterfaces) ? card.supportedInterfaces : [];
  const found = interfaces.find(
    (i) => i?.protocolBinding === A2A_BINDING && i?.protocolVersion === A2A_PROTOCOL_VERSION,
  ) as { url?: unknown } | undefined;
  if (typeof found?.url !== "string")
    throw new Error(
      `GET /.well-known/agent-card.json (${res.status}): no ${A2A_BINDING} ${A2A_PROTOCOL_VERSION} interface with a url`,
    );
  return found.url;
}

export interface A2aOptions {
  /** Activate the x402 extension (`A2A-Extensions`); default true. */
  extension?: boolean;
  /** The request's `X-Request-Id`, for the in-process target's ledger. */
  requestId?: string;
}

let nextId = 1;

/** One JSON-RPC request to the endpoint. */
export async function a2aRequest(
  endpoint: string,
  timeoutMs: number,
  method: string,
  params: Record<string, unknown>,
  { extension = true, requestId }: A2aOptions = {},
): Promise<A2aAnswer> {
  const id = `conformance-a2a-${nextId++}`;
  const res = await fetch(endpoint, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json",
      "A2A-Version": A2A_PROTOCOL_VERSION,
      ...(extension && { "A2A-Extensions": X402_EXTENSION_URI }),
      ...(requestId && { "X-Request-Id": requestId }),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let body: { id?: unknown; result?: unknown; error?: A2aAnswer["error"] } = {};
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`${method}: the answer (${res.status}) is not JSON: ${text.slice(0, 200)}`);
  }
  return { status: res.status, id, result: body.result, error: body.error, answeredId: body.id };
}

/** A user's message of `parts`, on a task when `task` is given. */
export const userMessage = (
  parts: Part[],
  task?: Pick<Task, "id" | "contextId">,
  metadata?: Record<string, unknown>,
) => ({
  message: {
    messageId: randomUUID(),
    role: "ROLE_USER",
    parts,
    ...(task && { taskId: task.id, contextId: task.contextId }),
    ...(metadata && { metadata }),
  },
});

/** The message starting a skill's task. */
export const skillCall = (skill: string, args: unknown) => userMessage([{ data: { skill, arguments: args } }]);

/** The payment message on a task: x402's `payment-submitted` with the signed `PaymentPayload`. */
export const paymentMessage = (task: Task, payload: unknown) =>
  userMessage([{ text: "Paying for the skill." }], task, {
    [X402_META.status]: "payment-submitted",
    [X402_META.payload]: payload,
  });

/** The x402 metadata of a task's status message. */
export const x402Of = (task: Task | undefined) => {
  const meta = task?.status?.message?.metadata ?? {};
  return {
    status: meta[X402_META.status],
    required: meta[X402_META.required] as PaymentRequiredV2 | undefined,
    error: meta[X402_META.error],
    receipts: meta[X402_META.receipts] as { success?: boolean; network?: string }[] | undefined,
  };
};

/** The data parts of a list of parts. */
export const dataOf = (parts: Part[] | undefined) =>
  (parts ?? []).filter((p) => p.data !== undefined).map((p) => p.data);
