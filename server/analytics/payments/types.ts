/**
 * The payment seams of the analytics service. A verifier says whether an `X-PAYMENT` header pays
 * for the requirement this server issued (pure checks, no state); the gate (gate.ts) admits a
 * verified payment once through the ledger, settles it only with an answer that can be sent, and
 * releases it otherwise; a settlement backend moves the money and can later tell whether it moved.
 */
import type { components } from "../../../generated/types/analytics.js";

export type PaymentRequirements = components["schemas"]["X402.PaymentRequirements"];
export type PaymentRequiredBody = components["schemas"]["X402.PaymentRequiredBody"];
export type PaymentErrorReason = PaymentRequiredBody["error"];
export type SettlementReceipt = components["schemas"]["X402.SettlementReceipt"];
export type Network = PaymentRequirements["network"];
export type Family = "svm" | "evm";

/** A payment that passed every check. */
export interface VerifiedPayment {
  /** Replay key: `<network>:<authorizer>:<nonce>` (EIP-3009 nonces are unique per authorizer) or `<network>:<payer's signature>`. */
  key: string;
  family: Family;
  network: Network;
  payer: string;
  /** Atomic USDC amount, integer string. */
  amount: string;
  /** The requirement it pays, as this server issued it. */
  requirement: PaymentRequirements;
  /** The decoded x402 `payload` (EIP-3009 authorization and signature, or the Solana transaction). */
  payload: unknown;
  /** Epoch ms after which the payment can no longer be settled (EVM `validBefore`) or is no longer accepted (Solana). */
  expiresAt: number;
}

export type Verification =
  | { ok: true; payment: VerifiedPayment }
  /** 400 for a header that is not base64 JSON; 402 for a payment that does not pay. */
  | { ok: false; status: 400 | 402; reason: PaymentErrorReason; message: string; payer?: string };

export interface PaymentVerifier {
  verify(header: string, requirement: PaymentRequirements): Promise<Verification>;
}
