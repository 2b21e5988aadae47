/**
 * What a paid call comes to, whichever transport brought it: the pipeline returns one of these. What
 * each means to the payer is stated once, in outcome-facts.ts; each transport adds its wire form
 * (front/http-answers.ts, server/mcp/paid/answers.ts). Nothing here knows a status code or a sentence.
 */
import type { FieldError } from "../../http/errors.js";
import type { OpenStage } from "../payments/ledger/stages.js";
import type { StoredAnswer } from "../payments/ledger/store.js";
import type { Receipt } from "../payments/x402/protocols.js";
import type { PaymentErrorReason } from "../payments/x402/types.js";

export type PaidOutcome =
  /** The input breaks its schema or its operation's rules: each field named; no payment was looked at. */
  | { kind: "invalid_input"; errors: FieldError[] }
  /** No payment came: the offer, so that the caller can pay. */
  /** `errors`: an HTTP request without payment whose input breaks the contract, told what to fix before it pays. */
  | { kind: "payment_required"; errors?: FieldError[] }
  /** Two payments came at once (one per x402 version): which one was meant is not for the service to guess. */
  | { kind: "two_payments" }
  /** The payment is not one at all (not base64 JSON). */
  | { kind: "malformed_payment"; detail: string }
  /** The payment does not pay for this call, with the x402 reason; nothing was reserved or charged. */
  | { kind: "refused"; reason: PaymentErrorReason; detail: string; payer?: string }
  /** The payment was used already: for another call (or in the other version's form), or its answer is gone. */
  | { kind: "used"; reason: PaymentErrorReason; payer: string; why: "another request" | "answer expired" }
  /** The payment is in progress for this same call; it will have been resolved by `until` (epoch ms). */
  | { kind: "held"; stage: OpenStage; until: number }
  /** The payment's x402 `payment-identifier` names a purchase of another request or another payer; nothing was charged. */
  | { kind: "identifier_conflict"; identifier: string }
  /** The answer, charged (or, `replayed`, the one this payment bought already), with its receipt. */
  | { kind: "delivered"; answer: StoredAnswer; receipt: Receipt; replayed: boolean }
  /** Settlement refused the payment after the answer was ready, with the x402 reason; nothing was charged. */
  | { kind: "settlement_refused"; reason: PaymentErrorReason; detail: string; payer: string }
  /** The answer was not ready before the payment's deadline, or came after it; the payment is released, not charged. */
  | { kind: "too_late"; timeoutSeconds: number }
  /**
   * The ledger is out of reach. `before: "admission"`: nothing was reserved; `"settlement"`: nothing moved, and the
   * payment is released as soon as the ledger is back (a settlement whose reply was lost stays settled: the retry
   * gets its answer).
   */
  | { kind: "ledger_unreachable"; before: "admission" | "settlement"; cause: unknown }
  /** The settlement's outcome is not known yet; recovery resolves it on the chain by `until` (epoch ms). */
  | { kind: "settlement_unknown"; until: number; cause: unknown }
  /** The operation failed to produce an answer (an upstream, an unknown entity, a fault); the payment is released. */
  | { kind: "answer_failed"; error: unknown };
