// Signed offers and receipts (the x402 offer-receipt extension) as a client of the running app checks
// them with @x402/extensions 2.27's own verifiers, given the public key the service publishes in its
// /.well-known/did.json: every offer of a real 402 and the receipt of an answer paid by the official
// v2 client verify, match each other and the payment, and name the key the document lists; the receipt
// binds the exact body the client received, and an edited body fails that check; an edited receipt
// does not verify; a retry served from the ledger carries the very same receipt; v1 is unchanged.

import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  decodeSignedOffers,
  extractOffersFromPaymentRequired,
  extractReceiptFromResponse,
  extractReceiptPayload,
  findAcceptsObjectFromSignedOffer,
  type JWSSignedOffer,
  type JWSSignedReceipt,
  verifyOfferSignatureJWS,
  verifyReceiptMatchesOffer,
  verifyReceiptSignatureJWS,
} from "@x402/extensions/offer-receipt";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeHeader, listen, type Running, v1Client, v2Client } from "../../../../../test/support/x402-clients.js";
import { loadAnalyticsConfig } from "../../../../config/analytics.js";
import { createLogger } from "../../../../http/logger.js";
import { createAnalyticsService } from "../../../service.js";
import { checkDelivery } from "./delivery.js";

let app: Running;
/** The PAYMENT-RESPONSE header and the body of the v2 paid answer below, for the command line's tests. */
let paid: { header: string; payer: string; body: Uint8Array } | undefined;
type Did = { id: string; verificationMethod: { id: string; publicKeyJwk: { kty: string; crv: string; x: string } }[] };
let did: Did;
const publicKey = () =>
  did.verificationMethod[0]?.publicKeyJwk as NonNullable<Parameters<typeof verifyOfferSignatureJWS>[1]>;

beforeAll(async () => {
  const service = await createAnalyticsService(loadAnalyticsConfig({ LEDGER_DB: ":memory:" }), {
    logger: createLogger("silent"),
  });
  app = await listen(service.app, service.ledger, service.close);
  did = (await (await fetch(`${app.origin}/.well-known/did.json`)).json()) as Did;
});
afterAll(() => app?.close());

const post = (pay: typeof fetch, url: string, headers: Record<string, string> = {}) =>
  pay(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: '{"limit":2}' });

/** The signature with one character of its payload part changed. */
const tampered = (jws: string) => {
  const [header, payload, signature] = jws.split(".") as [string, string, string];
  const edited = Buffer.from(
    JSON.stringify({ ...JSON.parse(Buffer.from(payload, "base64url").toString()), amount: "1" }),
  );
  return `${header}.${edited.toString("base64url")}.${signature}`;
};

describe("/.well-known/did.json", () => {
  it("is the did:web of the request's origin, listing one Ed25519 key as its assertion method", () => {
    const port = new URL(app.origin).port;
    expect(did.id).toBe(`did:web:127.0.0.1%3A${port}`);
    expect(did.verificationMethod).toHaveLength(1);
    expect(did.verificationMethod[0]?.id).toMatch(new RegExp(`^did:web:127\\.0\\.0\\.1%3A${port}#receipts-`));
    expect(did.verificationMethod[0]?.publicKeyJwk).toEqual({ kty: "OKP", crv: "Ed25519", x: expect.any(String) });
    expect(did).toMatchObject({ assertionMethod: [did.verificationMethod[0]?.id] });
  });
});

describe("the offers of a 402", () => {
  it("sign every accepts entry, verify under the published key, and name it as kid; an edited one does not verify", async () => {
    const res = await post(fetch, `${app.origin}/base/defi/tvl`);
    expect(res.status).toBe(402);
    const required = decodeHeader(res.headers.get("payment-required"));
    const offers = extractOffersFromPaymentRequired(required) as JWSSignedOffer[];
    expect(offers).toHaveLength(required.accepts.length);
    for (const [index, offer] of offers.entries()) {
      expect(offer).toMatchObject({ format: "jws", acceptIndex: index });
      const header = JSON.parse(Buffer.from(offer.signature.split(".")[0] as string, "base64url").toString());
      expect(header).toEqual({ alg: "EdDSA", kid: did.verificationMethod[0]?.id });
      const payload = await verifyOfferSignatureJWS(offer, publicKey());
      expect(payload).toMatchObject({ version: 1, resourceUrl: `${app.origin}/base/defi/tvl`, scheme: "exact" });
      expect(payload.validUntil).toBeGreaterThan(Date.now() / 1000);
      expect(findAcceptsObjectFromSignedOffer(offer, required.accepts)).toEqual(required.accepts[index]);
      await expect(
        verifyOfferSignatureJWS({ ...offer, signature: tampered(offer.signature) }, publicKey()),
      ).rejects.toThrow();
    }
    // The v1 body beside it is as it was.
    expect(await res.json()).not.toHaveProperty("extensions");
  });
});

describe("the receipt of a v2 paid answer", () => {
  it("verifies, proves the payment (payer, network, resource, the answer's time, transaction) and the body delivered, matches the offer; a retry gets the same", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const { pay, sent } = v2Client(account, "");
    const url = `${app.origin}/base/defi/tvl`;
    const offered = decodeSignedOffers(
      extractOffersFromPaymentRequired(decodeHeader((await post(fetch, url)).headers.get("payment-required"))),
    )[0];

    const res = await post(pay, url);
    expect(res.status).toBe(200);
    const receipt = extractReceiptFromResponse(res) as JWSSignedReceipt;
    expect(receipt.format).toBe("jws");
    const settlement = decodeHeader(res.headers.get("payment-response"));
    const payload = await verifyReceiptSignatureJWS(receipt, publicKey());
    // the body exactly as it came, bytes and all
    const body = new Uint8Array(await res.arrayBuffer());
    const envelope = JSON.parse(new TextDecoder().decode(body)) as { timestamp: string };
    expect(payload).toEqual({
      version: 2,
      network: "eip155:84532",
      resourceUrl: url,
      payer: account.address,
      issuedAt: Math.floor(Date.parse(envelope.timestamp) / 1000),
      transaction: settlement.transaction,
      responseHash: `0x${createHash("sha256").update(body).digest("hex")}`,
      responseHashAlg: "sha256",
      responseHashEncoding: "raw",
    });
    expect(extractReceiptPayload(receipt)).toEqual(payload);
    expect(checkDelivery(payload, body)).toMatchObject({ kind: "matches" });
    const edited = new TextEncoder().encode(JSON.stringify({ ...envelope, data: [] }));
    expect(checkDelivery(payload, edited)).toMatchObject({ kind: "differs" });
    expect(offered && verifyReceiptMatchesOffer(receipt, offered, [account.address])).toBe(true);
    await expect(
      verifyReceiptSignatureJWS({ ...receipt, signature: tampered(receipt.signature) }, publicKey()),
    ).rejects.toThrow();

    const retry = await post(fetch, url, { "PAYMENT-SIGNATURE": sent[0] as string });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("payment-response")).toBe(res.headers.get("payment-response"));
    paid = { header: res.headers.get("payment-response") as string, payer: account.address, body };
  });

  it("is not added to a v1 answer's X-PAYMENT-RESPONSE", async () => {
    const res = await post(v1Client(privateKeyToAccount(generatePrivateKey()), "").pay, `${app.origin}/base/defi/tvl`);
    expect(res.status).toBe(200);
    expect(decodeHeader(res.headers.get("x-payment-response"))).not.toHaveProperty("extensions");
  });
});

/** `npm run receipts -- verify …` as a child process (asynchronously: the app it asks for its key runs in this one). */
function verifyCommand(
  args: string[],
  input?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ["--import", "tsx", "scripts/receipts.ts", "verify", ...args],
      (error, stdout, stderr) => resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
    );
    child.stdin?.end(input ?? "");
  });
}

describe("npm run receipts -- verify", () => {
  it("verifies the raw header from standard input, finding the key by the kid's did:web, and says what it proves", async () => {
    const { header, payer } = paid as NonNullable<typeof paid>;
    const { code, stdout, stderr } = await verifyCommand(["-"], header);
    expect(code, stdout + stderr).toBe(0);
    expect(stdout).toContain(`VERIFIED: signed by ${did.verificationMethod[0]?.id}`);
    for (const line of [payer, "eip155:84532", `${app.origin}/base/defi/tvl`, "ledger:base-sepolia:"])
      expect(stdout).toContain(line);
    expect(stdout).toMatch(/ {2}response {5}0x[0-9a-f]{64} \(sha256, raw\)/);
  });

  it("with --body, accepts the very answer received and refuses another, naming both digests, with exit 1", async () => {
    const { header, body } = paid as NonNullable<typeof paid>;
    const dir = mkdtempSync(join(tmpdir(), "receipts-"));
    const write = (name: string, bytes: Uint8Array | string) => {
      writeFileSync(join(dir, name), bytes);
      return join(dir, name);
    };
    const answer = write("answer.json", body);
    const right = await verifyCommand(["-", "--body", answer], header);
    expect(right.code, right.stdout + right.stderr).toBe(0);
    expect(right.stdout).toContain(`  delivered    ${answer} is that body`);

    const envelope = JSON.parse(new TextDecoder().decode(body)) as Record<string, unknown>;
    const bound = `0x${createHash("sha256").update(body).digest("hex")}`;
    for (const other of [
      JSON.stringify({ ...envelope, data: [] }), // another answer
      JSON.stringify(envelope, null, 2), // the same answer, written out again
    ]) {
      const wrong = await verifyCommand(["-", "--body", write("other.json", other)], header);
      expect(wrong.code, wrong.stdout + wrong.stderr).toBe(1);
      expect(wrong.stdout).toBe("");
      expect(wrong.stderr).toContain(`is not the answer it was issued for: the receipt binds ${bound}`);
      expect(wrong.stderr).toContain(`hashes to 0x${createHash("sha256").update(other).digest("hex")}`);
    }
  });

  it("verifies the decoded JSON or the receipt alone from a file, with --url; refuses an edited receipt with exit 1", async () => {
    const settlement = decodeHeader((paid as NonNullable<typeof paid>).header);
    const receipt = settlement.extensions["offer-receipt"].info.receipt;
    const dir = mkdtempSync(join(tmpdir(), "receipts-"));
    const write = (name: string, value: unknown) => {
      writeFileSync(join(dir, name), JSON.stringify(value));
      return join(dir, name);
    };
    for (const file of [write("response.json", settlement), write("receipt.json", receipt)])
      expect((await verifyCommand([file, "--url", app.origin])).code).toBe(0);
    const edited = await verifyCommand([
      write("edited.json", { ...receipt, signature: tampered(receipt.signature) }),
      "--url",
      app.origin,
    ]);
    expect(edited.code).toBe(1);
    expect(edited.stderr).toContain("NOT VERIFIED: the signature does not verify");
  });
});
