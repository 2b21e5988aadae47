/**
 * The `facilitator` settlement: a remote x402 v1 facilitator over HTTP. `POST /settle` carries the
 * payment as the client sent it and the requirement this server issued (the facilitator verifies
 * again before it settles, so no separate `/verify` round trip). A 200 with `success: false` is a
 * refused payment only when it names no transaction and its reason is one of verification's, found
 * before anything is sent (the payment does not verify, the payer lacks the funds): answered with the
 * contract's reason for it. Any other `success: false` may come after the transaction was sent, or
 * name money that already moved (an authorization or transaction used): @x402/svm's facilitator
 * answers `transaction_failed`, and @x402/evm's the RPC's own error text, when only the wait for the
 * confirmation failed. Such an answer is decided by the chain (through `state`, the network's RPC),
 * asked at once: moved is settled, never able to move is refused. What the chain leaves open, any
 * other status, a network error, a timeout or an unreadable answer leaves the outcome unknown and is
 * thrown: the payment stays `settling`, and recovery asks the chain again until the money moved (a
 * retry then gets the answer) or can no longer.
 *
 * A pending answer is not a settlement either way: x402's `settlement_pending` reason (a transaction
 * broadcast whose confirmation is not in yet), or a settlement `status` other than `settled` (the
 * status vocabulary proposed in x402 PR #3325: `pending`, `scheduled`, even beside `success: true`).
 * The facilitator is asked once more with the same payment, as x402's own server does (a facilitator
 * reconciles it with the transaction it broadcast; the same signed payment can never move the money
 * twice: one EIP-3009 nonce, one Solana signature); still pending, the chain decides as above.
 */

import type { PaymentErrorReason, VerifiedPayment } from "../../x402/types.js";
import type { BackendResult, InterruptedPayment, SettlementBackend, SettlementState } from "../settlement.js";

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

/** Where and how to call the facilitator. */
type Endpoint = Pick<FacilitatorOptions, "url" | "authHeader" | "timeoutMs" | "fetch">;

export class FacilitatorError extends Error {}

/** Below this much of the settlement's time left, the chain is not asked at once (recovery asks it later). */
const CHAIN_READ_MIN_MS = 250;

/** Verification's reasons that name money that moved, or may have: an authorization or a transaction already used, or sent and failed. */
const MAY_HAVE_MOVED = new Set([
  "invalid_exact_evm_nonce_already_used",
  "invalid_exact_evm_transaction_failed",
  "invalid_exact_evm_transfer_event_mismatch",
  "invalid_transaction_state",
]);

/** Refusals before sending whose names do not start with `invalid_`, as the contract's and the official facilitators' spell them. */
const REFUSED_BEFORE_SENDING = new Set([
  "insufficient_funds",
  "payment_expired",
  "unsupported_scheme",
  "transaction_simulation_failed",
  "verification_failed",
  "network_mismatch",
  "fee_payer_not_managed_by_facilitator",
]);

/** The official facilitators' (@x402/evm, @x402/svm) names, outside the contract, of refusals the contract names otherwise. */
const CONTRACT_NAME: Record<string, PaymentErrorReason> = {
  invalid_exact_evm_insufficient_balance: "insufficient_funds",
  invalid_exact_evm_signature: "invalid_exact_evm_payload_signature",
  invalid_exact_evm_authorization_value: "invalid_exact_evm_payload_authorization_value",
  invalid_exact_evm_recipient_mismatch: "invalid_exact_evm_payload_recipient_mismatch",
  invalid_exact_evm_network_mismatch: "invalid_network",
  invalid_exact_evm_scheme: "unsupported_scheme",
  invalid_exact_evm_missing_eip712_domain: "invalid_payment_requirements",
  invalid_exact_evm_token_name_mismatch: "invalid_payment_requirements",
  invalid_exact_evm_token_version_mismatch: "invalid_payment_requirements",
  invalid_exact_evm_eip3009_not_supported: "invalid_payment_requirements",
  network_mismatch: "invalid_network",
  invalid_exact_svm_payload_signature_invalid: "invalid_exact_svm_payload_transaction_signature",
  invalid_exact_svm_fee_payer_mismatch: "invalid_exact_svm_payload_transaction_fee_payer_mismatch",
  invalid_exact_svm_payload_missing_fee_payer: "invalid_exact_svm_payload_transaction_fee_payer_mismatch",
  fee_payer_not_managed_by_facilitator: "invalid_exact_svm_payload_transaction_fee_payer_mismatch",
  invalid_exact_svm_payload_mint_mismatch: "invalid_exact_svm_payload_transaction_mint_mismatch",
  invalid_exact_svm_payload_amount_mismatch: "invalid_exact_svm_payload_transaction_amount_mismatch",
  invalid_exact_svm_payload_recipient_mismatch: "invalid_exact_svm_payload_transaction_transfer_to_incorrect_ata",
  invalid_exact_svm_payload_no_transfer_instruction: "invalid_exact_svm_payload_transaction_not_a_transfer_instruction",
  invalid_exact_svm_payload_transaction_could_not_be_decoded: "invalid_exact_svm_payload_transaction",
};

/** Whether `reason` (a code, not an RPC's text) says verification refused the payment before anything was sent. */
const refusedBeforeSending = (reason: string): boolean =>
  /^[a-z0-9_]+$/.test(reason) &&
  !MAY_HAVE_MOVED.has(reason) &&
  (reason.startsWith("invalid_") || REFUSED_BEFORE_SENDING.has(reason));

/**
 * The contract's reason for a refusal before sending: the facilitator's own when the contract has it, else the
 * contract's name for it; a refusal the contract has no name for is `invalid_payload` (the payment does not pay),
 * never `unexpected_settle_error`, which says the outcome is unknown.
 */
function contractReason(raw: string, payment: VerifiedPayment, known: ReadonlySet<string>): PaymentErrorReason {
  if (known.has(raw)) return raw as PaymentErrorReason;
  if (raw === "transaction_simulation_failed" && payment.family === "svm")
    return "invalid_exact_svm_payload_transaction_simulation_failed";
  return CONTRACT_NAME[raw] ?? "invalid_payload";
}

/** A facilitator's own text, as far as it goes into a log line: its first line (an RPC error's next ones hold the URL, which may hold a key, and the calldata). */
const excerpt = (text: string) => {
  const line = text.split("\n", 1)[0] as string;
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
};

function headersOf(authHeader: string | undefined): Record<string, string> {
  if (!authHeader) return {};
  const line = /^([A-Za-z0-9-]+):\s*(.+)$/.exec(authHeader);
  return line ? { [line[1] as string]: line[2] as string } : { Authorization: authHeader };
}

/**
 * One facilitator call: the JSON object of a 2xx answer, or a FacilitatorError for anything else.
 * Errors name the call (`the facilitator's /settle`), never its URL: a key may sit in its path.
 */
async function call(
  options: Endpoint,
  path: string,
  body?: unknown,
  signal?: AbortSignal,
): Promise<Record<string, unknown>> {
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
      signal: signal
        ? AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs)])
        : AbortSignal.timeout(options.timeoutMs),
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

/** x402's reason for a settlement broadcast but not confirmed yet (`@x402/core`'s `SETTLEMENT_PENDING_REASON`). */
const PENDING_REASON = "settlement_pending";

const reasonOf = (answer: Record<string, unknown>) =>
  typeof answer.errorReason === "string" ? answer.errorReason : undefined;

/**
 * Whether a settle answer says the settlement is under way, not final: x402's `settlement_pending` reason, or a
 * `status` (x402 PR #3325's settlement status) other than `settled`, whatever its `success` says.
 */
const pending = (answer: Record<string, unknown>): boolean =>
  answer.errorReason === PENDING_REASON || (typeof answer.status === "string" && answer.status !== "settled");

/** `POST /settle` of `payment` as the client signed it, with the requirement this server issued. */
function askToSettle(options: Endpoint, payment: VerifiedPayment, signal?: AbortSignal) {
  const paymentPayload = { x402Version: 1, scheme: "exact", network: payment.network, payload: payment.payload };
  return call(options, "/settle", { x402Version: 1, paymentPayload, paymentRequirements: payment.requirement }, signal);
}

export function facilitatorBackend(options: FacilitatorOptions): SettlementBackend {
  /**
   * A `success: false` that may have come after sending: the chain decides, not this answer, and it is asked now.
   * Money that moved is the settlement; a payment whose money did not move and never can (its blockhash or its
   * authorization expired) is refused at once, rather than left `settling` for recovery to release and then
   * admitted anew on every retry; anything else stays unknown (thrown), for recovery to ask again.
   */
  async function chainDecides(
    payment: VerifiedPayment,
    raw: string | undefined,
    started: number,
  ): Promise<BackendResult> {
    const said = raw ? excerpt(raw) : "no reason";
    // Within what is left of the settlement's own time: past it, recovery may already be looking at the payment.
    const budget = options.timeoutMs - (Date.now() - started);
    let unread = "no time was left to read it";
    let timer: NodeJS.Timeout | undefined;
    const chain =
      budget < CHAIN_READ_MIN_MS
        ? undefined
        : await Promise.race([
            options
              // nothing of the payment can be on chain before this settlement started: the facilitator sends it
              .state({
                network: payment.network,
                payer: payment.payer,
                payload: payment.payload,
                expiresAt: payment.expiresAt,
                createdAt: started,
              })
              .catch((error: unknown) => {
                unread = `it could not be read: ${excerpt(String((error as Error)?.message ?? error))}`;
                return undefined;
              }),
            new Promise<undefined>((resolve) => {
              timer = setTimeout(() => {
                unread = `it did not answer within ${budget} ms`;
                resolve(undefined);
              }, budget);
            }),
          ]).finally(() => clearTimeout(timer));
    if (chain?.state === "settled") return { ok: true, transaction: chain.transaction, simulated: false };
    if (chain?.state === "unsettled")
      return {
        ok: false,
        reason: raw && /^[a-z0-9_]+$/.test(raw) ? contractReason(raw, payment, options.reasons) : "invalid_payload",
        message: `the facilitator could not settle the payment (${said}), and it can no longer move: ${chain.why}`,
      };
    const open = chain ? chain.why : unread;
    throw new FacilitatorError(
      `the facilitator could not confirm the settlement (${said}); the chain decides (now: ${open})`,
    );
  }

  return {
    mode: "facilitator",
    timeoutMs: options.timeoutMs,
    status: options.state,
    /** Ready when `GET /supported` answers its list of kinds. */
    async ping(signal) {
      const answer = await call(options, "/supported", undefined, signal);
      if (!Array.isArray(answer.kinds))
        throw new FacilitatorError("the facilitator's /supported answer lists no kinds");
    },
    async settle(payment: VerifiedPayment): Promise<BackendResult> {
      const started = Date.now();
      let answer = await askToSettle(options, payment);
      const left = () => options.timeoutMs - (Date.now() - started);
      // x402's one more ask of a pending settlement, within this settlement's own time
      if (pending(answer) && left() >= CHAIN_READ_MIN_MS)
        answer = await askToSettle(options, payment, AbortSignal.timeout(left()));
      if (pending(answer)) return chainDecides(payment, reasonOf(answer) ?? PENDING_REASON, started);
      if (answer.success === true && typeof answer.transaction === "string" && answer.transaction)
        return { ok: true, transaction: answer.transaction, simulated: false };
      if (answer.success !== false)
        throw new FacilitatorError("the facilitator's settle answer has neither success nor a transaction");
      const raw = reasonOf(answer);
      const sent = typeof answer.transaction === "string" && answer.transaction !== "";
      if (sent || raw === undefined || !refusedBeforeSending(raw)) return chainDecides(payment, raw, started);
      return {
        ok: false,
        reason: contractReason(raw, payment, options.reasons),
        message: `the facilitator refused the payment: ${raw}`,
      };
    },
  };
}

/** The fee payer a facilitator announces for a Solana network in `GET /supported` (`kinds[].extra.feePayer`). */
export async function supportedFeePayer(options: Endpoint, network: string): Promise<string> {
  const answer = await call(options, "/supported");
  const kinds = Array.isArray(answer.kinds) ? (answer.kinds as Record<string, unknown>[]) : [];
  const kind = kinds.find((k) => k.x402Version === 1 && k.scheme === "exact" && k.network === network);
  const feePayer = (kind?.extra as { feePayer?: unknown } | undefined)?.feePayer;
  if (typeof feePayer !== "string" || !feePayer)
    throw new FacilitatorError(`the facilitator did not provide a fee payer for network: ${network}`);
  return feePayer;
}
