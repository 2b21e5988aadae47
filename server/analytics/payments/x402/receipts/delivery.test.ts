// The delivery binding of a receipt: withReceipt signs the SHA-256 of the answer body's exact UTF-8 bytes (version 2,
// raw), the same receipt for the same stored answer, and @x402/extensions' verifier accepts it; checkDelivery takes
// the body a client kept and says whether it is the one bound: the very bytes match, an edited or re-serialized body
// differs, a version 1 receipt binds nothing, and a `jcs` binding is checked on the body's RFC 8785 form.
import { createHash } from "node:crypto";
import { type JWSSignedReceipt, verifyReceiptSignatureJWS } from "@x402/extensions/offer-receipt";
import { describe, expect, it } from "vitest";
import { checkDelivery, rawBinding } from "./delivery.js";
import { canonicalJson, decodeCompact } from "./jws.js";
import { receiptKeyOf } from "./key.js";
import { receiptSigner } from "./offer-receipt.js";

const key = receiptKeyOf({}, "RECEIPT_SIGNING_KEY", "testnet") as NonNullable<ReturnType<typeof receiptKeyOf>>;
const signer = receiptSigner(key, { port: 4021 });
const URL = "http://localhost:4021/base/defi/tvl";

/** An answer envelope as the service writes it: non-ASCII and an escaped control inside, its timestamp last. */
const body = JSON.stringify({
  data: { protocol: "Curve – Frax\tUSDC", tvlUsd: 1234567.89, change: -0.000001 },
  timestamp: "2026-12-07T12:00:00.000Z",
});
const settled = { success: true, transaction: "0xabc", network: "eip155:84532", payer: "0x1111" };
const bytes = (text: string) => new TextEncoder().encode(text);
const receiptOf = (response: object) =>
  (response as { extensions: { "offer-receipt": { info: { receipt: JWSSignedReceipt } } } }).extensions["offer-receipt"]
    .info.receipt;
const payloadOf = (receipt: JWSSignedReceipt) => decodeCompact(receipt.signature)?.payload as Record<string, unknown>;

describe("withReceipt's delivery binding", () => {
  it("signs version 2 with the SHA-256 of the body's UTF-8 bytes, raw; @x402/extensions verifies it", async () => {
    const receipt = receiptOf(signer.withReceipt(settled, URL, body));
    const expected = `0x${createHash("sha256").update(Buffer.from(body, "utf8")).digest("hex")}`;
    expect(await verifyReceiptSignatureJWS(receipt, key.publicJwk)).toEqual({
      version: 2,
      network: "eip155:84532",
      resourceUrl: URL,
      payer: "0x1111",
      issuedAt: Date.parse("2026-12-07T12:00:00.000Z") / 1000,
      transaction: "0xabc",
      responseHash: expected,
      responseHashAlg: "sha256",
      responseHashEncoding: "raw",
    });
  });

  it("is a pure function of the stored answer: the same body, the same receipt; another body, another", () => {
    const first = receiptOf(signer.withReceipt(settled, URL, body));
    expect(receiptOf(signer.withReceipt({ ...settled }, URL, body))).toEqual(first);
    const other = receiptOf(signer.withReceipt(settled, URL, body.replace("1234567.89", "1234567.88")));
    expect(payloadOf(other).issuedAt).toBe(payloadOf(first).issuedAt);
    expect(payloadOf(other).responseHash).not.toBe(payloadOf(first).responseHash);
  });
});

describe("checkDelivery", () => {
  const payload = payloadOf(receiptOf(signer.withReceipt(settled, URL, body)));

  it("matches the very bytes, and nothing else: an edited, re-serialized or newline-ended body differs", () => {
    expect(checkDelivery(payload, bytes(body))).toMatchObject({ kind: "matches" });
    for (const other of [
      body.replace("1234567.89", "1234567.88"),
      JSON.stringify(JSON.parse(body), null, 2),
      `${body}\n`,
    ])
      expect(checkDelivery(payload, bytes(other))).toEqual({
        kind: "differs",
        binding: rawBinding(body),
        actual: rawBinding(other).responseHash,
      });
  });

  it("finds nothing bound in a version 1 receipt", () => {
    const { responseHash, responseHashAlg, responseHashEncoding, ...v1 } = payload;
    expect(checkDelivery({ ...v1, version: 1 }, bytes(body))).toEqual({ kind: "unbound" });
  });

  it("checks a jcs binding on the RFC 8785 form, whatever the white space; says when it cannot", () => {
    const jcs = {
      ...payload,
      responseHash: `0x${createHash("sha256")
        .update(canonicalJson(JSON.parse(body)))
        .digest("hex")}`,
      responseHashEncoding: "jcs",
    };
    expect(checkDelivery(jcs, bytes(JSON.stringify(JSON.parse(body), null, 2)))).toMatchObject({ kind: "matches" });
    expect(checkDelivery(jcs, bytes(body.replace("Frax", "Fraxx")))).toMatchObject({ kind: "differs" });
    expect(checkDelivery(jcs, bytes("not json"))).toMatchObject({ kind: "uncheckable" });
    expect(checkDelivery({ ...jcs, responseHashAlg: "sha512" }, bytes(body))).toMatchObject({ kind: "uncheckable" });
    expect(checkDelivery({ ...jcs, responseHashEncoding: "gzip" }, bytes(body))).toMatchObject({ kind: "uncheckable" });
  });
});
