/**
 * x402 wire types shared by the paying clients, taken from the generated contract, and the two
 * envelopes around one `exact` payment. v1: the challenge in the 402 body, the payment in
 * `X-PAYMENT`, the receipt in `X-PAYMENT-RESPONSE`. v2: the challenge in `PAYMENT-REQUIRED`, the
 * payment in `PAYMENT-SIGNATURE` (echoing the requirement paid), the receipt in `PAYMENT-RESPONSE`.
 * The signed payload (EIP-3009 authorization or Solana transaction) is the same in both.
 */
import type { components } from "../../generated/types/analytics.js";
import { decodeHeader, encodeHeader, type PAYMENT_HEADERS, type X402Version } from "../../lib/x402-headers.js";

export type PaymentRequirements = components["schemas"]["X402.PaymentRequirements"];
export type PaymentRequiredBody = components["schemas"]["X402.PaymentRequiredBody"];
export type PaymentPayload = components["schemas"]["X402.PaymentPayload"];
export type SettlementReceipt = components["schemas"]["X402.SettlementReceipt"];
export type PaymentRequirementsV2 = components["schemas"]["X402.PaymentRequirementsV2"];
export type PaymentRequiredV2 = components["schemas"]["X402.PaymentRequiredV2"];
export type PaymentPayloadV2 = components["schemas"]["X402.PaymentPayloadV2"];
export type SettlementReceiptV2 = components["schemas"]["X402.SettlementReceiptV2"];
export type EvmExactPayload = components["schemas"]["X402.EvmExactPayload"];
export type SvmExactPayload = components["schemas"]["X402.SvmExactPayload"];
/** The signed `exact` payload, the same in both versions. */
export type ExactPayload = EvmExactPayload | SvmExactPayload;

export {
  CHALLENGE_HEADER,
  decodeHeader,
  encodeHeader,
  PAYMENT_HEADERS,
  RECEIPT_HEADERS,
  type X402Version,
} from "../../lib/x402-headers.js";
export type PaymentHeaderName = (typeof PAYMENT_HEADERS)[X402Version];

/** A requirement as one version offered it. */
export type Requirement = PaymentRequirements | PaymentRequirementsV2;
/** A receipt as one version wrote it. */
export type Receipt = SettlementReceipt | SettlementReceiptV2;

/** One offer of a challenge, with what its version's payment must carry besides the payload. */
export type Offer =
  | { version: 1; requirement: PaymentRequirements }
  | { version: 2; requirement: PaymentRequirementsV2; resource: PaymentRequiredV2["resource"]; extensions?: unknown };

/** What a signer needs of a requirement of either version; `network` as the offer wrote it (v1 name or CAIP-2). */
export interface PaymentTerms {
  network: string;
  /** Atomic USDC, integer string. */
  amount: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extra?: PaymentRequirementsV2["extra"];
}

export function termsOf(requirement: Requirement): PaymentTerms {
  const { network, asset, payTo, maxTimeoutSeconds, extra } = requirement;
  const amount = "amount" in requirement ? requirement.amount : requirement.maxAmountRequired;
  return { network, amount, asset, payTo, maxTimeoutSeconds, ...(extra ? { extra } : {}) };
}

/** Base64 of the JSON payload: the `X-PAYMENT` header value. */
export const encodePaymentHeader = (payload: PaymentPayload): string => encodeHeader(payload);

const PAYMENT_IDENTIFIER = "payment-identifier";

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A new x402 `payment-identifier` id: `pay_` and 32 random hex digits (16–128 letters, digits, `-`, `_`). */
export const newPaymentId = (): string => `pay_${crypto.randomUUID().replaceAll("-", "")}`;

/** Whether a v2 offer's challenge declares x402's `payment-identifier` (its payments may carry an id). */
export const offersPaymentIdentifier = (offer: Offer): boolean =>
  offer.version === 2 && isRecord(offer.extensions) && isRecord(offer.extensions[PAYMENT_IDENTIFIER]);

/**
 * The x402 v2 payment of `offer` with `payload`: the requirement echoed in `accepted`, the challenge's extensions
 * echoed, and `paymentId`, the purchase's x402 `payment-identifier`, added to its declaration when the offer has one.
 */
export function paymentPayloadV2(
  offer: Extract<Offer, { version: 2 }>,
  payload: ExactPayload,
  paymentId?: string,
): PaymentPayloadV2 {
  const { requirement: accepted, resource } = offer;
  // The challenge's extensions go back as they came (x402 v2 §5.1.2: echoed, never dropped), the id in its declaration.
  let extensions = offer.extensions as Record<string, unknown> | undefined;
  if (paymentId !== undefined && offersPaymentIdentifier(offer) && extensions) {
    const declared = extensions[PAYMENT_IDENTIFIER] as Record<string, unknown>;
    const info = { ...(isRecord(declared.info) ? declared.info : {}), id: paymentId };
    extensions = { ...extensions, [PAYMENT_IDENTIFIER]: { ...declared, info } };
  }
  return { x402Version: 2, resource, accepted, payload, ...(extensions ? { extensions: extensions as never } : {}) };
}

/**
 * The payment header value paying `offer` with `payload`, in the offer's version. `paymentId`: the purchase's x402
 * `payment-identifier`, added to the echoed declaration (v2 offers that declare it only).
 */
export function encodePayment(offer: Offer, payload: ExactPayload, paymentId?: string): string {
  if (offer.version === 1) {
    const { scheme, network } = offer.requirement;
    return encodePaymentHeader({ x402Version: 1, scheme, network, payload });
  }
  return encodeHeader(paymentPayloadV2(offer, payload, paymentId));
}

/** Decodes an `X-PAYMENT-RESPONSE` or `PAYMENT-RESPONSE` header. */
export const decodeReceipt = (header: string): Receipt => decodeHeader(header) as Receipt;
