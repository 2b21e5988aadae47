/**
 * Paid A2A skill calls for the bench: a payment message pays on a task the service made, so each measured call needs
 * a task of its own, started (unpaid) before the run as an agent starts one; the run then times the payment messages
 * only, as the paid POST rows time the paid requests and not the 402 before them.
 */
import { X402_EXTENSION_URI } from "../server/a2a/protocol.js";
import type { PaymentRequiredV2 } from "../server/analytics/payments/x402/types.js";

/** The headers of an A2A call activating x402's extension. */
export const A2A_HEADERS = { "content-type": "application/json", "a2a-extensions": X402_EXTENSION_URI };

interface StartedTask {
  id: string;
  contextId: string;
  required: PaymentRequiredV2;
}

const startBody = (skill: string, args: Record<string, unknown>) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "SendMessage",
    params: {
      message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts: [{ data: { skill, arguments: args } }] },
    },
  });

/** Starts one task of `skill`: its id, context and the `PaymentRequired` it asks for. */
export async function startTask(url: string, skill: string, args: Record<string, unknown>): Promise<StartedTask> {
  const res = await fetch(`${url}/a2a`, { method: "POST", headers: A2A_HEADERS, body: startBody(skill, args) });
  const { result } = (await res.json()) as {
    result?: { task: { id: string; contextId: string; status: { message: { metadata: Record<string, unknown> } } } };
  };
  const required = result?.task.status.message.metadata["x402.payment.required"] as PaymentRequiredV2 | undefined;
  if (!result || !required) throw new Error(`starting a ${skill} task answered ${res.status}`);
  return { id: result.task.id, contextId: result.task.contextId, required };
}

/** `n` tasks of `skill`, started `concurrency` at a time. */
export async function startTasks(url: string, skill: string, n: number, concurrency = 32): Promise<StartedTask[]> {
  const tasks: StartedTask[] = [];
  for (let at = 0; at < n; at += concurrency)
    tasks.push(
      ...(await Promise.all(Array.from({ length: Math.min(concurrency, n - at) }, () => startTask(url, skill, {})))),
    );
  return tasks;
}

/** The payment message of each task, carrying one of `payments` (v2 `PaymentPayload` objects), as x402's A2A transport sends it. */
export function paymentMessages(tasks: StartedTask[], payments: unknown[]): string[] {
  return tasks.map((task, i) =>
    JSON.stringify({
      jsonrpc: "2.0",
      id: i,
      method: "SendMessage",
      params: {
        message: {
          messageId: `pay-${i}`,
          taskId: task.id,
          contextId: task.contextId,
          role: "ROLE_USER",
          parts: [{ text: "payment" }],
          metadata: { "x402.payment.status": "payment-submitted", "x402.payment.payload": payments[i] },
        },
      },
    }),
  );
}
