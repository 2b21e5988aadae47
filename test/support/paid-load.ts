/**
 * Paid calls as a client makes them, for tests that load a service process and kill it: each call
 * carries its own signed payment and remembers what came back (an answer with its receipt, or
 * nothing when the connection died), so that it can be sent again with the same payment.
 */
import { join } from "node:path";
import type { PaymentRequirements } from "../../client/x402/types.js";
import { paymentAnswer, payTask } from "./a2a-calls.js";
import { currentHeaders, currentMeta } from "./current-revision.js";
import { type ServiceProcess, startService } from "./processes.js";

export interface PaidCall {
  method: "GET" | "POST";
  path: string;
  body?: unknown;
  /** The `X-PAYMENT` header this call pays with. */
  header: string;
  /** The client drops the connection this long after sending (its answer is lost even if the service sends it). */
  dropAfterMs?: number;
  network: string;
  amount: bigint;
  /**
   * An MCP tool call instead (POST /mcp, `body` its arguments, `payment` the v2 PaymentPayload object; `header`
   * unused): a 2025-era one, or with `current` one of revision 2026-07-28, advertising x402's extension or not.
   */
  tool?: { name: string; payment: unknown; current?: { advertise: boolean } };
  /**
   * An A2A payment message instead (`SendMessage` at /a2a on the task `id`, started beforehand, `payment` the v2
   * PaymentPayload object; `body` and `header` unused): answered as a2a-calls.ts's `paymentAnswer` reads it.
   */
  task?: { id: string; payment: unknown };
}

export interface Answer {
  status: number;
  text: string;
  /** Decoded `X-PAYMENT-RESPONSE`, when sent. */
  receipt?: { success: boolean; transaction: string; network: string; payer: string; simulated?: boolean };
  /** `Retry-After`, when sent: the seconds to wait before repeating the call. */
  retryAfter?: string;
}

interface ToolResult {
  resultType?: string;
  paymentRequired?: unknown;
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

/**
 * A tool call's result as an `Answer`, for the assertions HTTP's have: an envelope with its settlement is a 200 with
 * its receipt; a held payment a 503 with its wait; a `PaymentRequired` a 402, in the binding the call chose (x402's
 * extension binding when it advertised `org.x402/payment`, else the tool result); any other tool error, or a result
 * of the other era or binding (`resultType` is on 2026-07-28 only), a 500.
 */
function toolAnswer(result: ToolResult, current: NonNullable<PaidCall["tool"]>["current"]): Answer {
  const extension = current?.advertise === true;
  if (result.resultType === "payment_required")
    return extension
      ? { status: 402, text: JSON.stringify(result.paymentRequired) }
      : { status: 500, text: `payment_required, not advertised: ${JSON.stringify(result)}` };
  if ((result.resultType === "complete") !== (current !== undefined))
    return { status: 500, text: `a result of the other era: ${JSON.stringify(result)}` };
  const content = result.structuredContent ?? {};
  const text = JSON.stringify(content);
  if (!result.isError)
    return { status: 200, text, receipt: result._meta?.["x402/payment-response"] as Answer["receipt"] };
  if (content.error === "payment_in_progress")
    return { status: 503, text, retryAfter: String(content.retryAfterSeconds) };
  return { status: content.x402Version === 2 && !extension ? 402 : 500, text };
}

async function sendTool(
  baseUrl: string,
  call: PaidCall & { tool: NonNullable<PaidCall["tool"]> },
  retry: boolean,
): Promise<Answer | undefined> {
  const { name, payment, current } = call.tool;
  const res = await fetch(`${baseUrl}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...(current && currentHeaders("tools/call", name)),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name,
        arguments: call.body ?? {},
        _meta: { ...(current && currentMeta(current.advertise)), "x402/payment": payment },
      },
    }),
    signal: AbortSignal.timeout(timeoutOf(call, retry)),
  });
  const reply = (await res.json()) as { result?: ToolResult; error?: unknown };
  return reply.result ? toolAnswer(reply.result, current) : { status: res.status, text: JSON.stringify(reply) };
}

/** How long a call waits for its answer: a retry never drops. */
const timeoutOf = (call: PaidCall, retry: boolean) =>
  call.dropAfterMs !== undefined && !retry ? call.dropAfterMs : 30_000;

/** Sends one call (a retry never drops); undefined when no complete answer arrived (the connection broke or was dropped). */
export async function send(baseUrl: string, call: PaidCall, { retry = false } = {}): Promise<Answer | undefined> {
  if (call.task)
    return payTask(baseUrl, call.task.id, call.task.payment, timeoutOf(call, retry)).then(
      paymentAnswer,
      () => undefined,
    );
  if (call.tool)
    return sendTool(baseUrl, call as PaidCall & { tool: NonNullable<PaidCall["tool"]> }, retry).catch(() => undefined);
  try {
    const res = await fetch(`${baseUrl}${call.path}`, {
      method: call.method,
      headers: { "content-type": "application/json", "X-PAYMENT": call.header },
      body: call.method === "POST" ? JSON.stringify(call.body ?? {}) : undefined,
      signal: AbortSignal.timeout(timeoutOf(call, retry)),
    });
    const text = await res.text();
    const receipt = res.headers.get("x-payment-response");
    const retryAfter = res.headers.get("retry-after");
    return {
      status: res.status,
      text,
      ...(receipt ? { receipt: JSON.parse(Buffer.from(receipt, "base64").toString("utf8")) } : {}),
      ...(retryAfter ? { retryAfter } : {}),
    };
  } catch {
    return undefined;
  }
}

/** The 402 challenge of a route, read from the service. */
export async function challenge(baseUrl: string, method: "GET" | "POST", path: string): Promise<PaymentRequirements> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    body: method === "POST" ? "{}" : undefined,
  });
  if (res.status !== 402) throw new Error(`${method} ${path}: expected a 402 challenge, got ${res.status}`);
  return ((await res.json()) as { accepts: PaymentRequirements[] }).accepts[0] as PaymentRequirements;
}

/**
 * Sends every call, `concurrency` at a time; `onAnswer` sees each complete answer as it arrives
 * (a test kills the service from there). Calls not yet started when the service died still go out
 * and fail to connect: they are the payments a client never got an answer for.
 */
export async function sendAll(
  baseUrl: string,
  calls: PaidCall[],
  concurrency: number,
  { onAnswer = () => {}, retry = false }: { onAnswer?: (answered: number) => void; retry?: boolean } = {},
): Promise<(Answer | undefined)[]> {
  const answers: (Answer | undefined)[] = new Array(calls.length);
  let next = 0;
  let answered = 0;
  const worker = async () => {
    while (next < calls.length) {
      const index = next++;
      answers[index] = await send(baseUrl, calls[index] as PaidCall, { retry });
      if (answers[index]) onAnswer(++answered);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return answers;
}

/** Whether an answer is a delivered paid answer: 200 or 206, a JSON envelope, and a successful receipt. */
export function delivered(answer: Answer | undefined): boolean {
  if (!answer || (answer.status !== 200 && answer.status !== 206) || !answer.receipt?.success) return false;
  try {
    const body = JSON.parse(answer.text) as Record<string, unknown>;
    return typeof body.signal === "string" && "data" in body;
  } catch {
    return false;
  }
}

/**
 * A service environment in which a crash catches payments in progress and their retries find them held: files in
 * `dir`, a slow model at `modelUrl` (one attempt), and an answer deadline longer than a restart takes on a loaded
 * machine (several seconds while other suites run); recovery resolves them within a test, past that deadline.
 */
export function heldPaymentsEnv(dir: string, modelUrl: string) {
  return {
    LEDGER_DB: join(dir, "ledger.db"),
    REGISTRY_DB: join(dir, "registry.db"),
    INSIGHT_BASE_URL: modelUrl,
    INSIGHT_ATTEMPTS: "1",
    PAID_ANSWER_TIMEOUT_MS: "20000",
    RECOVERY_INTERVAL_MS: "250",
    X402_MAX_TIMEOUT_SECONDS: "300",
    LOG_LEVEL: "silent",
  };
}

/** The call again with the same payment, waiting each time as long as its answer says (at most 3 times), until it is answered. */
export async function retryAsTold(
  baseUrl: string,
  call: PaidCall,
  first: Answer | undefined,
): Promise<{ answer: Answer | undefined; waits: number }> {
  let answer = first;
  let waits = 0;
  while (answer?.status === 503 && waits < 3) {
    await new Promise((resolve) => setTimeout(resolve, Number(answer?.retryAfter) * 1000));
    waits++;
    answer = await send(baseUrl, call, { retry: true });
  }
  return { answer, waits };
}

/**
 * The crash under paid load both held-payment crash tests make: a service started with `env`, `sign`'s calls sent to
 * it 16 at a time, SIGKILLed 200 ms after the 8th answer (while the calls in the freed slots wait for the model,
 * reserved), and started again. `started` is told of each service, so that the caller stops whichever one is left.
 */
export async function killedUnderLoad(
  env: Record<string, string>,
  sign: (url: string) => Promise<PaidCall[]>,
  started: (service: ServiceProcess) => void,
): Promise<{
  calls: PaidCall[];
  answers: (Answer | undefined)[];
  killed: Awaited<ServiceProcess["exited"]>;
  restarted: ServiceProcess;
}> {
  const running = await startService(env);
  started(running);
  const calls = await sign(running.url);
  const answers = await sendAll(running.url, calls, 16, {
    onAnswer: (answered) => {
      if (answered === 8) setTimeout(() => running.child.kill("SIGKILL"), 200);
    },
  });
  const killed = await running.exited;
  const restarted = await startService(env);
  started(restarted);
  return { calls, answers, killed, restarted };
}
