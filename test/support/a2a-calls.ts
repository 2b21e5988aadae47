/**
 * A2A's paid skills as the process tests call them, over raw JSON-RPC at `/a2a` (the official client is covered by
 * test/a2a/): start a skill's task (it asks for payment), pay for it on the same task with a signed x402 v2 payment,
 * read it; and a payment message's reply read as paid-load.ts's `Answer`, for the assertions HTTP's answers have.
 */
import type { LocalAccount } from "viem/accounts";
import { evmExactPayload } from "../../client/x402/evm.js";
import { type PaymentRequiredV2, termsOf } from "../../client/x402/types.js";
import { X402_EXTENSION_URI } from "../../server/a2a/protocol.js";
import type { Answer } from "./paid-load.js";

/** An A2A v1.0 task as the endpoint writes it (protobuf JSON), as far as these tests read it. */
export interface A2aTask {
  id: string;
  contextId: string;
  status: {
    state: string;
    message?: { parts: { text?: string; data?: Record<string, unknown> }[]; metadata?: Record<string, unknown> };
  };
  artifacts?: { artifactId: string; parts: { data?: unknown }[] }[];
}

/** A JSON-RPC reply: `SendMessage`'s `{task}`, `GetTask`'s task, or an error. */
export interface RpcReply<T> {
  result?: T;
  error?: { code: number; message: string; data?: unknown };
}

let nextId = 0;

/** One JSON-RPC call at `baseUrl`'s `/a2a`, the x402 extension activated. */
export async function a2aCall<T>(
  baseUrl: string,
  method: string,
  params: Record<string, unknown>,
  timeoutMs = 30_000,
): Promise<RpcReply<T>> {
  const res = await fetch(`${baseUrl}/a2a`, {
    method: "POST",
    headers: { "content-type": "application/json", "A2A-Extensions": X402_EXTENSION_URI },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++nextId, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  return (await res.json()) as RpcReply<T>;
}

const resultOf = <T>(reply: RpcReply<T>, what: string): T => {
  if (!reply.result) throw new Error(`${what}: ${JSON.stringify(reply.error)}`);
  return reply.result;
};

/** Starts `skill`'s task with `args` (unpaid): the task, asking for payment when the arguments are good. */
export async function startTask(baseUrl: string, skill: string, args: Record<string, unknown>): Promise<A2aTask> {
  const message = {
    messageId: crypto.randomUUID(),
    role: "ROLE_USER",
    parts: [{ data: { skill, arguments: args } }],
  };
  return resultOf(await a2aCall<{ task: A2aTask }>(baseUrl, "SendMessage", { message }), `start ${skill}`).task;
}

/** The payment message on task `taskId`: `payment` (a v2 PaymentPayload object) submitted. */
export function payTask(baseUrl: string, taskId: string, payment: unknown, timeoutMs?: number) {
  const message = {
    messageId: crypto.randomUUID(),
    taskId,
    role: "ROLE_USER",
    parts: [{ text: "paying" }],
    metadata: { "x402.payment.status": "payment-submitted", "x402.payment.payload": payment },
  };
  return a2aCall<{ task: A2aTask }>(baseUrl, "SendMessage", { message }, timeoutMs);
}

export async function getTask(baseUrl: string, id: string): Promise<A2aTask> {
  return resultOf(await a2aCall<A2aTask>(baseUrl, "GetTask", { id }), `get task ${id}`);
}

export const metadataOf = (task: A2aTask): Record<string, unknown> => task.status.message?.metadata ?? {};

/** The task's status data part: the contract's error code, the fields at fault, `retryAfterSeconds`. */
export const statusDataOf = (task: A2aTask): Record<string, unknown> =>
  task.status.message?.parts.find((part) => part.data)?.data ?? {};

/** The envelope a completed task carries as its artifact. */
export const envelopeOf = (task: A2aTask): unknown => task.artifacts?.[0]?.parts[0]?.data;

/** A v2 PaymentPayload object paying `required` on Base Sepolia, signed by `account`. */
export async function payOnBase(account: LocalAccount, required: PaymentRequiredV2) {
  const accepted = required.accepts.find((r) => r.network === "eip155:84532");
  if (!accepted) throw new Error("the skill is not offered on Base Sepolia");
  const payload = await evmExactPayload(account, termsOf(accepted));
  return { x402Version: 2, resource: required.resource, accepted, payload };
}

/** The PaymentRequired a task asking for payment carries. */
export function paymentRequiredOf(task: A2aTask): PaymentRequiredV2 {
  const required = metadataOf(task)["x402.payment.required"];
  if (task.status.state !== "TASK_STATE_INPUT_REQUIRED" || !required)
    throw new Error(`task ${task.id} asks for no payment: ${JSON.stringify(task.status)}`);
  return required as PaymentRequiredV2;
}

/**
 * A payment message's reply as an `Answer`: a completed task is a 200, its envelope the text and its last settle
 * response the receipt; a working one a 503 with its `retryAfterSeconds` (send the same payment again then); a task
 * asking for payment (again) a 402; any other task, or a JSON-RPC error, a 500 with what it said.
 */
export function paymentAnswer(reply: RpcReply<{ task: A2aTask }>): Answer {
  const task = reply.result?.task;
  if (!task) return { status: 500, text: JSON.stringify(reply.error ?? reply) };
  const metadata = metadataOf(task);
  switch (task.status.state) {
    case "TASK_STATE_COMPLETED": {
      const receipts = (metadata["x402.payment.receipts"] ?? []) as NonNullable<Answer["receipt"]>[];
      return { status: 200, text: JSON.stringify(envelopeOf(task)), receipt: receipts.at(-1) };
    }
    case "TASK_STATE_WORKING": {
      const data = statusDataOf(task);
      return { status: 503, text: JSON.stringify(data), retryAfter: String(data.retryAfterSeconds) };
    }
    case "TASK_STATE_INPUT_REQUIRED":
      return { status: 402, text: JSON.stringify(metadata) };
    default:
      return { status: 500, text: JSON.stringify(task.status) };
  }
}
