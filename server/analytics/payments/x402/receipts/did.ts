/**
 * did:web identities (W3C did:web method): the service's public origin as a DID, and the DID document
 * `GET /.well-known/did.json` answers, listing the receipt key as a verification method whose id is
 * every signature's `kid`. `https://api.example.com` is `did:web:api.example.com`; a port is written
 * `%3A` (`did:web:localhost%3A4021`); a path adds colon-separated segments (`https://example.com/api`
 * is `did:web:example.com:api`, whose document did:web resolvers fetch at `/api/did.json`).
 */
import type { ReceiptKey, RetiredKey } from "./key.js";

/** Where a did:web's document is (the reverse of `didWebOf`; a DID URL's fragment is ignored): `/.well-known/did.json` of a bare host, `/<path>/did.json` with a path; http for a loopback host. */
export function didWebDocumentUrl(did: string): string | undefined {
  const [method, host, ...segments] = (did.split("#")[0] as string).replace(/^did:/, "").split(":");
  if (!did.startsWith("did:") || method !== "web" || !host) return undefined;
  const authority = decodeURIComponent(host);
  const name = authority.replace(/:[0-9]+$/, "");
  const scheme = name === "localhost" || name === "127.0.0.1" || name === "[::1]" ? "http" : "https";
  const path = segments.length ? `/${segments.map(decodeURIComponent).join("/")}/did.json` : "/.well-known/did.json";
  return `${scheme}://${authority}${path}`;
}

export function didWebOf(origin: string): string {
  const url = new URL(origin);
  const segments = url.pathname.split("/").filter(Boolean).map(encodeURIComponent);
  return ["did:web", encodeURIComponent(url.host), ...segments].join(":");
}

/** The `kid` of the key at an origin: its verification method's id. */
export const keyIdOf = (origin: string, key: ReceiptKey): string => `${didWebOf(origin)}#${key.fragment}`;

interface VerificationMethod {
  id: string;
  type: "JsonWebKey2020";
  controller: string;
  publicKeyJwk: ReceiptKey["publicJwk"];
  /** When the key started signing, where known (ISO 8601). */
  validFrom?: string;
  /** A retired key: when it stopped signing (ISO 8601). Its receipts still verify. */
  validUntil?: string;
}

export interface DidDocument {
  "@context": string[];
  id: string;
  verificationMethod: VerificationMethod[];
  assertionMethod: string[];
}

const validFromOf = (ms: number | undefined) => (ms === undefined ? {} : { validFrom: new Date(ms).toISOString() });

/** The key in use first, then each retired key with the time it was current: a receipt signed by any of them verifies. */
export function didDocument(origin: string, key: ReceiptKey): DidDocument {
  const id = didWebOf(origin);
  const method = (held: Pick<RetiredKey, "fragment" | "publicJwk">): VerificationMethod => ({
    id: `${id}#${held.fragment}`,
    type: "JsonWebKey2020",
    controller: id,
    publicKeyJwk: held.publicJwk,
  });
  const methods = [
    { ...method(key), ...validFromOf(key.validFrom) },
    ...key.retired.map((old) => ({
      ...method(old),
      ...validFromOf(old.validFrom),
      validUntil: new Date(old.validUntil).toISOString(),
    })),
  ];
  return {
    "@context": ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/suites/jws-2020/v1"],
    id,
    verificationMethod: methods,
    assertionMethod: methods.map((m) => m.id),
  };
}
