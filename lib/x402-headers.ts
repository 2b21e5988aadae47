/**
 * The x402 headers of both protocol versions and how each carries its object: one definition for
 * the service, its client and the conformance suite. v1: the payment in `X-PAYMENT`, the receipt in
 * `X-PAYMENT-RESPONSE`, the challenge in the 402 body. v2: the payment in `PAYMENT-SIGNATURE`, the
 * receipt in `PAYMENT-RESPONSE`, the challenge in `PAYMENT-REQUIRED`.
 */
export type X402Version = 1 | 2;

/** The request header each version's payment comes in. */
export const PAYMENT_HEADERS = { 1: "X-PAYMENT", 2: "PAYMENT-SIGNATURE" } as const;
/** The response header of each version's receipt. */
export const RECEIPT_HEADERS = { 1: "X-PAYMENT-RESPONSE", 2: "PAYMENT-RESPONSE" } as const;
/** The response header of the v2 challenge. */
export const CHALLENGE_HEADER = "PAYMENT-REQUIRED";

/** Base64 of UTF-8 JSON: how every x402 header carries its object. */
export const encodeHeader = (value: unknown): string => Buffer.from(JSON.stringify(value), "utf8").toString("base64");

/** The object of an x402 header, read leniently (a client reading its server); throws when it is not base64 JSON. */
export const decodeHeader = (header: string): unknown => JSON.parse(Buffer.from(header, "base64").toString("utf8"));
