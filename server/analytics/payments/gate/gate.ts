/**
 * The payment gate: charged exactly when the answer is delivered. It speaks in outcomes (admitted,
 * stored, refused, held, settled, late), never in HTTP statuses: each transport says them its way.
 *
 * - `admit` opens a payment header of either x402 version (protocols.ts), verifies the payment
 *   and reserves it in the ledger under one key whichever header brought it. A payment already
 *   settled for the same request (same fingerprint, which names the version) within its validity
 *   window gets its stored answer back, with the same receipt: a client whose answer was lost
 *   retries with the same payment in the same header, even in the last seconds of its validity,
 *   when a new payment would be refused as too close to its end. A payment still in progress is
 *   held, with the time by which it will have been resolved; any other reuse is a refused replay.
 * - `settle` takes an answer that is ready to send (serialized and checked) and settles: with the
 *   answer stored in the same commit when the settlement is the ledger itself; otherwise the
 *   answer is stored at `settling`, before the money moves, so that recovery can serve a retry.
 * - `release` records a payment whose answer failed as not charged and frees its key.
 * - A v2 payment may carry x402's `payment-identifier`: the purchase's own name, bound with the reservation to the
 *   payment, so to its payer and request. A retry under a bound id is looked up before anything is reserved: the same
 *   payer (proven by the new payment's signature) and the same request get the stored answer with its original receipt,
 *   whether the payment is the same or a new one (a new one is recorded not charged, never settled); another payer or
 *   request is a conflict; a purchase still open is held.
 *
 * Every stage is a transition of the ledger (ledger/stages.ts): a payment whose deadline passed
 * (recovery may release it) can no longer be settled by the request that was too slow. A move the
 * ledger refuses says by what (`Refusal`): the deadline, or recovery's release, is `late`; any other
 * refusal (another attempt's entry, no such payment) is the reservation `lost`, told apart and logged.
 */
import { randomUUID } from "node:crypto";
import { StoreUnavailable } from "../../../db/unavailable.js";
import type { Clock } from "../../clock.js";
import type { OpenStage, Refusal } from "../ledger/stages.js";
import type {
  Attempt,
  ExistingPayment,
  LedgerStore,
  Move,
  Reservation,
  ReservationRequest,
  Split,
  StoredAnswer,
  Transport,
} from "../ledger/store.js";
import type { SettlementBackend } from "../settlement/settlement.js";
import { IDENTIFIER_FIELD } from "../x402/payment-identifier.js";
import { type Offer, openSubmission, type Receipt, type Submission } from "../x402/protocols.js";
import type { Family, PaymentErrorReason, PaymentVerifier, Verification, VerifiedPayment } from "../x402/types.js";
import { laterWrites } from "./later-writes.js";

/**
 * A payment the gate admitted: the x402 version of the header it came in, its reservation (its ledger entry and this
 * attempt's token, which its later writes name) and its answer's deadline.
 */
export interface AdmittedPayment extends VerifiedPayment, Attempt {
  version: 1 | 2;
  /** Epoch ms by which its answer must be ready; past it, recovery may release the payment. */
  deadlineAt: number;
}

export type Admission =
  | { kind: "admitted"; payment: AdmittedPayment }
  /** The answer this payment already bought for this request, with its receipt. */
  | { kind: "stored"; answer: StoredAnswer; receipt: Receipt }
  /** The header is not a payment at all (not base64 JSON). */
  | { kind: "malformed"; detail: string }
  /** Verification refused the payment, with the x402 reason; nothing was reserved. */
  | { kind: "refused"; reason: PaymentErrorReason; detail: string; payer?: string }
  /** The payment was used already: for another request (or in the other version's header), or its answer is gone. */
  | { kind: "used"; reason: PaymentErrorReason; payer: string; why: "another request" | "answer expired" }
  /** The payment is in progress (another attempt's, or one a crash interrupted); resolved by `until` at the latest. */
  | { kind: "held"; stage: OpenStage; until: number }
  /** The payment's identifier is bound to a purchase of another request or another payer. */
  | { kind: "identifier_conflict"; identifier: string };

export type Delivery =
  | { kind: "settled"; receipt: Receipt }
  /** Settlement refused the payment, with the x402 reason; nothing was charged. */
  | { kind: "refused"; reason: PaymentErrorReason; detail: string }
  /** The answer came after the payment's deadline (recovery may have released it since): not charged, may retry. */
  | { kind: "late" }
  /**
   * The ledger holds no reservation of this attempt's to move (`refusedBy`, stages.ts): its entry is another attempt's,
   * or no payment's, as when a database crash lost the reservation. Nothing was charged; the same payment, sent again,
   * is reserved anew.
   */
  | { kind: "lost"; refusedBy: Refusal }
  /**
   * The settlement's outcome is not known (the backend failed without an answer): the payment stays open, and by
   * `until` (epoch ms) recovery will have settled it from the chain or released it.
   */
  | { kind: "unknown"; until: number; cause: unknown };

export interface RequestContext {
  /** Operation name, e.g. `defiTvl`. */
  operation: string;
  requestId: string;
  /** What was asked (prefix, operation, normalized input, protocol version), see `requestFingerprint`. */
  fingerprint: string;
  /** How the call came, recorded with the payment; absent: an HTTP request. */
  transport?: Transport;
}

export interface PaymentGate {
  admit(submission: Submission, offer: Offer, request: RequestContext): Promise<Admission>;
  /**
   * Settles with an answer ready to send. Throws `StoreUnavailable` when the ledger could not record it before any money
   * moved; a settlement whose outcome is unknown is the delivery `unknown` (the payment stays open for recovery).
   */
  settle(payment: AdmittedPayment, answer: StoredAnswer): Promise<Delivery>;
  /**
   * Records the payment not charged: moved by this call, or what refused it (`stage`: it had moved on, its settlement
   * landed or recovery released it). A ledger out of reach throws, and is asked again in the background.
   */
  release(payment: AdmittedPayment, why: string): Promise<Move>;
}

export interface GateOptions {
  verifier: PaymentVerifier;
  ledger: LedgerStore;
  backend: SettlementBackend;
  clock: Clock;
  /** The 90/10 split of a payment's amount on its network. */
  split: (network: string, amount: bigint) => Split;
  /** Longest time from admission to a ready answer; past it the payment is released, never charged. */
  answerTimeoutMs: number;
  /** How often recovery runs: a payment held past its deadline is resolved by its next pass. */
  recoveryIntervalMs?: number;
  /** x402's `payment-identifier`: whether a v2 payment must carry one, and how long an id's answer is kept (ms). */
  paymentIdentifier?: { required: boolean; retentionMs: number };
  /**
   * Told of a ledger write that failed, or that the ledger refused, after the money moved (the answer is delivered all
   * the same).
   */
  warn?: (fields: Record<string, unknown>, message: string) => void;
}

/**
 * Margin above a settlement backend's own timeout before recovery looks at a `settling` payment.
 * Only a matter of not asking the chain too early: recovery settles or releases a payment on what
 * the chain shows, never on time alone, so no margin can make it wrong.
 */
const SETTLEMENT_MARGIN_MS = 2_000;

export function receiptOf(
  payment: { network: string; payer: string; amount: bigint | string },
  settlement: { transaction: string; simulated: boolean },
): Receipt {
  return {
    success: true,
    transaction: settlement.transaction,
    network: payment.network as Receipt["network"],
    payer: payment.payer,
    ...(settlement.simulated ? { simulated: true } : {}),
    amount: String(payment.amount),
  };
}

/** The x402 reason a replay is refused with, by chain family. */
const replayReason = (family: Family): PaymentErrorReason =>
  family === "evm" ? "invalid_exact_evm_nonce_already_used" : "duplicate_settlement";

/** What the gate's steps read: its options, its ledger writes that must land, and recovery's interval. */
interface GateRun {
  options: GateOptions;
  writes: LedgerWrites;
  recoveryIntervalMs: number;
}

/** The answer a settled payment delivered, while it is kept (`until`: the payment's expiry, or its identifier's time). */
function storedAnswer(held: ExistingPayment, now: number, until = held.expiresAt): Admission | undefined {
  return held.status === "settled" && held.answer && held.settlement && now <= until
    ? { kind: "stored", answer: held.answer, receipt: receiptOf(held, held.settlement) }
    : undefined;
}

/**
 * A retry of a delivered request gets its stored answer even when its authorization is now too
 * close to its end for a new settlement (the strict check's refusal): checked again without that
 * margin, then looked up, never reserved.
 */
async function storedForRetry(
  { options }: GateRun,
  payment: Record<string, unknown>,
  offer: Offer,
  request: RequestContext,
  refused: Extract<Verification, { ok: false }>,
): Promise<Admission | undefined> {
  if (refused.reason !== "invalid_exact_evm_payload_authorization_valid_before") return undefined;
  const retried = await options.verifier.verify(payment, offer.v1, { retry: true });
  if (!retried.ok) return undefined;
  const held = await options.ledger.held(retried.payment.key);
  return held && held.fingerprint === request.fingerprint ? storedAnswer(held, options.clock.now()) : undefined;
}

/** What the ledger holds under a verified payment's key says of this request. */
function heldAdmission(
  run: GateRun,
  held: ExistingPayment,
  verified: VerifiedPayment,
  request: RequestContext,
): Admission {
  const used = (why: "another request" | "answer expired"): Admission => ({
    kind: "used",
    reason: replayReason(verified.family),
    payer: verified.payer,
    why,
  });
  if (held.fingerprint !== request.fingerprint) return used("another request");
  if (held.status !== "settled")
    return { kind: "held", stage: held.status, until: held.deadlineAt + run.recoveryIntervalMs };
  return storedAnswer(held, run.options.clock.now()) ?? used("answer expired");
}

/** What the ledger records of a verified payment and the request it pays for, reserved or not. */
const paymentRow = (verified: VerifiedPayment, request: RequestContext) => ({
  key: verified.key,
  network: verified.network,
  payer: verified.payer,
  amount: BigInt(verified.amount),
  endpoint: request.operation,
  requestId: request.requestId,
  fingerprint: request.fingerprint,
  transport: request.transport ?? "http",
  payload: JSON.stringify(verified.payload),
  expiresAt: verified.expiresAt,
});

/** Reserves a verified payment for this request, with its answer's deadline; what holds its key (or identifier) otherwise. */
async function reserve(
  run: GateRun,
  verified: VerifiedPayment,
  submission: Submission,
  request: RequestContext,
  identifier: string | undefined,
): Promise<Admission> {
  const { clock, answerTimeoutMs, paymentIdentifier } = run.options;
  // No later than the payment is valid (less the margin settlement needs): an answer ready after it could not be charged.
  const deadlineAt = Math.min(clock.now() + answerTimeoutMs, verified.expiresAt - SETTLEMENT_MARGIN_MS);
  const holder = randomUUID();
  const reservation = await run.writes.reserve({
    ...paymentRow(verified, request),
    deadlineAt,
    holder,
    ...(identifier !== undefined && {
      identifier,
      keepAnswerUntil: Math.max(verified.expiresAt, clock.now() + (paymentIdentifier?.retentionMs ?? 0)),
    }),
  });
  if (!reservation.reserved)
    return reservation.by === "key"
      ? heldAdmission(run, reservation.existing, verified, request)
      : underIdentifier(run, reservation.existing, verified, request, identifier as string);
  return {
    kind: "admitted",
    payment: { ...verified, version: submission.version, entry: reservation.entry, holder, deadlineAt },
  };
}

/** EVM addresses are one address in any case; Solana's base58 is case-sensitive. */
const samePayer = (a: string, b: string) => a === b || (a.startsWith("0x") && a.toLowerCase() === b.toLowerCase());

/**
 * What the purchase `bound` to the payment's identifier says of this payment: the stored answer for its own payer and
 * request (a new payment recorded, never charged), held while the purchase is open, a conflict for anyone else.
 */
async function underIdentifier(
  run: GateRun,
  bound: ExistingPayment,
  verified: VerifiedPayment,
  request: RequestContext,
  identifier: string,
): Promise<Admission> {
  if (!samePayer(bound.payer, verified.payer) || bound.fingerprint !== request.fingerprint)
    return { kind: "identifier_conflict", identifier };
  if (bound.status !== "settled")
    return { kind: "held", stage: bound.status, until: bound.deadlineAt + run.recoveryIntervalMs };
  const stored = storedAnswer(bound, run.options.clock.now(), bound.answerUntil);
  // A settled purchase whose answer is gone no longer binds its identifier once the answers past their time are dropped.
  if (!stored) return { kind: "held", stage: "verified", until: run.options.clock.now() + run.recoveryIntervalMs };
  if (verified.key !== bound.key)
    await run.options.ledger.recordUncharged({
      ...paymentRow(verified, request),
      identifier,
      reason: `payment-identifier ${identifier}: its answer was bought by payment ${bound.key}`,
    });
  return stored;
}

/**
 * A payment under an identifier already bound: its signature is checked (without the margin a settlement needs: it is
 * never settled), since only the payer who bound the identifier may have its answer, and nothing is reserved. An answer
 * kept past its time is dropped first, which frees the identifier for this payment.
 */
async function admitUnderBound(
  run: GateRun,
  bound: ExistingPayment,
  opened: { payment: Record<string, unknown>; identifier: string },
  offer: Offer,
  request: RequestContext,
): Promise<Admission | undefined> {
  const { ledger, clock, verifier } = run.options;
  if (bound.status === "settled" && !(bound.answer && clock.now() <= (bound.answerUntil ?? bound.expiresAt))) {
    await ledger.dropExpiredAnswers(clock.now());
    return undefined;
  }
  const verification = await verifier.verify(opened.payment, offer.v1, { retry: true });
  if (!verification.ok)
    return { kind: "refused", reason: verification.reason, detail: verification.message, payer: verification.payer };
  return underIdentifier(run, bound, verification.payment, request, opened.identifier);
}

/**
 * What a refused move of the request's own settlement means. `late` when the payment's deadline passed: by the guard's
 * word (`before deadline`), or because recovery released it meanwhile (its `expire` leaves it `not_charged`, and no
 * other writer releases a payment whose request is still settling). Any other refusal is no deadline's: the entry is
 * another attempt's or no payment's (a reservation lost with a database crash), or in a stage this request did not
 * move it to; reading it as late would tell the caller a story that did not happen.
 */
function refusedDelivery(refused: Extract<Move, { moved: false }>): Delivery {
  if (refused.refusedBy === "before deadline") return { kind: "late" };
  if (refused.refusedBy === "stage" && refused.stage === "not_charged") return { kind: "late" };
  return { kind: "lost", refusedBy: refused.refusedBy };
}

/** Settles with the answer stored first (at `settling`), or in the settlement's own commit when it has no outside effect. */
async function settle(run: GateRun, payment: AdmittedPayment, answer: StoredAnswer): Promise<Delivery> {
  const { options, writes, recoveryIntervalMs } = run;
  const { backend, ledger, clock } = options;
  const split = options.split(payment.network, BigInt(payment.amount));
  /** An open outcome, resolved by recovery's first pass after the payment's deadline `by` at the latest. */
  const unknown = (by: number) => (cause: unknown) => {
    if (cause instanceof StoreUnavailable) throw cause;
    return { kind: "unknown", until: by + recoveryIntervalMs, cause } as const;
  };
  if (!backend.status) {
    try {
      const result = await backend.settle(payment);
      if (!result.ok) return writes.refused(payment, result);
      const settled = await ledger.settleWithAnswer(payment, { ...result, split }, answer);
      return settled.moved ? { kind: "settled", receipt: receiptOf(payment, result) } : refusedDelivery(settled);
    } catch (error) {
      return unknown(payment.deadlineAt)(error);
    }
  }
  const settleBy = clock.now() + backend.timeoutMs + SETTLEMENT_MARGIN_MS;
  const begun = await ledger.beginSettling(payment, answer, settleBy);
  if (!begun.moved) return refusedDelivery(begun);
  // A failure here leaves the payment `settling`: recovery asks the chain where its money went.
  const result = await backend.settle(payment).catch(unknown(settleBy));
  if ("kind" in result) return result;
  if (!result.ok) return writes.refused(payment, result);
  await writes.confirm(payment, { ...result, split });
  return { kind: "settled", receipt: receiptOf(payment, result) };
}

export function createPaymentGate(options: GateOptions): PaymentGate {
  const run: GateRun = {
    options,
    writes: ledgerWrites(options.ledger, options.clock, options.warn ?? (() => {})),
    recoveryIntervalMs: options.recoveryIntervalMs ?? 5_000,
  };
  return {
    async admit(submission, offer, request) {
      const opened = openSubmission(submission, offer);
      if (!opened.ok)
        return opened.malformed
          ? { kind: "malformed", detail: opened.message }
          : { kind: "refused", reason: opened.reason, detail: opened.message };
      const { identifier } = opened;
      if (identifier === undefined && submission.version === 2 && options.paymentIdentifier?.required)
        return {
          kind: "malformed",
          detail: `${IDENTIFIER_FIELD} is required: name the purchase, and repeat the name on its retries`,
        };
      // Looked up before verification: a retry under a bound identifier never reserves its payment.
      const bound = identifier === undefined ? undefined : await options.ledger.bound(identifier);
      const underBound =
        bound &&
        (await admitUnderBound(
          run,
          bound,
          { payment: opened.payment, identifier: identifier as string },
          offer,
          request,
        ));
      if (underBound) return underBound;
      const verification = await options.verifier.verify(opened.payment, offer.v1);
      if (verification.ok) return reserve(run, verification.payment, submission, request, identifier);
      const retried = await storedForRetry(run, opened.payment, offer, request, verification);
      return (
        retried ?? {
          kind: "refused",
          reason: verification.reason,
          detail: verification.message,
          payer: verification.payer,
        }
      );
    },
    settle: (payment, answer) => settle(run, payment, answer),
    release: (payment, why) => run.writes.release(payment, why),
  };
}

type LedgerWrites = ReturnType<typeof ledgerWrites>;

/**
 * The gate's ledger writes that must land even when the ledger is out of reach at the moment: each is tried again in
 * the background (later-writes.ts) until the payment's own limit, so that a retry is served as soon as the ledger is
 * back, rather than held until recovery resolves the payment.
 */
function ledgerWrites(ledger: LedgerStore, clock: Clock, warn: NonNullable<GateOptions["warn"]>) {
  const later = laterWrites(clock);

  /** `write` now, or as soon as the ledger takes it (and throws meanwhile). */
  async function landing(write: () => Promise<Move>, until: number): Promise<Move> {
    try {
      return await write();
    } catch (error) {
      // Once the payment expired it is recovery's.
      if (error instanceof StoreUnavailable) later.add(write, until);
      throw error;
    }
  }

  return {
    /**
     * Reserves, or throws StoreUnavailable. A reservation whose reply was lost may have committed: this attempt never
     * learned its entry, so it abandons it by its holder token as soon as the ledger takes the write.
     */
    async reserve(request: ReservationRequest): Promise<Reservation> {
      try {
        return await ledger.reserve(request);
      } catch (error) {
        if (error instanceof StoreUnavailable)
          later.add(
            () => ledger.abandon(request.key, request.holder, "the ledger's reply to its reservation was lost"),
            request.deadlineAt,
          );
        throw error;
      }
    },
    release: (payment: AdmittedPayment, why: string) => landing(() => ledger.release(payment, why), payment.expiresAt),
    /** Settlement refused the payment: recorded failed now or as soon as the ledger is back; the refusal stands either way. */
    async refused(
      payment: AdmittedPayment,
      result: { reason: PaymentErrorReason; message: string },
    ): Promise<Delivery> {
      await landing(() => ledger.refuse(payment, `${result.reason}: ${result.message}`), payment.expiresAt).catch(
        (error) => {
          if (!(error instanceof StoreUnavailable)) throw error;
        },
      );
      return { kind: "refused", reason: result.reason, detail: result.message };
    },
    /**
     * The money has moved and the answer is stored: it is delivered even if the ledger cannot record the settlement now.
     * A write that failed goes again in the background if the ledger was out of reach, and recovery settles the row from
     * the chain meanwhile. Refused as `settled`, recovery was first (the chain shows the same money moved); any other
     * refusal leaves money moved that the ledger does not record as charged, and is told.
     */
    async confirm(payment: AdmittedPayment, settlement: Parameters<LedgerStore["confirmSettlement"]>[1]) {
      let confirmed: Move;
      try {
        confirmed = await landing(() => ledger.confirmSettlement(payment, settlement), payment.expiresAt);
      } catch (error) {
        warn(
          { err: error, payment: payment.key },
          "the settlement moved the money but the ledger did not record it; recovery will",
        );
        return;
      }
      if (confirmed.moved || (confirmed.refusedBy === "stage" && confirmed.stage === "settled")) return;
      warn(
        { payment: payment.key, entry: payment.entry, transaction: settlement.transaction, ...confirmed },
        "the settlement moved the money but the ledger refused to record it",
      );
    },
  };
}
