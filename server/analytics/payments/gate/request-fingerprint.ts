/**
 * What a paid request asked for, as one hash: its prefix, its operation and its input after
 * validation and defaults, in a canonical JSON (keys sorted), and the x402 version it was paid in.
 * The same question asked as a POST body or as a legacy GET's query has the same fingerprint; any
 * other question has another. A retry with a used payment gets the stored answer only when the
 * fingerprints agree, so a payment first sent in `PAYMENT-SIGNATURE` and replayed in `X-PAYMENT`
 * (or the reverse) is a refused replay: its answer's receipt was written for the first header.
 * A v1 fingerprint is the one written before v2 existed, so stored answers outlive the upgrade.
 */
import { createHash } from "node:crypto";

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.keys(value)
        .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  return value;
}

export function requestFingerprint(prefix: string, operation: string, input: unknown, version: 1 | 2 = 1): string {
  const asked = [prefix, operation, input ?? {}, ...(version === 1 ? [] : [version])];
  return createHash("sha256")
    .update(JSON.stringify(canonical(asked)))
    .digest("base64url");
}
