/**
 * What a paid request asked for, as one hash: its prefix, its operation and its input after
 * validation and defaults, in a canonical JSON (keys sorted). The same question asked as a POST
 * body or as a legacy GET's query has the same fingerprint; any other question has another. A
 * retry with a used payment gets the stored answer only when the fingerprints agree.
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

export function requestFingerprint(prefix: string, operation: string, input: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify(canonical([prefix, operation, input ?? {}])))
    .digest("base64url");
}
