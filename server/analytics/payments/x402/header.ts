/**
 * Decoding a payment header (`X-PAYMENT`, `PAYMENT-SIGNATURE`): strict base64 of a JSON object,
 * bounded in size. A header that fails here is malformed (400), not a rejected payment (402); the
 * shape of what decodes is the verifiers' job.
 */

/**
 * Bounded, yet above any real payment: a v1 payload is under 1 KB, but a v2 client echoes the
 * challenge's extensions (the Bazaar description, up to ~4 KB here) beside it. Node itself refuses
 * request headers over 16 KiB in all.
 */
export const MAX_HEADER_LENGTH = 12_288;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export type DecodedHeader = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

export function decodePaymentHeader(header: string): DecodedHeader {
  const text = header.trim();
  if (text.length > MAX_HEADER_LENGTH) return { ok: false, message: `is longer than ${MAX_HEADER_LENGTH} characters` };
  if (!BASE64.test(text) || text.length % 4 !== 0) return { ok: false, message: "is not base64" };
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, "base64").toString("utf8"));
  } catch {
    return { ok: false, message: "is not base64-encoded JSON" };
  }
  if (!value || typeof value !== "object" || Array.isArray(value))
    return { ok: false, message: "is not a JSON object" };
  return { ok: true, value: value as Record<string, unknown> };
}
