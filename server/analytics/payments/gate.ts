/**
 * The payment gate: charged exactly when the answer is delivered.
 *
 * - `admit` opens a payment header of either x402 version (protocols.ts), verifies the payment
 *   and reserves it in the ledger under one key whichever header brought it. A payment already
 *   settled for the same request (same fingerprint, which names the version) within its validity
 *   window gets its stored answer back, with the same receipt: a client whose answer was lost
 *   retries with the same payment in the same header, even in the last seconds of its validity,
 *   when a new payment would be refused as too close to its end. Any other reuse is a refused replay.
 * - `settle` takes an answer that is ready to send (serialized and checked) and settles: with the
 *   answer stored in the same commit when the settlement is the ledger itself; otherwise the
 *   answer is stored at `settling`, before the money moves, so that recovery can serve a retry.
 * - `release` records a payment whose answer failed as not charged and frees its key.
 *
 * Every stage is a conditional write of the ledger: a payment whose deadline passed (recovery may
 * release it) can no longer be settled by the request that was too slow.
 */
import { randomUUID } from "node:crypto";
import { StoreUnavailable } from "../../db/unavailable.js";
import type { Clock } from "../clock.js";
import { laterWrites } from "./later-writes.js";
import type { Attempt, ExistingPayment, LedgerStore, Reservation, ReservationRequest, Split, StoredAnswer } from "./ledger/store.js";
import { type Offer, openSubmission, type Receipt, type Submission } from "./protocols.js";
import type { SettlementBackend } from "./settlement.js";
import type { Family, PaymentErrorReason, PaymentVerifier, Verification, VerifiedPayment } from "./types.js";

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
  | { kind: "stored"; answer: StoredAnswer; receipt: Receipt }
  | { kind: "rejected"; status: 400 | 402; reason: PaymentErrorReason; message: string; payer?: string };

export type Delivery =
  | { ok: true; receipt: Receipt }
  /** Settlement refused the payment (402 with the reason). */
  | { ok: false; status: 402; reason: PaymentErrorReason; message: string }
  /** The answer came after the payment's deadline: not charged, the caller may retry. */
  | { ok: false; status: 503; message: string };

export interface RequestContext {
  /** Operation name, e.g. `defiTvl`. */
  operation: string;
  requestId: string;
  /** What was asked (prefix, operation, normalized input, protocol version), see `requestFingerprint`. */
  fingerprint: string;
}

export interface PaymentGate {
  admit(submission: Submission, offer: Offer, request: RequestContext): Promise<Admission>;
  /** Settles with an answer ready to send; throws when the settlement's outcome is unknown (the payment stays `settling`). */
  settle(payment: AdmittedPayment, answer: StoredAnswer): Promise<Delivery>;
  /**
   * Records the payment not charged; true when this call released it (false: it had moved on, its
   * settlement landed). A ledger out of reach throws, and is asked again in the background.
   */
  release(payment: AdmittedPayment, why: string): Promise<boolean>;
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

function replayRefusal(family: Family, payer: string, message: string): Admission {
  return family === "evm"
    ? { kind: "rejected", status: 402, reason: "invalid_exact_evm_nonce_already_used", message, payer }
    : { kind: "rejected", status: 402, reason: "duplicate_settlement", message, payer };
}

export function createPaymentGate(options: GateOptions): PaymentGate {
  const { verifier, ledger, backend, clock } = options;

  type Released = "not_charged" | "failed";

  /**
   * A write that frees a payment's key, which the ledger could not take (out of reach), is tried again
   * in the background, so that a retry of the request is served as soon as the ledger is back, rather
   * than refused as "being processed" until recovery releases the payment (at its deadline, or, if it
   * was left `settling`, once the chain shows the money never moved).
   */
  const later = laterWrites(clock);

  /** Releases the payment now, or as soon as the ledger takes the write (and throws meanwhile). */
  async function release(payment: AdmittedPayment, status: Released, why: string): Promise<boolean> {
    try {
      return await ledger.release(payment, status, why);
    } catch (error) {
      // Once the payment expired it is recovery's.
      if (error instanceof StoreUnavailable) later.add(() => ledger.release(payment, status, why), payment.expiresAt);
      throw error;
    }
  }

  /**
   * Reserves, or throws StoreUnavailable. A reservation whose reply was lost may have committed: this
   * attempt never learned its entry, so it abandons it by its holder token as soon as the ledger takes
   * the write, and the retry that the 503 asks for is served rather than refused as in progress until
   * recovery releases it at its deadline.
   */
  async function reserve(request: ReservationRequest): Promise<Reservation> {
    try {
      return await ledger.reserve(request);
    } catch (error) {
      if (error instanceof StoreUnavailable) {
        const abandon = () => ledger.abandon(request.key, request.holder, "the ledger's reply to its reservation was lost");
        later.add(abandon, request.deadlineAt);
      }
      throw error;
    }
  }

  /** Settlement refused the payment: a 402 naming why, recorded failed now or as soon as the ledger is back. */
  async function refused(payment: AdmittedPayment, result: { reason: PaymentErrorReason; message: string }): Promise<Delivery> {
    await release(payment, "failed", `${result.reason}: ${result.message}`).catch((error) => {
      if (!(error instanceof StoreUnavailable)) throw error;
    });
    return { ok: false, status: 402, reason: result.reason, message: result.message };
  }

  const splitOf = (payment: VerifiedPayment) => options.split(payment.network, BigInt(payment.amount));

  /** The answer a settled payment delivered, while it is kept. */
  const stored = (held: ExistingPayment, now: number): Admission | undefined =>
    held.status === "settled" && held.answer && held.settlement && now <= held.expiresAt
      ? { kind: "stored", answer: held.answer, receipt: receiptOf(held, held.settlement) }
      : undefined;

  /**
   * A retry of a delivered request gets its stored answer even when its authorization is now too
   * close to its end for a new settlement (the strict check's refusal): checked again without that
   * margin, then looked up, never reserved.
   */
  async function storedForRetry(
    payment: Record<string, unknown>,
    offer: Offer,
    request: RequestContext,
    refused: Extract<Verification, { ok: false }>,
  ): Promise<Admission | undefined> {
    if (refused.reason !== "invalid_exact_evm_payload_authorization_valid_before") return undefined;
    const retried = await verifier.verify(payment, offer.v1, { retry: true });
    if (!retried.ok) return undefined;
    const held = await ledger.held(retried.payment.key);
    return held && held.fingerprint === request.fingerprint ? stored(held, clock.now()) : undefined;
  }

  return {
    async admit(submission, offer, request) {
      const opened = openSubmission(submission, offer);
      if (!opened.ok) return { kind: "rejected", ...opened };
      const verification = await verifier.verify(opened.payment, offer.v1);
      if (!verification.ok)
        return (await storedForRetry(opened.payment, offer, request, verification)) ?? { kind: "rejected", ...verification };
      const verified = verification.payment;
      const now = clock.now();
      // No later than the payment is valid (less the margin settlement needs): an answer ready after it could not be charged.
      const deadlineAt = Math.min(now + options.answerTimeoutMs, verified.expiresAt - SETTLEMENT_MARGIN_MS);
      const holder = randomUUID();
      const reservation = await reserve({
        key: verified.key,
        network: verified.network,
        payer: verified.payer,
        amount: BigInt(verified.amount),
        endpoint: request.operation,
        requestId: request.requestId,
        fingerprint: request.fingerprint,
        payload: JSON.stringify(verified.payload),
        deadlineAt,
        expiresAt: verified.expiresAt,
        holder,
      });
      if (reservation.reserved)
        return { kind: "admitted", payment: { ...verified, version: submission.version, entry: reservation.entry, holder, deadlineAt } };

      const held = reservation.existing;
      if (held.fingerprint !== request.fingerprint)
        return replayRefusal(
          verified.family,
          verified.payer,
          "this payment was already used for another request, or sent in the other x402 version's header",
        );
      if (held.status === "settling")
        return replayRefusal(
          verified.family,
          verified.payer,
          "this payment's settlement is under way or its outcome is not known yet; repeat this request with it in a minute: you receive the answer if it was charged, and if it can no longer settle it is released, never charged",
        );
      if (held.status !== "settled")
        return replayRefusal(
          verified.family,
          verified.payer,
          "this payment is being processed by another request; repeat this request with it in a few seconds to receive the answer",
        );
      return (
        stored(held, now) ??
        replayRefusal(verified.family, verified.payer, "this payment was already used, and its answer is no longer kept")
      );
    },

    async settle(payment, answer) {
      const late: Delivery = {
        ok: false,
        status: 503,
        message: "The answer took longer than the payment's deadline; nothing was charged. Repeat the request.",
      };
      // Without an outside effect (the ledger backend) the settlement and the stored answer are one commit.
      if (!backend.status) {
        const result = await backend.settle(payment);
        if (!result.ok) return refused(payment, result);
        const settled = await ledger.settle(payment, { ...result, split: splitOf(payment) }, answer);
        return settled ? { ok: true, receipt: receiptOf(payment, result) } : late;
      }
      const settleBy = clock.now() + backend.timeoutMs + SETTLEMENT_MARGIN_MS;
      if (!(await ledger.beginSettling(payment, answer, settleBy))) return late;
      // A throw here leaves the payment `settling`: recovery asks the chain where its money went.
      const result = await backend.settle(payment);
      if (!result.ok) return refused(payment, result);
      // False only when recovery already resolved it (as settled: the chain shows the same money moved). The money has
      // moved and the answer is stored: it is delivered even if the ledger is out of reach now, and recovery settles the row.
      await ledger.settle(payment, { ...result, split: splitOf(payment) }).catch(() => false);
      return { ok: true, receipt: receiptOf(payment, result) };
    },

    release: (payment, why) => release(payment, "not_charged", why),
  };
}
