// RECEIPT_SIGNING_KEY as an operator writes it: a PKCS#8 PEM from openssl (with real or written-out line
// breaks) or a JWK, both the same key; any other key or text refused in one line naming the variable;
// unset, a development key on testnet and none on mainnet, with the DID document and kid built on it.
import { generateKeyPairSync, type JsonWebKey } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../../../config/env.js";
import { didDocument, didWebDocumentUrl, didWebOf, keyIdOf } from "./did.js";
import { decodeCompact, jwsSigner, signCompact, verifyCompact } from "./jws.js";
import { pemOf, receiptKeyOf, retiredKeysOf } from "./key.js";

const NAME = "RECEIPT_SIGNING_KEY";
const { privateKey } = generateKeyPairSync("ed25519");
const pem = privateKey.export({ format: "pem", type: "pkcs8" }).toString();
const jwk = JSON.stringify(privateKey.export({ format: "jwk" }));

describe("receiptKeyOf", () => {
  it("reads one key from a PEM, a PEM with \\n written out, or a JWK", () => {
    const keys = [pem, pem.replaceAll("\n", "\\n"), jwk].map((raw) => receiptKeyOf({ [NAME]: raw }, NAME, "mainnet"));
    for (const key of keys)
      expect(key).toMatchObject({ publicJwk: keys[0]?.publicJwk, fragment: keys[0]?.fragment, development: false });
    expect(keys[0]?.fragment).toMatch(/^receipts-[A-Za-z0-9_-]{12}$/);
  });

  it("refuses text that is no key, and a key of another type, naming the variable", () => {
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 })
      .privateKey.export({ format: "pem", type: "pkcs8" })
      .toString();
    expect(() => receiptKeyOf({ [NAME]: "not a key" }, NAME, "testnet")).toThrow(ConfigError);
    expect(() => receiptKeyOf({ [NAME]: '{"kty":"OKP"}' }, NAME, "testnet")).toThrow(
      /^RECEIPT_SIGNING_KEY must be an Ed25519 private key/,
    );
    expect(() => receiptKeyOf({ [NAME]: rsa }, NAME, "testnet")).toThrow("RECEIPT_SIGNING_KEY must be an Ed25519 key");
  });

  it("makes a development key on testnet when unset, which a worker reads back from its PEM; none on mainnet", () => {
    const made = receiptKeyOf({}, NAME, "testnet");
    expect(made?.development).toBe(true);
    expect(receiptKeyOf({ [NAME]: pemOf(made as never) }, NAME, "testnet")?.publicJwk).toEqual(made?.publicJwk);
    expect(receiptKeyOf({}, NAME, "mainnet")).toBeUndefined();
  });
});

describe("did:web", () => {
  it("writes the origin's host, a port as %3A, a path as more segments; and finds a DID's document from it", () => {
    expect(didWebOf("https://api.example.com")).toBe("did:web:api.example.com");
    expect(didWebOf("http://localhost:4021")).toBe("did:web:localhost%3A4021");
    expect(didWebOf("https://example.com/api/v1")).toBe("did:web:example.com:api:v1");
    expect(didWebDocumentUrl("did:web:api.example.com#receipts-1")).toBe(
      "https://api.example.com/.well-known/did.json",
    );
    expect(didWebDocumentUrl("did:web:localhost%3A4021#receipts-1")).toBe("http://localhost:4021/.well-known/did.json");
    expect(didWebDocumentUrl("did:web:example.com:api:v1")).toBe("https://example.com/api/v1/did.json");
    expect(didWebDocumentUrl("did:key:z6Mk")).toBeUndefined();
  });

  it("lists the key under the id every signature names as kid, and a signature verifies under its publicKeyJwk", () => {
    const key = receiptKeyOf({ [NAME]: pem }, NAME, "mainnet") as NonNullable<ReturnType<typeof receiptKeyOf>>;
    const document = didDocument("https://api.example.com", key);
    const kid = keyIdOf("https://api.example.com", key);
    expect(document.verificationMethod[0]?.id).toBe(kid);
    const jws = signCompact({ b: 1, a: "x" }, jwsSigner(key.secretKey, kid));
    expect(verifyCompact(jws, document.verificationMethod[0]?.publicKeyJwk as JsonWebKey)?.payload).toEqual({
      a: "x",
      b: 1,
    });
    // the payload is JCS: keys sorted, no white space
    expect(Buffer.from(jws.split(".")[1] as string, "base64url").toString()).toBe('{"a":"x","b":1}');
    // deterministic: the same payload and key, the same bytes
    expect(signCompact({ a: "x", b: 1 }, jwsSigner(key.secretKey, kid))).toBe(jws);
    const other = receiptKeyOf({}, NAME, "testnet") as NonNullable<ReturnType<typeof receiptKeyOf>>;
    expect(verifyCompact(jws, other.publicJwk)).toBeUndefined();
  });
});

describe("a rotation of the receipt key (RECEIPT_RETIRED_KEYS)", () => {
  const RETIRED = "RECEIPT_RETIRED_KEYS";
  const pemOfNew = () => generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" }).toString();
  const origin = "https://api.example.com";

  it("keeps a receipt signed before the rotation verifying after it, under the kid it names", () => {
    const before = receiptKeyOf({ [NAME]: pem }, NAME, "mainnet") as NonNullable<ReturnType<typeof receiptKeyOf>>;
    const receipt = signCompact({ payer: "0xabc", issuedAt: 1 }, jwsSigner(before.secretKey, keyIdOf(origin, before)));
    // the rotation: a new key, the old one's public half retired with the time it was current
    const env = {
      [NAME]: pemOfNew(),
      [RETIRED]: `${before.publicJwk.x}@2026-11-01T00:00:00Z/2026-12-07T12:00:00Z`,
    };
    const after = receiptKeyOf(env, NAME, "mainnet", retiredKeysOf(env, RETIRED)) as typeof before;
    const document = didDocument(origin, after);
    expect(document.verificationMethod.map((m) => [m.validFrom, m.validUntil])).toEqual([
      ["2026-12-07T12:00:00.000Z", undefined],
      ["2026-11-01T00:00:00.000Z", "2026-12-07T12:00:00.000Z"],
    ]);
    expect(document.assertionMethod).toEqual(document.verificationMethod.map((m) => m.id));
    const kid = decodeCompact(receipt)?.header.kid;
    const method = document.verificationMethod.find((m) => m.id === kid);
    expect(method?.publicKeyJwk).toEqual(before.publicJwk);
    expect(verifyCompact(receipt, method?.publicKeyJwk as JsonWebKey)?.payload).toEqual({
      payer: "0xabc",
      issuedAt: 1,
    });
    // the same receipt does not verify under the key now in use
    expect(verifyCompact(receipt, document.verificationMethod[0]?.publicKeyJwk as JsonWebKey)).toBeUndefined();
  });

  it("lists several retired keys, and refuses an entry it cannot read, naming the variable", () => {
    const x = (receiptKeyOf({ [NAME]: pem }, NAME, "mainnet") as { publicJwk: { x: string } }).publicJwk.x;
    expect(retiredKeysOf({ [RETIRED]: `${x}@2026-12-01T00:00:00Z, ${x}@2026-10-01/2026-11-01` }, RETIRED)).toHaveLength(
      2,
    );
    expect(retiredKeysOf({}, RETIRED)).toEqual([]);
    for (const bad of ["nokey@2026-12-01", `${x}`, `${x}@someday`, `${x}@2026-12-01/2026-11-01`])
      expect(() => retiredKeysOf({ [RETIRED]: bad }, RETIRED), bad).toThrow(
        /^RECEIPT_RETIRED_KEYS must list retired keys as <x>@<until> or <x>@<from>\/<until>/,
      );
  });
});
