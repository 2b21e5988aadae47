/**
 * The payment seams of the analytics service. A verifier says whether a payment (in its x402 v1
 * form, protocols.ts) pays for the requirement this server issued (pure checks, no state); the gate (gate.ts) admits a
 * verified payment once through the ledger, settles it only with an answer that can be sent, and
 * releases it otherwise; a settlement backend moves the money and can later tell whether it moved.
 */
import type { components } from "../../../../generated/types/analytics.js";

export type PaymentRequirements = components["schemas"]["X402.PaymentRequirements"];
export type PaymentRequiredBody = components["schemas"]["X402.PaymentRequiredBody"];
export type PaymentErrorReason = PaymentRequiredBody["error"];
export type SettlementReceipt = components["schemas"]["X402.SettlementReceipt"];
export type PaymentRequirementsV2 = components["schemas"]["X402.PaymentRequirementsV2"];
export type PaymentRequiredV2 = components["schemas"]["X402.PaymentRequiredV2"];
export type SettlementReceiptV2 = components["schemas"]["X402.SettlementReceiptV2"];
export type SettlementFailureV2 = components["schemas"]["X402.SettlementFailureV2"];
export type Network = PaymentRequirements["network"];
export type Family = "svm" | "evm";

/** A payment that passed every check. */
export interface VerifiedPayment {
  /**
   * Replay key: `<network>:<authorizer>:<nonce>` (EIP-3009 nonces are unique per authorizer) or, on Solana,
   * `<network>:<sha256 of the transaction's message, hex>` (the payer's signature would not do: see verifier.ts).
   */
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
  /** A payment that does not pay, with the x402 reason (a header that is not base64 JSON is refused before, as malformed). */
  | { ok: false; reason: PaymentErrorReason; message: string; payer?: string };

export interface PaymentVerifier {
  /**
   * `payment`: the decoded payment in its v1 form (`{x402Version, scheme, network, payload}`).
   * `retry`: it is checked only to find the answer it already paid for, so an authorization too
   * close to its end for a new settlement (but not past it) passes.
   */
  verify(
    payment: Record<string, unknown>,
    requirement: PaymentRequirements,
    options?: { retry?: boolean },
  ): Promise<Verification>;
}
