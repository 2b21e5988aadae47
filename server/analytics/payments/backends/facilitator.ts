/**
 * The `facilitator` settlement: a remote x402 v1 facilitator over HTTP. `POST /settle` carries the
 * payment as the client sent it and the requirement this server issued (the facilitator verifies
 * again before it settles, so no separate `/verify` round trip). A 200 with `success: false` is a
 * refused payment only when its reason is one of the contract's refusals that come before anything is
 * sent (the payment does not verify, the payer lacks the funds) and it names no transaction. Any other
 * `success: false` may come after the transaction was sent: the official facilitators answer
 * `transaction_failed` or the RPC's own error text, with no transaction, when only the wait for the
 * confirmation failed, and the money may have moved. That, any other status, a network error, a
 * timeout or an unreadable answer leaves the outcome unknown and is thrown: the payment stays
 * `settling`, and recovery reads the chain (through `state`, the network's RPC) to learn whether the
 * money moved, so a retry gets the answer if it did.
 */
import type { BackendResult, InterruptedPayment, SettlementBackend, SettlementState } from "../settlement.js";
import type { PaymentErrorReason, VerifiedPayment } from "../types.js";

export interface FacilitatorOptions {
  /** Base URL, e.g. `https://x402.org/facilitator`. */
  url: string;
  /** One header line, `Name: value`; a bare value is sent as `Authorization`. */
  authHeader?: string;
  timeoutMs: number;
  fetch?: typeof fetch;
  /** The contract's reason codes (`X402.PaymentErrorReason`): a `success: false` with another reason, or none, is not a refusal. */
  reasons: ReadonlySet<string>;
  /** Where an interrupted payment's money stands, read from its network. */
  state: (payment: InterruptedPayment) => Promise<SettlementState>;
}

export class FacilitatorError extends Error {}

/** The contract's reasons that a facilitator may give once the transaction was sent, or while it cannot tell whether it was. */
const AFTER_SENDING = new Set(["unexpected_settle_error", "invalid_transaction_state"]);

/** Whether `reason` is one the contract knows, given before anything was sent: only such a refusal proves the money did not move. */
const refusedBeforeSending = (reason: string | undefined, known: ReadonlySet<string>): reason is PaymentErrorReason =>
  reason !== undefined && known.has(reason) && !AFTER_SENDING.has(reason) && !reason.endsWith("_timed_out");

/** A facilitator's own text, as far as it goes into a log line: its RPC errors can run to the whole calldata. */
const excerpt = (text: string) => (text.length > 200 ? `${text.slice(0, 200)}…` : text);

function headersOf(authHeader: string | undefined): Record<string, string> {
  if (!authHeader) return {};
  const line = /^([A-Za-z0-9-]+):\s*(.+)$/.exec(authHeader);
  return line ? { [line[1] as string]: line[2] as string } : { Authorization: authHeader };
}

/**
 * One facilitator call: the JSON object of a 2xx answer, or a FacilitatorError for anything else.
 * Errors name the call (`the facilitator's /settle`), never its URL: a key may sit in its path.
 */
async function call(options: FacilitatorOptions, path: string, body?: unknown, signal?: AbortSignal): Promise<Record<string, unknown>> {
  const url = `${options.url.replace(/\/+$/, "")}${path}`;
  const where = `the facilitator's ${path}`;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, {
      method: body === undefined ? "GET" : "POST",
      headers: {
        accept: "application/json",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headersOf(options.authHeader),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs)]) : AbortSignal.timeout(options.timeoutMs),
    });
  } catch (error) {
    if (error instanceof Error && error.name === "TimeoutError")
      throw new FacilitatorError(`${where} did not answer within ${options.timeoutMs} ms`);
    const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : "";
    throw new FacilitatorError(`${where} failed: ${String(error)}${cause}`);
  }
  const text = await response.text().catch(() => "");
  // The body is not kept: a facilitator's error page may echo the request's credentials.
  if (!response.ok) throw new FacilitatorError(`${where} answered ${response.status}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (json && typeof json === "object" && !Array.isArray(json)) return json as Record<string, unknown>;
  throw new FacilitatorError(`${where} answered ${response.status} without a JSON object`);
}

export function facilitatorBackend(options: FacilitatorOptions): SettlementBackend {
  return {
    mode: "facilitator",
    timeoutMs: options.timeoutMs,
    status: options.state,
    /** Ready when `GET /supported` answers its list of kinds. */
    async ping(signal) {
      const answer = await call(options, "/supported", undefined, signal);
      if (!Array.isArray(answer.kinds)) throw new FacilitatorError("the facilitator's /supported answer lists no kinds");
    },
    async settle(payment: VerifiedPayment): Promise<BackendResult> {
      const paymentPayload = { x402Version: 1, scheme: "exact", network: payment.network, payload: payment.payload };
      const answer = await call(options, "/settle", { x402Version: 1, paymentPayload, paymentRequirements: payment.requirement });
      if (answer.success === true && typeof answer.transaction === "string" && answer.transaction)
        return { ok: true, transaction: answer.transaction, simulated: false };
      if (answer.success !== false) throw new FacilitatorError("the facilitator's settle answer has neither success nor a transaction");
      const raw = typeof answer.errorReason === "string" ? answer.errorReason : undefined;
      const sent = typeof answer.transaction === "string" && answer.transaction !== "";
      // Anything but a refusal before sending may have moved the money: the chain decides (through recovery), not this answer.
      if (sent || !refusedBeforeSending(raw, options.reasons))
        throw new FacilitatorError(
          `the facilitator could not confirm the settlement (${raw ? excerpt(raw) : "no reason"}); the chain decides`,
        );
      return { ok: false, reason: raw, message: `the facilitator refused the payment: ${raw}` };
    },
  };
}

/** The fee payer a facilitator announces for a Solana network in `GET /supported` (`kinds[].extra.feePayer`). */
export async function supportedFeePayer(options: FacilitatorOptions, network: string): Promise<string> {
  const answer = await call(options, "/supported");
  const kinds = Array.isArray(answer.kinds) ? (answer.kinds as Record<string, unknown>[]) : [];
  const kind = kinds.find((k) => k.x402Version === 1 && k.scheme === "exact" && k.network === network);
  const feePayer = (kind?.extra as { feePayer?: unknown } | undefined)?.feePayer;
  if (typeof feePayer !== "string" || !feePayer)
    throw new FacilitatorError(`the facilitator did not provide a fee payer for network: ${network}`);
  return feePayer;
}
