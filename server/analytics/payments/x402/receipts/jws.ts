/**
 * JWS compact serialization (RFC 7515) with one algorithm, EdDSA over Ed25519 (RFC 8037), as the
 * x402 offer-receipt extension signs its offers and receipts: the protected header is `{alg, kid}`,
 * the payload the JCS canonical form (RFC 8785) of a JSON object. Ed25519 signatures are
 * deterministic, so the same payload and key give the same bytes every time (decision 0011). Written
 * here rather than on jose because the answers it signs are built synchronously; signed with libsodium,
 * which takes half of node:crypto's one-shot `sign` per signature (decision 0015), and checked with node:crypto.
 */
import { createPublicKey, type JsonWebKey, verify } from "node:crypto";
import sodium from "sodium-native";

export const base64url = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString("base64url");

/** A lone (unpaired) UTF-16 surrogate: with the `u` flag a pair reads as one code point, which is not `Cs`. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The JCS canonical form (RFC 8785) of a JSON value: objects, arrays, strings, booleans, null and finite
 * numbers (an object's undefined fields are left out, as JSON.stringify leaves them). Object keys sorted by
 * UTF-16 code units, no white space; numbers as ECMAScript's Number.prototype.toString writes them (-0 as 0);
 * strings as JSON.stringify escapes them (`\b \t \n \f \r`, other controls as lowercase `\u00xx`, `"` and
 * `\`, everything else as it is), which is RFC 8785 §3.2.2.2 to the letter, except that JSON.stringify writes
 * a lone surrogate as an escape where the RFC requires an error. Throws a TypeError for what JCS has no form of.
 */
export function canonicalJson(value: unknown): string {
  switch (typeof value) {
    case "string":
      return canonicalString(value);
    case "number":
      if (!Number.isFinite(value)) throw new TypeError("JCS has no form for a non-finite number");
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "object": {
      if (value === null) return "null";
      if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
      const record = value as Record<string, unknown>;
      let fields = "";
      // sort()'s default order compares UTF-16 code units, as RFC 8785 asks
      for (const key of Object.keys(record).sort()) {
        if (record[key] === undefined) continue;
        fields += `${fields ? "," : ""}${canonicalString(key)}:${canonicalJson(record[key])}`;
      }
      return `{${fields}}`;
    }
    default:
      throw new TypeError(`JCS has no form for ${typeof value}`);
  }
}

function canonicalString(text: string): string {
  if (LONE_SURROGATE.test(text)) throw new TypeError("JCS has no form for a string with a lone surrogate");
  return JSON.stringify(text);
}

/** A key ready to sign: libsodium's 64-byte Ed25519 secret key and the encoded protected header naming its `kid`. */
export interface JwsSigner {
  secretKey: Buffer;
  protectedHeader: string;
}

export const jwsSigner = (secretKey: Buffer, kid: string): JwsSigner => ({
  secretKey,
  protectedHeader: base64url(JSON.stringify({ alg: "EdDSA", kid })),
});

/** `header.payload.signature` of `payload` signed with an Ed25519 private key, the header naming its `kid`. */
export function signCompact(payload: object, signer: JwsSigner): string {
  const input = `${signer.protectedHeader}.${base64url(canonicalJson(payload))}`;
  const signature = Buffer.alloc(sodium.crypto_sign_BYTES);
  sodium.crypto_sign_detached(signature, Buffer.from(input), signer.secretKey);
  return `${input}.${base64url(signature)}`;
}

export interface DecodedJws {
  header: { alg?: unknown; kid?: unknown };
  payload: Record<string, unknown>;
}

/** The header and payload of a compact JWS, unverified; undefined when it is not one. */
export function decodeCompact(jws: string): DecodedJws | undefined {
  const parts = jws.split(".");
  if (parts.length !== 3) return undefined;
  try {
    const [header, payload] = parts
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, "base64url").toString("utf8")));
    if (!isObject(header) || !isObject(payload)) return undefined;
    return { header, payload };
  } catch {
    return undefined;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The decoded JWS when its EdDSA signature verifies under `publicJwk` (an Ed25519 OKP key); undefined otherwise. */
export function verifyCompact(jws: string, publicJwk: JsonWebKey): DecodedJws | undefined {
  const decoded = decodeCompact(jws);
  if (decoded?.header.alg !== "EdDSA") return undefined;
  const cut = jws.lastIndexOf(".");
  const key = createPublicKey({ key: publicJwk, format: "jwk" });
  if (key.asymmetricKeyType !== "ed25519") return undefined;
  const ok = verify(null, Buffer.from(jws.slice(0, cut)), key, Buffer.from(jws.slice(cut + 1), "base64url"));
  return ok ? decoded : undefined;
}
