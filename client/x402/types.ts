/** x402 v1 wire types shared by the paying clients, taken from the generated contract. */
import type { components } from "../../generated/types/analytics.js";

export type PaymentRequirements = components["schemas"]["X402.PaymentRequirements"];
export type PaymentRequiredBody = components["schemas"]["X402.PaymentRequiredBody"];
export type PaymentPayload = components["schemas"]["X402.PaymentPayload"];
export type SettlementReceipt = components["schemas"]["X402.SettlementReceipt"];

/** Base64 of the JSON payload: the `X-PAYMENT` header value. */
export function encodePaymentHeader(payload: PaymentPayload): string {
  return Buffer.from(JSON.stringify(payload)).toString("base64");
}

/** Decodes an `X-PAYMENT-RESPONSE` header. */
export function decodeReceipt(header: string): SettlementReceipt {
  return JSON.parse(Buffer.from(header, "base64").toString("utf8"));
}
