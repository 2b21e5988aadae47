/**
 * What the payment path reports about itself: each payment's outcome and each settlement call's
 * duration. An injected observer (the service passes its Prometheus one, tests a fake), so the
 * payment core names no metrics library; the gate and the backend are observed by decorators
 * (reporting.ts), recovery reports what it resolved.
 */
import type { SettlementMode } from "../settlement/settlement.js";

/**
 * - `served`: settled and delivered. `replayed`: a delivered answer sent again to a retry of its
 *   payment, not charged again. `held`: the payment is in progress (another attempt's, or one a crash
 *   interrupted), and its retry was told when to come back. `refused`: refused with an x402 reason (a
 *   malformed header's is `invalid_payload`), at admission or by the settlement. `released`: the
 *   answer failed; not charged. `recovered`: resolved by recovery after a crash, a settlement of
 *   unknown outcome or an answer past its deadline.
 */
export type PaymentOutcome = "served" | "replayed" | "held" | "refused" | "released" | "recovered";

export interface PaymentEvent {
  network: string;
  /** The x402 version the payment was made under; empty where it is not known (recovery reads the ledger, which does not keep it). */
  version: string;
  outcome: PaymentOutcome;
  /** `refused`: the x402 reason code; `recovered`: `settled` or `released`; otherwise empty. */
  reason: string;
  /** Micro-USDC the payment moved: on `served`, and on `recovered` as `settled` (never on a replay). */
  amount?: bigint;
}

export interface SettlementEvent {
  backend: SettlementMode;
  /** `error`: the outcome is unknown (thrown); recovery resolves it. */
  outcome: "settled" | "refused" | "error";
  seconds: number;
}

export interface PaymentObserver {
  payment(event: PaymentEvent): void;
  settlement(event: SettlementEvent): void;
}

/** The default: nothing is reported. */
export const unobservedPayments: PaymentObserver = { payment() {}, settlement() {} };
