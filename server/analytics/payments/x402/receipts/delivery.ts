/**
 * The delivery binding of x402's `offer-receipt` extension: a version 2 receipt carries the digest of the body it
 * was issued for, `responseHash` (`0x` and the lowercase hex of a SHA-256), with `responseHashAlg: "sha256"` and
 * `responseHashEncoding`, `raw` (the body's bytes as delivered, before any content encoding) or `jcs` (the RFC 8785
 * form of the JSON body). Field names and meaning follow the extension's text as proposed in x402 PR #3186
 * (docs/payments.md says which commit). This service binds `raw`: the stored answer's bytes are what every retry
 * sends again, and anyone can check them with `sha256sum` (decision 0017); both encodings are checked.
 */
import { createHash } from "node:crypto";
import { canonicalJson } from "./jws.js";

export type DigestEncoding = "raw" | "jcs";

/** The three fields a receipt payload gains. */
export interface DeliveryBinding {
  responseHash: string;
  responseHashAlg: "sha256";
  responseHashEncoding: DigestEncoding;
}

const sha256 = (bytes: string | Uint8Array) => `0x${createHash("sha256").update(bytes).digest("hex")}`;

/** The binding of a body sent as it is: the SHA-256 of its exact bytes (a string's, in UTF-8, as it goes out). */
export const rawBinding = (body: string | Uint8Array): DeliveryBinding => ({
  responseHash: sha256(body),
  responseHashAlg: "sha256",
  responseHashEncoding: "raw",
});

/** What a check of a received body against a receipt's payload found. */
export type DeliveryCheck =
  | { kind: "matches"; binding: DeliveryBinding }
  /** The receipt binds no body (a version 1 receipt): nothing to check it against. */
  | { kind: "unbound" }
  /** An algorithm or encoding this check does not know, or a body with no form in that encoding (`jcs` of non-JSON). */
  | { kind: "uncheckable"; reason: string }
  | { kind: "differs"; binding: DeliveryBinding; actual: string };

/** The receipt's binding, when it carries a complete one. */
export function bindingOf(payload: object): DeliveryBinding | undefined {
  const { responseHash, responseHashAlg, responseHashEncoding } = payload as Record<string, unknown>;
  if (typeof responseHash !== "string" || responseHash === "") return undefined;
  return {
    responseHash,
    responseHashAlg: responseHashAlg as DeliveryBinding["responseHashAlg"],
    responseHashEncoding: responseHashEncoding as DigestEncoding,
  };
}

/**
 * Whether `body`, the bytes of an answer as a client received it (content encoding removed), is the one the receipt
 * payload binds. Returns what it found; never throws.
 */
export function checkDelivery(payload: object, body: Uint8Array): DeliveryCheck {
  const binding = bindingOf(payload);
  if (!binding) return { kind: "unbound" };
  if (binding.responseHashAlg !== "sha256")
    return { kind: "uncheckable", reason: `responseHashAlg ${String(binding.responseHashAlg)} is not sha256` };
  let actual: string;
  if (binding.responseHashEncoding === "raw") actual = sha256(body);
  else if (binding.responseHashEncoding === "jcs") {
    try {
      const json: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
      actual = sha256(canonicalJson(json));
    } catch (error) {
      return { kind: "uncheckable", reason: `the body has no JCS form: ${(error as Error).message}` };
    }
  } else
    return {
      kind: "uncheckable",
      reason: `responseHashEncoding ${String(binding.responseHashEncoding)} is neither raw nor jcs`,
    };
  return actual === binding.responseHash.toLowerCase()
    ? { kind: "matches", binding }
    : { kind: "differs", binding, actual };
}
