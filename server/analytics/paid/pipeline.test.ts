// Charged exactly when the answer is delivered: the paid route over the real gate and an in-memory
// ledger (test payments stand in for signatures): bad input refused before any payment, lost answers
// served again to the same payment, answers that break the contract or come too late never charged,
// interrupted settlements resolved by recovery, and resource URLs that no request header can forge.
import request from "supertest";
import { describe, expect, it } from "vitest";
import {
  exampleHandlers,
  failingInsightWriter,
  testGate,
  testPayment,
  testPaymentV2,
} from "../../../test/support/analytics.js";
import { buildPaidApp, challengeOf, contract, decodeHeader } from "../../../test/support/paid-app.js";
import { TEST_NOW } from "../../../test/support/segments.js";
import { StoreUnavailable } from "../../db/unavailable.js";
import { createLogger } from "../../http/logger.js";
import { manualClock } from "../clock.js";
import { embeddedInsightWriter } from "../insight/embedded.js";
import type { InsightWriter } from "../insight/types.js";
import { createRecovery } from "../payments/settlement/recovery.js";
import type { SettlementBackend, SettlementState } from "../payments/settlement/settlement.js";
import { defiHandlers } from "../segments/defi.js";

const build = buildPaidApp;
const silent = createLogger("silent");

/** The embedded writer, counting its calls. */
function countingWriter(): InsightWriter & { calls: number } {
  const writer = {
    model: embeddedInsightWriter.model,
    calls: 0,
    write: (input: Parameters<InsightWriter["write"]>[0]) => {
      writer.calls++;
      return embeddedInsightWriter.write(input);
    },
  };
  return writer;
}

const receiptOf = (res: request.Response) =>
  JSON.parse(Buffer.from(res.headers["x-payment-response"] as string, "base64").toString());

describe("bad input is a 400 naming the field, before any payment is looked at", () => {
  const { app, statuses } = build();
  const cases: [string, () => request.Test, string, string][] = [
    ["Infinity in a legacy query", () => request(app).get("/base/defi/yields?min_apy=Infinity"), "min_apy", "finite"],
    [
      "an overflowing number in a query",
      () => request(app).get("/base/defi/yields?min_apy=1e309"),
      "min_apy",
      "finite",
    ],
    ["a negative overflow", () => request(app).get("/base/defi/yields?min_apy=-1e309"), "min_apy", ""],
    ["an overflowing limit", () => request(app).get("/defi/tvl?limit=-1e309"), "limit", ""],
    ["NaN", () => request(app).get("/defi/tvl?limit=NaN"), "limit", ""],
    ["a bare query key", () => request(app).get("/defi/tvl?limit"), "limit", "must have a value"],
    ["a bare string key", () => request(app).get("/skale/defi/tvl?chain"), "chain", "must have a value"],
    ["a repeated key", () => request(app).get("/defi/tvl?limit=3&limit=4"), "limit", "once"],
    // The validator's bracket parsing drops this key altogether: without the check the default limit would answer, and be charged.
    [
      "a bracketed __proto__ key",
      () => request(app).get("/defi/tvl?limit[__proto__]=1"),
      "limit[__proto__]",
      "without brackets",
    ],
    [
      "a percent-encoded bracketed key",
      () => request(app).get("/defi/tvl?limit%5Bx%5D=1"),
      "limit[x]",
      "without brackets",
    ],
    [
      "an overflowing number in a body",
      () => request(app).post("/defi/yields").set("Content-Type", "application/json").send('{"min_apy": 1e309}'),
      "min_apy",
      "",
    ],
    [
      "an amount above its realistic maximum",
      () => request(app).post("/base/bridge/quote").send(bridgeQuote(1e15)),
      "amount",
      "<=",
    ],
    // A GET's validator ignores a body: its fields would be answered at their defaults, and charged.
    [
      "a body on a legacy GET",
      () => request(app).get("/defi/tvl").set("Content-Type", "application/json").send('{"limit":3,"chain":"solana"}'),
      "body",
      "in the query string",
    ],
    // A misspelt field would otherwise be ignored: the default answered, and charged.
    [
      "a field the body does not have",
      () => request(app).post("/defi/tvl").send({ limt: 3 }),
      "limt",
      "is not a field of this request",
    ],
    [
      "a field the body does not have, beside its own",
      () =>
        request(app)
          .post("/traders/wallet-pnl")
          .send({ wallet: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin", windw: "7d" }),
      "windw",
      "is not a field of this request",
    ],
    // Base58 text the pattern admits but that is not 32 bytes: the upstreams refused it after payment (a 500 or a 502).
    [
      "a mint of 33 bytes",
      () =>
        request(app)
          .post("/traders/token-whales")
          .send({ mint: "z".repeat(44) }),
      "mint",
      "base58 of 32 bytes",
    ],
    [
      "a wallet of too few bytes in a legacy query",
      () => request(app).get(`/traders/wallet-pnl?address=${"2".repeat(32)}`),
      "address",
      "32 bytes",
    ],
    [
      "a mint of 33 bytes in a legacy path",
      () => request(app).get(`/trenches/token/${"z".repeat(44)}/verdict`),
      "mint",
      "32 bytes",
    ],
    [
      "a Solana token of 33 bytes for smart money",
      () =>
        request(app)
          .post("/smartmoney/flow-intel")
          .send({ chain: "solana", token_address: "z".repeat(44) }),
      "token_address",
      "32 bytes",
    ],
    // A body the JSON parser did not read was answered as if absent: at the defaults (charged), or as a 500.
    [
      "a body under a malformed Content-Type",
      () => request(app).post("/smartmoney/token-screener").set("Content-Type", ";").send('{"limit":2}'),
      "content-type",
      "application/json",
    ],
    [
      "a body without a Content-Type",
      // superagent adds no Content-Type to a Buffer
      () => request(app).post("/base/defi/tvl").send(Buffer.from('{"limit":2,"chain":"solana"}')),
      "content-type",
      "application/json",
    ],
    [
      "another charset behind a quoted parameter that holds ;charset=utf-8",
      () =>
        request(app)
          .post("/defi/tvl")
          .set("Content-Type", 'application/json; foo="x;charset=utf-8"; charset=utf-16')
          .send("{"),
      "content-type",
      "utf-8",
    ],
    [
      "a JSON body in another charset",
      () => request(app).post("/defi/tvl").set("Content-Type", "application/json; charset=utf-16").send("{"),
      "content-type",
      "utf-8",
    ],
  ];
  for (const [what, send, field, message] of cases) {
    it(`refuses ${what}`, async () => {
      const res = await send().set("X-PAYMENT", testPayment());
      expect(res.status, res.text).toBe(400);
      expect(res.body.error).toBe("invalid_request");
      const named = res.body.errors.find((e: { field: string }) => e.field === field);
      expect(named, JSON.stringify(res.body.errors)).toBeDefined();
      expect(named.message).toContain(message);
      expect(res.headers["x-payment-response"]).toBeUndefined();
    });
  }
  it("took no payment for any of them", async () => {
    expect(await statuses()).toEqual([]);
  });
});

function bridgeQuote(amount: number) {
  return { from_chain: "base", to_chain: "arbitrum", from_token: "USDC", to_token: "USDC", amount };
}

describe("a retry with the same payment", () => {
  it("gets the stored answer: same status, bytes and receipt, no second charge, no second model call", async () => {
    const insight = countingWriter();
    const { app, ledger } = build({ insight });
    const header = testPayment();
    const first = await request(app).post("/base/defi/tvl").set("X-PAYMENT", header).send({ limit: 3 });
    expect(first.status).toBe(200);
    // the same question, written otherwise: key order and an explicit default do not make another request
    const again = await request(app).post("/base/defi/tvl").set("X-PAYMENT", header).send({ chain: "all", limit: 3 });
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers["x-payment-response"]).toBe(first.headers["x-payment-response"]);
    // the payer's alone: no cache may keep it for a caller who did not pay
    expect([first.headers["cache-control"], again.headers["cache-control"]]).toEqual(["private", "private"]);
    expect(insight.calls).toBe(1);
    expect((await ledger.rows()).map((r) => r.status)).toEqual(["settled"]);
    expect((await ledger.totals()).byNetwork).toEqual([{ network: "base-sepolia", payments: 1, amount: 1000n }]);
  });

  it("gets a 206 again as the same 206", async () => {
    const { app } = build({ insight: failingInsightWriter });
    const header = testPayment();
    const first = await request(app).post("/defi/yields").set("X-PAYMENT", header).send({ limit: 2 });
    const again = await request(app).post("/defi/yields").set("X-PAYMENT", header).send({ limit: 2 });
    expect([first.status, again.status]).toEqual([206, 206]);
    expect(again.text).toBe(first.text);
  });

  it("is a refused replay for another question, another prefix's route or after the payment's window", async () => {
    const { app, clock } = build();
    const header = testPayment();
    expect((await request(app).post("/base/defi/tvl").set("X-PAYMENT", header).send({ limit: 3 })).status).toBe(200);
    const other = await request(app).post("/base/defi/tvl").set("X-PAYMENT", header).send({ limit: 4 });
    expect(other.status).toBe(402);
    expect(other.body).toMatchObject({
      error: "invalid_exact_evm_nonce_already_used",
      message: expect.stringMatching(/another request/),
    });
    const yields = await request(app).post("/base/defi/yields").set("X-PAYMENT", header).send({ limit: 3 });
    expect(yields.status).toBe(402);
    clock.advance(61_000);
    const late = await request(app).post("/base/defi/tvl").set("X-PAYMENT", header).send({ limit: 3 });
    expect(late.status).toBe(402);
    expect(late.body.message).toMatch(/no longer kept/);
  });

  it("of a payment whose answer failed is served anew (it was released, not charged)", async () => {
    const { app, statuses } = build();
    const header = testPayment();
    expect(
      (await request(app).post("/defi/tvl").set("X-PAYMENT", header).send({ protocol: "no-such-protocol" })).status,
    ).toBe(404);
    expect((await request(app).post("/defi/tvl").set("X-PAYMENT", header).send({})).status).toBe(200);
    expect(await statuses()).toEqual(["not_charged", "settled"]);
  });
});

describe("an answer that cannot be delivered is never charged", () => {
  it("refuses an envelope with a non-finite number (JSON would send null) as a 500 without receipt", async () => {
    const handler = (async () => ({
      data: {
        chains: [{ name: "X", tvl_usd: Number.POSITIVE_INFINITY, token_symbol: "X" }],
        total_tvl_usd: 1,
        filter: { chain: "all", protocol: null },
      },
      sources: ["embedded-tvl"],
      baseline: { signal: "risky", confidence: 0.5 },
      brief: "b",
    })) as never;
    const { app, statuses } = build({ handlers: { ...exampleHandlers(contract), ...defiHandlers, defiTvl: handler } });
    const res = await request(app).post("/defi/tvl").set("X-PAYMENT", testPayment()).send({});
    expect(res.status).toBe(500);
    expect(res.headers["x-payment-response"]).toBeUndefined();
    expect(await statuses()).toEqual(["not_charged"]);
  });

  it("answers 503 when the answer is not ready before its deadline, releases the payment, and serves its retry", async () => {
    let hang = true;
    const slow = (async (input: never, ctx: never) =>
      hang ? new Promise(() => {}) : (defiHandlers.defiTvl as (i: never, c: never) => unknown)(input, ctx)) as never;
    const { app, statuses } = build({
      answerTimeoutMs: 200,
      handlers: { ...exampleHandlers(contract), ...defiHandlers, defiTvl: slow },
    });
    const header = testPayment();
    const res = await request(app).post("/defi/tvl").set("X-PAYMENT", header).send({});
    expect(res.status).toBe(503);
    expect(res.body.error).toBe("service_unavailable");
    expect(res.headers["retry-after"]).toBeDefined();
    expect(res.headers["x-payment-response"]).toBeUndefined();
    expect(await statuses()).toEqual(["not_charged"]);
    hang = false;
    expect((await request(app).post("/defi/tvl").set("X-PAYMENT", header).send({})).status).toBe(200);
  });
});

describe("a database out of reach", () => {
  const down = () => Promise.reject(new StoreUnavailable("database"));
  const unavailable = (res: request.Response, says = /never charged twice/) => {
    expect(res.status).toBe(503);
    expect(res.body.error).toBe("service_unavailable");
    expect(res.body.message).toMatch(says);
    expect(res.headers["retry-after"]).toBeDefined();
    expect(res.headers["x-payment-response"]).toBeUndefined();
  };

  it("answers 503 service_unavailable without receipt when the payment cannot be reserved", async () => {
    const { app } = build({ gate: { admit: down, settle: down, release: down } });
    unavailable(await request(app).post("/defi/tvl").set("X-PAYMENT", testPayment()).send({}), /Nothing was charged/);
  });

  it("answers 503 without receipt when the settlement cannot be recorded, and charges nothing", async () => {
    const { gate, ledger } = testGate(manualClock(TEST_NOW));
    const { app } = build({ gate: { ...gate, settle: down } });
    unavailable(await request(app).post("/defi/tvl").set("X-PAYMENT", testPayment()).send({}));
    expect((await ledger.rows()).map((row) => row.status)).toEqual(["not_charged"]);
  });

  it("answers settlement's refusal as its 402 even when the ledger cannot record it yet, and records it failed once it can", async () => {
    const clock = manualClock(TEST_NOW);
    const refusing: SettlementBackend = {
      mode: "facilitator",
      timeoutMs: 1_000,
      settle: async () => ({
        ok: false,
        reason: "insufficient_funds",
        message: "the payer holds less than the amount",
      }),
      status: async () => ({ state: "open", why: "" }),
    };
    const { gate, ledger } = testGate(clock, { backend: refusing });
    const release = ledger.release.bind(ledger);
    let refusals = 1;
    ledger.release = (...args) =>
      refusals-- > 0 ? Promise.reject(new StoreUnavailable("database")) : release(...args);
    const { app } = build({ gate, backend: refusing });
    const res = await request(app).post("/base/defi/tvl").set("X-PAYMENT", testPayment()).send({});
    expect(res.status).toBe(402);
    expect(res.body.error).toBe("insufficient_funds");
    await expect
      .poll(async () => (await ledger.rows()).map((row) => row.status), { timeout: 10_000 })
      .toEqual(["failed"]);
  });

  it("releases the payment as soon as the ledger is back, so that the retry the 503 asks for is served, not refused as in progress", async () => {
    const clock = manualClock(TEST_NOW);
    const { gate, ledger } = testGate(clock);
    // The ledger is out of reach for the settlement and for the first two attempts at the release, then back.
    let refusals = 3;
    const flaky =
      <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
      (...args: A) =>
        refusals-- > 0 ? Promise.reject(new StoreUnavailable("database")) : write(...args);
    const release = ledger.release.bind(ledger);
    const settle = ledger.settleWithAnswer.bind(ledger);
    Object.assign(ledger, { release: flaky(release), settleWithAnswer: flaky(settle) });
    const { app } = build({ gate });
    const header = testPayment();
    unavailable(await request(app).post("/defi/tvl").set("X-PAYMENT", header).send({}));
    // The deadline never comes (the clock stands still): only the gate's own attempts can release it.
    await expect
      .poll(async () => (await ledger.rows()).map((row) => row.status), { timeout: 10_000 })
      .toEqual(["not_charged"]);
    const retry = await request(app).post("/defi/tvl").set("X-PAYMENT", header).send({});
    expect(retry.status).toBe(200);
    expect((await ledger.rows()).map((row) => row.status)).toEqual(["not_charged", "settled"]);
  });

  it("abandons a reservation whose commit landed but whose reply was lost, so that the retry is served, not refused as in progress", async () => {
    const clock = manualClock(TEST_NOW);
    const { gate, ledger } = testGate(clock);
    const reserve = ledger.reserve.bind(ledger);
    let lost = 1;
    ledger.reserve = async (request) => {
      const reservation = await reserve(request);
      if (lost-- > 0) throw new StoreUnavailable("database (connection lost after the commit)");
      return reservation;
    };
    const { app } = build({ gate });
    const header = testPayment();
    unavailable(await request(app).post("/defi/tvl").set("X-PAYMENT", header).send({}), /Nothing was charged/);
    // The deadline never comes (the clock stands still): only the gate's own attempt can free the key.
    await expect
      .poll(async () => (await ledger.rows()).map((row) => row.status), { timeout: 10_000 })
      .toEqual(["not_charged"]);
    const retry = await request(app).post("/defi/tvl").set("X-PAYMENT", header).send({});
    expect(retry.status).toBe(200);
    expect((await ledger.rows()).map((row) => row.status)).toEqual(["not_charged", "settled"]);
  });

  it("answers a settlement the ledger refuses for want of the reservation (lost with its database) as not charged, not as late, and serves the retry anew", async () => {
    const clock = manualClock(TEST_NOW);
    const { gate, ledger } = testGate(clock);
    // The database lost the reservation: its key is free again, and the entry the request holds names no payment.
    const reserve = ledger.reserve.bind(ledger);
    let lost = 1;
    ledger.reserve = async (request) => {
      const reservation = await reserve(request);
      if (lost-- <= 0 || !reservation.reserved) return reservation;
      await ledger.abandon(request.key, request.holder, "lost with the database");
      return { reserved: true, entry: reservation.entry + 1_000 };
    };
    const { app } = build({ gate });
    const header = testPayment();
    unavailable(await request(app).post("/defi/tvl").set("X-PAYMENT", header).send({}), /Nothing was charged/);
    const retry = await request(app).post("/defi/tvl").set("X-PAYMENT", header).send({});
    expect(retry.status).toBe(200);
    expect((await ledger.rows()).map((row) => row.status)).toEqual(["not_charged", "settled"]);
  });
});

describe("a settlement interrupted after the answer was ready", () => {
  /** A backend with an outside effect whose `settle` fails with an unknown outcome, and whose chain says `state`. */
  function interrupted(state: SettlementState): SettlementBackend {
    return {
      mode: "facilitator",
      timeoutMs: 1_000,
      settle: async () => {
        throw new Error("connection reset");
      },
      status: async () => state,
    };
  }

  async function interruptedCall(state: SettlementState) {
    const built = build({ backend: interrupted(state) });
    const header = testPayment();
    const res = await request(built.app).post("/base/defi/tvl").set("X-PAYMENT", header).send({ limit: 2 });
    // in progress, not refused: recovery resolves it within the backend's timeout and one recovery pass
    expect(res.status).toBe(503);
    expect(res.body.error).toBe("payment_in_progress");
    expect(res.headers["retry-after"]).toBe(String(Math.ceil((1_000 + 2_000 + 5_000) / 1000)));
    expect(res.headers["x-payment-response"]).toBeUndefined();
    expect((await built.ledger.rows())[0]).toMatchObject({ status: "settling", hasAnswer: true });
    const recovery = createRecovery({ ...built, backend: interrupted(state), logger: silent, split: () => SPLIT });
    built.clock.advance(1_000 + 10_000);
    return { ...built, header, report: await recovery.run() };
  }
  const SPLIT = { service: { address: "s", amount: 900n }, treasury: { address: "t", amount: 100n } };

  it("is settled by recovery when the chain shows the money moved; the retry gets the stored answer and that receipt", async () => {
    const { app, ledger, header, report } = await interruptedCall({ state: "settled", transaction: "0xmoved" });
    expect(report).toMatchObject({ settled: 1, released: 0 });
    expect((await ledger.rows())[0]).toMatchObject({
      status: "settled",
      transaction: "0xmoved",
      recovery: "settled: confirmed on chain",
    });
    const retry = await request(app).post("/base/defi/tvl").set("X-PAYMENT", header).send({ limit: 2 });
    expect(retry.status).toBe(200);
    expect(retry.body.data.chains).toHaveLength(2);
    expect(receiptOf(retry)).toEqual({
      success: true,
      transaction: "0xmoved",
      network: "base-sepolia",
      payer: expect.any(String),
    });
  });

  it("is released when the money never moved and never can", async () => {
    const { ledger, report } = await interruptedCall({ state: "unsettled", why: "the authorization expired unused" });
    expect(report).toMatchObject({ settled: 0, released: 1 });
    expect((await ledger.rows())[0]).toMatchObject({
      status: "not_charged",
      hasAnswer: false,
      recovery: "released: the money never moved",
    });
  });

  it("stays settling (asked again later) while the money could still move: never settled on a guess", async () => {
    const { app, ledger, header, report } = await interruptedCall({ state: "open", why: "still valid" });
    expect(report).toMatchObject({ settled: 0, released: 0, awaiting: 1 });
    expect((await ledger.rows())[0]).toMatchObject({
      status: "settling",
      recovery: "awaiting: settlement outcome still open",
    });
    const retry = await request(app).post("/base/defi/tvl").set("X-PAYMENT", header).send({ limit: 2 });
    // held, not refused: its retry is told when recovery will have looked again (its postponed time, then the next pass)
    expect(retry.status).toBe(503);
    expect(retry.body).toMatchObject({
      error: "payment_in_progress",
      message: expect.stringMatching(/Do not pay again/),
    });
    expect(retry.headers["retry-after"]).toBe("20");
    expect(retry.headers["x-payment-response"]).toBeUndefined();
  });
});

describe("resource URLs and servers come from PUBLIC_BASE_URL or a valid Host, never from untrusted forwarding headers", () => {
  const challenge = (app: ReturnType<typeof build>["app"], headers: Record<string, string>) =>
    request(app).post("/base/defi/tvl").set(headers).send({});

  it("uses the request's own origin when it is a valid host, and ignores X-Forwarded-* from an untrusted peer", async () => {
    const { app } = build();
    const res = await challenge(app, { "X-Forwarded-Proto": "javascript", "X-Forwarded-Host": "evil.example" });
    expect(res.status).toBe(402);
    expect(res.body.accepts[0].resource).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/base\/defi\/tvl$/);
  });

  it("refuses a Host that is not a host name with a 400 naming Host", async () => {
    const { app } = build();
    for (const host of ["evil.example/x?y=", "javascript:alert(1)", "a b"]) {
      const res = await challenge(app, { Host: host });
      expect(res.status, host).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ location: "header", field: "Host" });
      const doc = await request(app).get("/openapi.json").set("Host", host);
      expect(doc.status, host).toBe(400);
    }
  });

  it("honours X-Forwarded-Proto and X-Forwarded-Host from a proxy named in TRUST_PROXY, when they are valid", async () => {
    const { app } = build({ config: { trustProxy: "loopback" } });
    const res = await challenge(app, { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "api.example.com" });
    expect(res.body.accepts[0].resource).toBe("https://api.example.com/base/defi/tvl");
    const evil = await challenge(app, { "X-Forwarded-Proto": "javascript", "X-Forwarded-Host": "api.example.com" });
    expect(evil.status).toBe(400);
    expect(evil.body.errors[0]).toMatchObject({ location: "header", field: "X-Forwarded-Proto" });
  });

  it("names the full URL paid for, a legacy GET's query included, as a URI whatever characters the request held", async () => {
    const { app } = build();
    const plain = await request(app).get("/base/defi/tvl?chain=all&limit=3");
    expect(plain.body.accepts[0].resource).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/base\/defi\/tvl\?chain=all&limit=3$/);
    const odd = await request(app).get("/base/ask?query=100%25|a%20b%");
    expect(odd.status).toBe(402);
    expect(odd.body.accepts[0].resource).toMatch(/\/base\/ask\?query=100%25%7Ca%20b%25$/);
  });

  it("uses PUBLIC_BASE_URL whatever the headers say, in the 402 and in the served document", async () => {
    const { app } = build({ config: { publicBaseUrl: "https://pay.example.com", trustProxy: "loopback" } });
    const res = await challenge(app, { Host: "evil.example", "X-Forwarded-Host": "evil.example" });
    expect(res.body.accepts[0].resource).toBe("https://pay.example.com/base/defi/tvl");
    const doc = await request(app).get("/openapi.json").set("Host", "evil.example");
    expect(doc.body.servers[0].url).toBe("https://pay.example.com");
  });
});

describe("x402 v2 beside v1, on the same URLs", () => {
  const decode = decodeHeader;

  it("sends both challenges on a 402 for the same price, asset, recipient and timeout, never cached", async () => {
    const { app } = build();
    for (const [path, caip2] of [
      ["/base/defi/tvl", "eip155:84532"],
      ["/skale/defi/tvl", "eip155:324705682"],
      ["/defi/tvl", "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1"],
    ] as const) {
      const { res, v2 } = await challengeOf(app, path);
      expect(res.status).toBe(402);
      expect(res.headers["cache-control"]).toBe("no-store");
      const [v1] = res.body.accepts;
      expect(res.body).toMatchObject({ x402Version: 1, error: "X-PAYMENT header is required" });
      expect(v2).toMatchObject({
        x402Version: 2,
        error: "Payment required",
        resource: { url: v1.resource, description: v1.description, mimeType: "application/json" },
        accepts: [
          {
            scheme: "exact",
            network: caip2,
            amount: v1.maxAmountRequired,
            asset: v1.asset,
            payTo: v1.payTo,
            maxTimeoutSeconds: v1.maxTimeoutSeconds,
            extra: v1.extra,
          },
        ],
        extensions: { bazaar: { info: { input: { type: "http", method: "POST", bodyType: "json" } } } },
      });
    }
  });

  it("serves a PAYMENT-SIGNATURE payment with PAYMENT-RESPONSE (CAIP-2 network, amount) and no v1 receipt", async () => {
    const { app, statuses } = build();
    const { v2 } = await challengeOf(app);
    const res = await request(app)
      .post("/base/defi/tvl")
      .set("PAYMENT-SIGNATURE", testPaymentV2(v2.accepts[0]))
      .send({});
    expect(res.status, res.text).toBe(200);
    expect(res.headers["x-payment-response"]).toBeUndefined();
    expect(decode(res.headers["payment-response"])).toEqual({
      success: true,
      transaction: expect.any(String),
      network: "eip155:84532",
      payer: expect.any(String),
      amount: v2.accepts[0].amount,
      simulated: true,
      // the signed receipt (payments/x402/receipts/offer-receipt.test.ts verifies it)
      extensions: {
        "offer-receipt": {
          info: { receipt: { format: "jws", signature: expect.any(String) } },
          schema: expect.any(Object),
        },
      },
    });
    expect(await statuses()).toEqual(["settled"]);
  });

  it("gives a retry in the same header the stored answer; the same payment in the other header is a refused replay", async () => {
    const { app, statuses } = build();
    const { v2 } = await challengeOf(app);
    const payer = "0x00000000000000000000000000000000000000aa";
    const nonce = "one-nonce";
    const signature = testPaymentV2(v2.accepts[0], payer, nonce);
    // one host for both (supertest listens on a new port each time): the receipt names the URL paid for
    const pay = () =>
      request(app).post("/base/defi/tvl").set("Host", "api.example").set("PAYMENT-SIGNATURE", signature).send({});
    const first = await pay();
    const again = await pay();
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers["payment-response"]).toBe(first.headers["payment-response"]);

    const asV1 = await request(app).post("/base/defi/tvl").set("X-PAYMENT", testPayment(payer, nonce)).send({});
    expect(asV1.status).toBe(402);
    expect(asV1.body.error).toBe("invalid_exact_evm_nonce_already_used");
    expect(asV1.headers["x-payment-response"]).toBeUndefined();
    expect(await statuses()).toEqual(["settled"]);
  });

  it("refuses a v1 payment replayed as v2 and a v2 payment replayed as v1, each naming the reason in both challenges", async () => {
    const { app, statuses } = build();
    const { v2 } = await challengeOf(app);
    const v1First = await request(app).post("/base/defi/tvl").set("X-PAYMENT", testPayment("0xp1", "n1")).send({});
    expect(v1First.status).toBe(200);
    const replayedAsV2 = await request(app)
      .post("/base/defi/tvl")
      .set("PAYMENT-SIGNATURE", testPaymentV2(v2.accepts[0], "0xp1", "n1"))
      .send({});
    expect(replayedAsV2.status).toBe(402);
    expect(decode(replayedAsV2.headers["payment-required"]).error).toBe(replayedAsV2.body.error);
    expect(replayedAsV2.body.message).toContain("another request");

    const v2First = await request(app)
      .post("/base/defi/tvl")
      .set("PAYMENT-SIGNATURE", testPaymentV2(v2.accepts[0], "0xp2", "n2"))
      .send({});
    expect(v2First.status).toBe(200);
    const replayedAsV1 = await request(app).post("/base/defi/tvl").set("X-PAYMENT", testPayment("0xp2", "n2")).send({});
    expect(replayedAsV1.status).toBe(402);
    expect(replayedAsV1.body.message).toContain("another request");
    expect(await statuses()).toEqual(["settled", "settled"]);
  });

  it("refuses an `accepted` that is not this route's offer, naming the field, before anything is reserved", async () => {
    const { app, statuses } = build();
    const { v2 } = await challengeOf(app);
    const { v2: skale } = await challengeOf(app, "/skale/defi/tvl");
    for (const [accepted, field] of [
      [{ ...v2.accepts[0], amount: "1" }, "accepted.amount"],
      [{ ...v2.accepts[0], payTo: "0x0000000000000000000000000000000000000001" }, "accepted.payTo"],
      [skale.accepts[0], "accepted.network"],
    ] as const) {
      const res = await request(app).post("/base/defi/tvl").set("PAYMENT-SIGNATURE", testPaymentV2(accepted)).send({});
      expect(res.status).toBe(402);
      expect(res.body).toMatchObject({
        error: "invalid_payment_requirements",
        message: expect.stringContaining(field),
      });
      expect(decode(res.headers["payment-required"]).error).toBe("invalid_payment_requirements");
    }
    expect(await statuses()).toEqual([]);
  });

  it("answers 400 naming the header for a malformed PAYMENT-SIGNATURE, and for two payment headers at once", async () => {
    const { app, statuses } = build();
    const malformed = await request(app).post("/base/defi/tvl").set("PAYMENT-SIGNATURE", "not base64!").send({});
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors).toEqual([
      expect.objectContaining({ location: "header", field: "PAYMENT-SIGNATURE" }),
    ]);
    const both = await request(app)
      .post("/base/defi/tvl")
      .set("PAYMENT-SIGNATURE", "a")
      .set("X-PAYMENT", testPayment())
      .send({});
    expect(both.status).toBe(400);
    expect(both.body.errors.map((e: { field: string }) => e.field)).toEqual(["PAYMENT-SIGNATURE", "X-PAYMENT"]);
    const v1Inside = Buffer.from(
      JSON.stringify({ x402Version: 1, payload: { test: true, payer: "0xp", nonce: "n" } }),
    ).toString("base64");
    const wrongVersion = await request(app).post("/base/defi/tvl").set("PAYMENT-SIGNATURE", v1Inside).send({});
    expect(wrongVersion.body.error).toBe("invalid_x402_version");
    expect(await statuses()).toEqual([]);
  });
});
