// x402's payment-identifier over HTTP, on the real gate and an in-memory ledger (test payments stand in for
// signatures): a purchase named by its client is charged once, whatever payments its retries carry; its name is its
// payer's and its request's alone; a client of @x402/extensions reads the declaration and writes an id the service takes.
import {
  appendPaymentIdentifierToExtensions,
  extractAndValidatePaymentIdentifier,
  generatePaymentId,
  isPaymentIdentifierExtension,
} from "@x402/extensions/payment-identifier";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { exampleHandlers, testPaymentV2 } from "../../../test/support/analytics.js";
import { buildPaidApp, challengeOf, contract, decodeHeader } from "../../../test/support/paid-app.js";
import { defiHandlers } from "../segments/defi.js";

const PAYER = "0x00000000000000000000000000000000000000aa";
const withId = (id: string) => ({ "payment-identifier": { info: { required: false, id } } });

type App = ReturnType<typeof buildPaidApp>["app"];

/** Pays for `/base/defi/tvl` with a fresh payment (or `nonce`'s) under `id`. */
async function pay(
  app: App,
  id: string,
  { payer = PAYER, nonce, body = {} }: { payer?: string; nonce?: string; body?: object } = {},
) {
  const { v2 } = await challengeOf(app);
  // one Host for every call: a signed receipt names the URL paid for, which each supertest server's port would change
  return request(app)
    .post("/base/defi/tvl")
    .set("Host", "pay.test")
    .set("PAYMENT-SIGNATURE", testPaymentV2(v2.accepts[0], payer, nonce, withId(id)))
    .send(body);
}

describe("x402 payment-identifier", () => {
  it("declares the extension, optional, in every v2 challenge, as @x402/extensions reads it", async () => {
    const { app } = buildPaidApp();
    for (const path of ["/defi/tvl", "/base/defi/tvl", "/skale/defi/tvl"]) {
      const { v2 } = await challengeOf(app, path);
      const declared = v2.extensions["payment-identifier"];
      expect(declared.info).toEqual({ required: false });
      expect(isPaymentIdentifierExtension(declared)).toBe(true);
      // a client of the library echoes the extensions with an id of its own; the library accepts what it wrote
      const extensions = appendPaymentIdentifierToExtensions(structuredClone(v2.extensions), generatePaymentId());
      const checked = extractAndValidatePaymentIdentifier({
        x402Version: 2,
        accepted: v2.accepts[0],
        payload: {},
        extensions,
      } as never);
      expect(checked.validation.valid).toBe(true);
      expect(checked.id).toMatch(/^pay_/);
    }
  });

  it("gives a retry with a fresh payment under the same id the original answer and receipt, charging once", async () => {
    const { app, ledger } = buildPaidApp();
    const id = generatePaymentId();
    const first = await pay(app, id);
    expect(first.status, first.text).toBe(200);
    const retry = await pay(app, id);
    expect(retry.status).toBe(200);
    expect(retry.text).toBe(first.text);
    expect(retry.headers["payment-response"]).toBe(first.headers["payment-response"]);
    // the same payment again is served too, and recorded no more
    const rows = await ledger.rows();
    expect(rows.map((r) => [r.status, r.identifier])).toEqual([
      ["settled", id],
      ["not_charged", id],
    ]);
    expect(rows[1]?.reason).toContain(rows[0]?.key);
    expect((await ledger.totals()).byNetwork).toEqual([{ network: "base-sepolia", payments: 1, amount: 1000n }]);
    const again = await pay(app, id, { nonce: rows[0]?.key.split(":").at(-1) });
    expect(again.text).toBe(first.text);
    expect(await ledger.rows()).toHaveLength(2);
  });

  it("answers 409 naming the id for another request or another payer, charging and recording nothing", async () => {
    const { app, statuses } = buildPaidApp();
    const id = generatePaymentId();
    expect((await pay(app, id)).status).toBe(200);
    const otherRequest = await pay(app, id, { body: { chain: "Ethereum" } });
    const otherPayer = await pay(app, id, { payer: "0x00000000000000000000000000000000000000bb" });
    for (const res of [otherRequest, otherPayer]) {
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: "payment_identifier_conflict", message: expect.stringContaining(id) });
      expect(res.body.errors).toEqual([expect.objectContaining({ location: "header", field: "PAYMENT-SIGNATURE" })]);
    }
    // an EVM payer in another case is the same payer
    expect((await pay(app, id, { payer: PAYER.toUpperCase().replace("0X", "0x") })).status).toBe(200);
    expect(await statuses()).toEqual(["settled", "not_charged"]);
  });

  it("holds a retry under an id whose purchase is still in progress, with Retry-After, then serves it its answer", async () => {
    let finish: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const tvl = defiHandlers.defiTvl as (input: never, ctx: never) => Promise<unknown>;
    const slow = (async (input: never, ctx: never) => gate.then(() => tvl(input, ctx))) as never;
    const { app, statuses } = buildPaidApp({
      handlers: { ...exampleHandlers(contract), ...defiHandlers, defiTvl: slow },
    });
    const id = generatePaymentId();
    const first = pay(app, id);
    await expect.poll(statuses).toEqual(["verified"]);
    const held = await pay(app, id);
    expect(held.status).toBe(503);
    expect(held.body.error).toBe("payment_in_progress");
    expect(Number(held.headers["retry-after"])).toBeGreaterThan(0);
    finish();
    const answered = await first;
    expect(answered.status).toBe(200);
    expect((await pay(app, id)).text).toBe(answered.text);
    expect(await statuses()).toEqual(["settled", "not_charged"]);
  });

  it("charges a retry under an id whose first payment was released, uncharged", async () => {
    let fail = true;
    const tvl = defiHandlers.defiTvl as (input: never, ctx: never) => Promise<unknown>;
    const flaky = (async (input: never, ctx: never) => {
      if (fail) throw new Error("upstream down");
      return tvl(input, ctx);
    }) as never;
    const { app, statuses } = buildPaidApp({
      handlers: { ...exampleHandlers(contract), ...defiHandlers, defiTvl: flaky },
    });
    const id = generatePaymentId();
    expect((await pay(app, id)).status).toBe(500);
    fail = false;
    expect((await pay(app, id)).status).toBe(200);
    expect(await statuses()).toEqual(["not_charged", "settled"]);
  });

  it("keeps an id's answer for its retention, past its payment's validity, then takes the id as a new purchase", async () => {
    const { app, clock, statuses } = buildPaidApp({ paymentIdentifier: { required: false, retentionMs: 3_600_000 } });
    const id = generatePaymentId();
    const first = await pay(app, id);
    clock.advance(30 * 60_000);
    const retry = await pay(app, id);
    expect(retry.text).toBe(first.text);
    clock.advance(31 * 60_000);
    const later = await pay(app, id);
    expect(later.status).toBe(200);
    expect(decodeHeader(later.headers["payment-response"]).transaction).not.toBe(
      decodeHeader(first.headers["payment-response"]).transaction,
    );
    expect(await statuses()).toEqual(["settled", "not_charged", "settled"]);
  });

  it("refuses an id that is not one with a 400 naming the field, before anything is reserved", async () => {
    const { app, statuses } = buildPaidApp();
    for (const id of ["short", "x".repeat(129), "has spaces in it, sixteen+", 42]) {
      const res = await pay(app, id as string);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('extensions["payment-identifier"].info.id');
    }
    expect(await statuses()).toEqual([]);
  });

  it("requires an id when the operator says so: declared required, a v2 payment without one a 400 naming it", async () => {
    const { app, statuses } = buildPaidApp({
      config: {
        payments: {
          answerTimeoutMs: 30_000,
          recoveryIntervalMs: 5_000,
          paymentIdentifier: { required: true, retentionMs: 1000 },
        },
      },
      paymentIdentifier: { required: true, retentionMs: 1000 },
    });
    const { v2 } = await challengeOf(app);
    expect(v2.extensions["payment-identifier"].info).toEqual({ required: true });
    const without = await request(app)
      .post("/base/defi/tvl")
      .set("PAYMENT-SIGNATURE", testPaymentV2(v2.accepts[0], PAYER))
      .send({});
    expect(without.status).toBe(400);
    expect(without.body.message).toMatch(/extensions\["payment-identifier"\]\.info\.id is required/);
    expect(await statuses()).toEqual([]);
    expect((await pay(app, generatePaymentId())).status).toBe(200);
  });
});
