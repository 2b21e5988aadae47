// Asking about a payment over HTTP, on the real gate and an in-memory ledger (test payments stand in for signatures):
// a payer who lost its answer learns, free, whether it was charged: settled with the very receipt the answer carried,
// pending with when to ask again, not charged with why, unknown as a 404; by transaction, without the receipt.

import { type JWSSignedReceipt, verifyReceiptSignatureJWS } from "@x402/extensions/offer-receipt";
import { generatePaymentId } from "@x402/extensions/payment-identifier";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { exampleHandlers, testPaymentV2 } from "../../../test/support/analytics.js";
import { buildPaidApp, challengeOf, contract, decodeHeader } from "../../../test/support/paid-app.js";
import { defiHandlers } from "../segments/defi.js";

const PAYER = "0x00000000000000000000000000000000000000aa";
const HOST = "pay.test";

type App = ReturnType<typeof buildPaidApp>["app"];

/** Pays for `/base/defi/tvl` under the payment-identifier `id`. */
async function pay(app: App, id: string) {
  const { v2 } = await challengeOf(app);
  const extensions = { "payment-identifier": { info: { required: false, id } } };
  return request(app)
    .post("/base/defi/tvl")
    .set("Host", HOST)
    .set("PAYMENT-SIGNATURE", testPaymentV2(v2.accepts[0], PAYER, undefined, extensions))
    .send({});
}

const ask = (app: App, path: string) => request(app).get(path).set("Host", HOST);

/** A handler of `defiTvl` that waits for `release()`, and one that fails. */
function slowTvl() {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tvl = defiHandlers.defiTvl as (input: never, ctx: never) => Promise<unknown>;
  return { handler: (async (input: never, ctx: never) => gate.then(() => tvl(input, ctx))) as never, release };
}

describe("asking about a payment", () => {
  it("answers a settled purchase by its identifier with its transaction and the identical receipt, verifiable", async () => {
    const { app } = buildPaidApp();
    const id = generatePaymentId();
    const paid = await pay(app, id);
    expect(paid.status, paid.text).toBe(200);
    const settlement = decodeHeader(paid.headers["payment-response"]);
    const res = await ask(app, `/base/payments/${id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers["retry-after"]).toBeUndefined();
    expect(res.body).toMatchObject({
      status: "settled",
      stage: "settled",
      network: "base-sepolia",
      amount: "1000",
      transaction: settlement.transaction,
      simulated: true,
    });
    const carried = settlement.extensions["offer-receipt"].info.receipt as JWSSignedReceipt;
    expect(res.body.receipt).toEqual(carried);
    const did = (await ask(app, "/.well-known/did.json")).body;
    const payload = await verifyReceiptSignatureJWS(res.body.receipt, did.verificationMethod[0].publicKeyJwk);
    expect(payload).toMatchObject({
      payer: PAYER,
      transaction: settlement.transaction,
      resourceUrl: `http://${HOST}/base/defi/tvl`,
    });
    // never the answer's body
    expect(JSON.stringify(res.body)).not.toContain("tvl_usd");
  });

  it("answers by transaction without the receipt, and only under the prefix the payment was made on", async () => {
    const { app } = buildPaidApp();
    const id = generatePaymentId();
    const { transaction } = decodeHeader((await pay(app, id)).headers["payment-response"]);
    const byTransaction = await ask(app, `/base/payments/by-transaction/${transaction}`);
    expect(byTransaction.status).toBe(200);
    expect(byTransaction.body).toMatchObject({ status: "settled", transaction, network: "base-sepolia" });
    expect(byTransaction.body).not.toHaveProperty("receipt");
    for (const path of [`/payments/${id}`, `/skale/payments/${id}`, `/skale/payments/by-transaction/${transaction}`]) {
      const elsewhere = await ask(app, path);
      expect(elsewhere.status, path).toBe(404);
      expect(elsewhere.body).toMatchObject({ error: "not_found", message: expect.stringContaining("another prefix") });
    }
  });

  it("answers an unknown identifier 404 with the contract's error body, and a malformed one 400", async () => {
    const { app } = buildPaidApp();
    const unknown = await ask(app, `/base/payments/${generatePaymentId()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: "not_found", message: expect.stringContaining("No payment") });
    const malformed = await ask(app, "/base/payments/short");
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe("invalid_request");
  });

  it("answers a purchase in progress as pending, with Retry-After, then settled once it is", async () => {
    const slow = slowTvl();
    const { app, statuses } = buildPaidApp({
      handlers: { ...exampleHandlers(contract), ...defiHandlers, defiTvl: slow.handler },
    });
    const id = generatePaymentId();
    const first = pay(app, id);
    await expect.poll(statuses).toEqual(["verified"]);
    const pending = await ask(app, `/base/payments/${id}`);
    expect(pending.status).toBe(200);
    expect(pending.body).toMatchObject({ status: "pending", stage: "verified" });
    expect(Number(pending.headers["retry-after"])).toBeGreaterThan(0);
    expect(pending.body.retry_after).toBe(Number(pending.headers["retry-after"]));
    expect(pending.body).not.toHaveProperty("transaction");
    slow.release();
    expect((await first).status).toBe(200);
    expect((await ask(app, `/base/payments/${id}`)).body.status).toBe("settled");
  });

  it("answers a released purchase as not charged, with the reason", async () => {
    const failing = (async () => {
      throw new Error("upstream down");
    }) as never;
    const { app } = buildPaidApp({ handlers: { ...exampleHandlers(contract), ...defiHandlers, defiTvl: failing } });
    const id = generatePaymentId();
    expect((await pay(app, id)).status).toBe(500);
    const res = await ask(app, `/base/payments/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "not_charged", stage: "not_charged", reason: expect.any(String) });
    expect(res.body.message).toMatch(/^Not charged/);
    expect(res.body).not.toHaveProperty("receipt");
  });
});
