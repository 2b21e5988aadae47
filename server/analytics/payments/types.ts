/**
 * The payment seams of the analytics service. The gate asks a verifier whether an `X-PAYMENT`
 * header pays for the requirement the server itself issued, and asks a settler to settle only once
 * a successful answer exists; a payment whose answer failed is released, never charged.
 */
import type { components } from "../../../generated/types/analytics.js";

export type PaymentRequirements = components["schemas"]["X402.PaymentRequirements"];
export type PaymentRequiredBody = components["schemas"]["X402.PaymentRequiredBody"];
export type PaymentErrorReason = PaymentRequiredBody["error"];
export type SettlementReceipt = components["schemas"]["X402.SettlementReceipt"];
export type Network = PaymentRequirements["network"];

/** What the request pays for: the requirement plus the accounting context. */
export interface PaymentContext {
  requirement: PaymentRequirements;
  /** Operation name, e.g. `defiTvl`. */
  operation: string;
  requestId: string;
}

/** A payment that passed every check and holds its replay key (EVM nonce or Solana transaction). */
export interface VerifiedPayment {
  /** Replay key, unique per network: `<network>:<nonce or transaction id>`. */
  key: string;
  network: Network;
  payer: string;
  /** Atomic USDC amount, integer string. */
  amount: string;
  context: PaymentContext;
  /** The decoded x402 payload, as settlement needs it. */
  payload: unknown;
}

export type Verification =
  | { ok: true; payment: VerifiedPayment }
  /** 400 for a header that is not base64 JSON; 402 for a payment that does not pay. */
  | { ok: false; status: 400 | 402; reason: PaymentErrorReason; message: string; payer?: string };

export interface PaymentVerifier {
  verify(header: string, context: PaymentContext): Promise<Verification>;
}

export type Settlement = { ok: true; receipt: SettlementReceipt } | { ok: false; reason: PaymentErrorReason; message: string };

export interface PaymentSettler {
  /** Settles a verified payment after its answer was produced and before it is sent. */
  settle(payment: VerifiedPayment): Promise<Settlement>;
  /** The answer failed: record the payment as not charged and free its replay key for a retry. */
  release(payment: VerifiedPayment, why: string): Promise<void>;
}
