/**
 * The two x402 protocol versions this service speaks on the same URLs, as wire forms around one
 * payment. v1: the challenge in the 402 body, the payment in `X-PAYMENT`, the receipt in
 * `X-PAYMENT-RESPONSE`, v1 network names. v2: the challenge in `PAYMENT-REQUIRED`, the payment in
 * `PAYMENT-SIGNATURE` (echoing the requirement it pays in `accepted`), the receipt in
 * `PAYMENT-RESPONSE`, CAIP-2 networks. The `exact` payload inside is the same, so a v2 payment is
 * opened into the v1 form once its `accepted` matched what this server offered, and from there one
 * verifier, one ledger and one replay key serve both.
 */
import { encodeHeader, PAYMENT_HEADERS, RECEIPT_HEADERS, type X402Version } from "../../../../lib/x402-headers.js";
import type { BazaarExtension } from "./bazaar.js";
import { decodePaymentHeader } from "./header.js";
import { IDENTIFIER_FIELD, type PaymentIdentifierDeclaration, readPaymentIdentifier } from "./payment-identifier.js";
import type {
  PaymentErrorReason,
  PaymentRequiredV2,
  PaymentRequirements,
  PaymentRequirementsV2,
  SettlementFailureV2,
  SettlementReceipt,
  SettlementReceiptV2,
} from "./types.js";

export { CHALLENGE_HEADER, encodeHeader, PAYMENT_HEADERS, type X402Version } from "../../../../lib/x402-headers.js";

/**
 * A payment as it arrived: in a header (base64 JSON; the version is the header's, whatever the JSON
 * inside claims), or, over MCP, as the v2 `PaymentPayload` object itself.
 */
export type Submission = { version: X402Version; header: string } | { version: 2; object: unknown };

export type SubmissionRead = { kind: "none" } | { kind: "both" } | ({ kind: "payment" } & Submission);

/** The payment header of a request: `PAYMENT-SIGNATURE`, `X-PAYMENT`, none, or (a 400) both. */
export function readSubmission(get: (name: string) => string | undefined): SubmissionRead {
  const v2 = get(PAYMENT_HEADERS[2]);
  const v1 = get(PAYMENT_HEADERS[1]);
  if (v2 !== undefined && v1 !== undefined) return { kind: "both" };
  if (v2 !== undefined) return { kind: "payment", version: 2, header: v2 };
  if (v1 !== undefined) return { kind: "payment", version: 1, header: v1 };
  return { kind: "none" };
}

/** What a route offers, in both versions: the v2 requirement is the v1 one in v2's shape. */
export interface Offer {
  v1: PaymentRequirements;
  v2: PaymentRequirementsV2;
}

export function v2Requirement(
  requirement: Omit<PaymentRequirements, "resource">,
  caip2: string,
): PaymentRequirementsV2 {
  return {
    scheme: requirement.scheme,
    network: caip2 as PaymentRequirementsV2["network"],
    amount: requirement.maxAmountRequired,
    asset: requirement.asset,
    payTo: requirement.payTo,
    maxTimeoutSeconds: requirement.maxTimeoutSeconds,
    extra: requirement.extra as PaymentRequirementsV2["extra"],
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The first field of `accepted` that differs from the requirement issued, or undefined when it is
 * that requirement. Every field of the requirement must be equal; `extra` must hold each issued
 * field with its value (a client may add its own, as `@x402/core`'s server allows).
 */
export function acceptedMismatch(accepted: unknown, issued: PaymentRequirementsV2): string | undefined {
  if (!isRecord(accepted)) return "accepted";
  const fields = issued as unknown as Record<string, unknown>;
  for (const field in fields) if (field !== "extra" && accepted[field] !== fields[field]) return `accepted.${field}`;
  const offered = accepted.extra;
  const extra = issued.extra as Record<string, unknown> | undefined;
  for (const field in extra)
    if (!isRecord(offered) || offered[field] !== extra[field]) return `accepted.extra.${field}`;
  return undefined;
}

export type Opened =
  /** `identifier`: the v2 payment's x402 `payment-identifier`, if it carries one. */
  | { ok: true; payment: Record<string, unknown>; identifier?: string }
  /** Not a payment at all: the header is not base64 JSON. */
  | { ok: false; malformed: true; message: string }
  /** A payment this route does not take, refused before any signature is looked at. */
  | { ok: false; malformed: false; reason: PaymentErrorReason; message: string };

/**
 * Decodes a submission into the v1 form of the payment (`{x402Version: 1, scheme, network,
 * payload}`) that the verifier checks against the v1 requirement. A header that is not base64
 * JSON is malformed; a v2 payment of another version, or whose `accepted` is not this route's offer,
 * is refused before any signature is looked at. A v1 payment is passed on as it is: its checks
 * (version, scheme, network) are the verifier's.
 */
export function openSubmission(submission: Submission, offer: Offer): Opened {
  const decoded = "header" in submission ? decodePaymentHeader(submission.header) : paymentObject(submission.object);
  if (!decoded.ok) return { ok: false, malformed: true, message: decoded.message };
  if (submission.version === 1) return { ok: true, payment: decoded.value };
  const value = decoded.value;
  if (value.x402Version !== 2)
    return {
      ok: false,
      malformed: false,
      reason: "invalid_x402_version",
      message: "the payment must be x402Version 2",
    };
  const field = acceptedMismatch(value.accepted, offer.v2);
  if (field)
    return {
      ok: false,
      malformed: false,
      reason: "invalid_payment_requirements",
      message: `${field} is not what this resource offers; pay one of the requirements of its challenge unchanged`,
    };
  const identifier = readPaymentIdentifier(value);
  if (identifier.kind === "invalid")
    return { ok: false, malformed: true, message: `${IDENTIFIER_FIELD} ${identifier.detail}` };
  const payment = { x402Version: 1, scheme: offer.v1.scheme, network: offer.v1.network, payload: value.payload };
  return { ok: true, payment, ...(identifier.kind === "id" && { identifier: identifier.id }) };
}

const paymentObject = (value: unknown) =>
  isRecord(value) ? { ok: true as const, value } : { ok: false as const, message: "is not a PaymentPayload object" };

/** The v2 challenge of an offer: its resource as an object, `error` naming why (as the v1 body's does). */
/** The extensions a v2 challenge declares: discovery, and the payment identifier a payment may (or must) carry. */
export interface ChallengeExtensions {
  bazaar: BazaarExtension;
  "payment-identifier": PaymentIdentifierDeclaration;
}

export function challengeV2(
  offer: Offer,
  extensions: ChallengeExtensions,
  error: PaymentErrorReason,
): PaymentRequiredV2 {
  const { resource: url, description, mimeType } = offer.v1;
  return {
    x402Version: 2,
    error,
    resource: { url, description, mimeType },
    accepts: [offer.v2],
    // The generated type reads the extension's free-form objects (schemas, examples) as empty ones.
    extensions: extensions as unknown as PaymentRequiredV2["extensions"],
  };
}

/** A settled payment's receipt, with what either version's form needs. */
export interface Receipt extends SettlementReceipt {
  /** Atomic USDC amount settled. */
  amount: string;
}

/**
 * What settlement's refusal of a payment adds to its 402: in v2, `PAYMENT-RESPONSE` reporting the
 * failure (`success: false`, the reason, no transaction), as the v2 transport does; nothing in v1.
 */
export function failureHeader(
  version: X402Version,
  failure: { reason: PaymentErrorReason; payer: string },
  caip2: string,
): [name: string, value: string] | undefined {
  if (version === 1) return undefined;
  return [RECEIPT_HEADERS[2], encodeHeader(settlementFailureV2(failure, caip2))];
}

/** The v2 settlement response of a refused settlement (`PAYMENT-RESPONSE`, MCP's `x402/payment-response`). */
export function settlementFailureV2(
  failure: { reason: PaymentErrorReason; payer: string },
  caip2: string,
): SettlementFailureV2 {
  const network = caip2 as SettlementFailureV2["network"];
  return { success: false, errorReason: failure.reason, transaction: "", network, payer: failure.payer };
}

/** The v2 settlement response of a settled payment (`PAYMENT-RESPONSE`, MCP's `x402/payment-response`). */
export function settlementResponseV2(receipt: Receipt, caip2: string): SettlementReceiptV2 {
  return { ...receipt, network: caip2 as SettlementReceiptV2["network"] };
}

/** The receipt header of the version the payment came in. */
export function receiptHeader(version: X402Version, receipt: Receipt, caip2: string): [name: string, value: string] {
  if (version === 2) return [RECEIPT_HEADERS[2], encodeHeader(settlementResponseV2(receipt, caip2))];
  const { amount: _amount, ...v1 } = receipt;
  return [RECEIPT_HEADERS[1], encodeHeader(v1)];
}
