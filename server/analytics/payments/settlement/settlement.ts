/**
 * Settlement backends move the money of a verified payment: `ledger` (embedded default: the
 * ledger's own record is the settlement, nothing is broadcast), `facilitator` (a remote x402
 * facilitator) and `local-chain` (in-process chains for tests and demos). A backend with an
 * outside effect can also say, after an interruption, whether a payment's money moved.
 */
import type { PaymentErrorReason, VerifiedPayment } from "../x402/types.js";

export type SettlementMode = "ledger" | "facilitator" | "local-chain";

export type BackendResult =
  | { ok: true; transaction: string; simulated: boolean }
  | { ok: false; reason: PaymentErrorReason; message: string };

/**
 * A payment whose settlement's outcome is not known: as recovery reads it from the ledger after an
 * interruption, or as the facilitator backend holds it when a refusal may have come after sending.
 */
export interface InterruptedPayment {
  network: string;
  payer: string;
  /** The decoded x402 `payload` as the client signed it. */
  payload: unknown;
  /** Epoch ms after which the payment can no longer settle. */
  expiresAt: number;
  /** Epoch ms before which nothing of the payment can be on chain (its admission, or its settlement's start), when known. */
  createdAt?: number;
}

export type SettlementState =
  /** The money moved (the authorization was used; the transaction landed). */
  | { state: "settled"; transaction: string }
  /** The money did not move and never can any more (the authorization expired unused, the blockhash expired). */
  | { state: "unsettled"; why: string }
  /** Not moved yet, but it still could: ask again later. */
  | { state: "open"; why: string };

export interface SettlementBackend {
  readonly mode: SettlementMode;
  /**
   * Longest a `settle` call may take. A payment goes to `settling` with this much time (plus a
   * margin) before recovery asks the backend where its money stands.
   */
  readonly timeoutMs: number;
  /**
   * Moves the money. A refusal is a result; a throw means the outcome is unknown, and the payment
   * stays `settling` for recovery to resolve.
   */
  settle(payment: VerifiedPayment): Promise<BackendResult>;
  /** Where the money of an interrupted payment stands; absent when settling has no outside effect. */
  status?(payment: InterruptedPayment): Promise<SettlementState>;
  /**
   * Resolves when the backend answers now (`GET /readyz` asks); absent when there is nothing
   * outside the ledger and the process to ask (the ledger's own check covers the `ledger` backend).
   */
  ping?(signal: AbortSignal): Promise<void>;
}

/** The embedded default: the ledger's commit is the settlement (receipts say `simulated`). */
export const ledgerBackend: SettlementBackend = {
  mode: "ledger",
  timeoutMs: 0,
  async settle(payment) {
    return { ok: true, transaction: `ledger:${payment.key}`, simulated: true };
  },
};
