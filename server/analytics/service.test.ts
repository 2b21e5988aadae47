// The wired service (strict verifier, SQLite ledger, embedded data) under concurrent and failing paid
// calls: exactly one answer per payment, and a ledger that agrees with what was answered.
import request from "supertest";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import { signEvmPayment } from "../../client/x402/evm.js";
import type { PaymentRequirements } from "../../client/x402/types.js";
import { freePort } from "../../test/support/processes.js";
import { loadAnalyticsConfig } from "../config/analytics.js";
import { storeSettings } from "../config/store-settings.js";
import { createLogger } from "../http/logger.js";
import { createAnalyticsService } from "./service.js";

const service = await createAnalyticsService(loadAnalyticsConfig({ LEDGER_DB: ":memory:" }), {
  logger: createLogger("silent"),
});
afterAll(() => service.close());
const account = privateKeyToAccount(generatePrivateKey());

async function challenge(path: string, body: object): Promise<PaymentRequirements> {
  const res = await request(service.app).post(path).send(body);
  expect(res.status).toBe(402);
  return res.body.accepts[0];
}

describe("the analytics service", () => {
  it("serves 50 concurrent copies of one payment once: one charge, one answer (repeated to copies that come after it)", async () => {
    const header = await signEvmPayment(account, await challenge("/base/defi/tvl", {}));
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => request(service.app).post("/base/defi/tvl").set("X-PAYMENT", header).send({})),
    );
    const served = answers.filter((r) => r.status === 200);
    const refused = answers.filter((r) => r.status !== 200);
    expect(served.length).toBeGreaterThanOrEqual(1);
    expect(new Set(served.map((r) => r.text)).size).toBe(1);
    expect(new Set(served.map((r) => r.headers["x-payment-response"])).size).toBe(1);
    // the copies that came while it was in progress are held, told when to come back, never refused as a replay
    expect(new Set(refused.map((r) => `${r.status} ${r.body.error}`))).toEqual(
      new Set(refused.length ? ["503 payment_in_progress"] : []),
    );
    expect(refused.every((r) => Number(r.headers["retry-after"]) > 0 && !r.headers["x-payment-response"])).toBe(true);
    const rows = (await service.ledger.rows()).filter((r) => r.status === "settled");
    expect(rows).toHaveLength(1);
  });

  it("keeps the ledger consistent: one settled row per delivered answer, none for a failed one", async () => {
    const pool = "5rCf1DM8LjKTw4YqhnoLcngyZYeNnQqztScTogYHAS6";
    const unknown = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";
    const delivered = await request(service.app)
      .post("/skale/lp/pool-detail")
      .set("X-PAYMENT", await signEvmPayment(account, await challenge("/skale/lp/pool-detail", { address: pool })))
      .send({ address: pool });
    expect(delivered.status).toBe(200);
    const failedHeader = await signEvmPayment(account, await challenge("/skale/lp/pool-detail", { address: unknown }));
    const failed = await request(service.app)
      .post("/skale/lp/pool-detail")
      .set("X-PAYMENT", failedHeader)
      .send({ address: unknown });
    expect(failed.status).toBe(404);

    const rows = await service.ledger.rows();
    expect(rows.filter((r) => r.status === "settled")).toHaveLength(2); // this test's 200 and the previous test's one
    const notCharged = rows.filter((r) => r.status === "not_charged");
    expect(notCharged).toHaveLength(1);
    expect(notCharged[0]?.endpoint).toBe("lpPoolDetail");
    const totals = await service.ledger.totals();
    const byAccount = Object.fromEntries(totals.byAccount.map((a) => [`${a.account}:${a.network}`, a.amount]));
    expect(byAccount["service:skale-base-sepolia"]).toBe(2700n);
    expect(byAccount["treasury:skale-base-sepolia"]).toBe(300n);

    // not charged, so its reservation was freed: the same authorization is verified again (a replay would be a 402)
    const retried = await request(service.app)
      .post("/skale/lp/pool-detail")
      .set("X-PAYMENT", failedHeader)
      .send({ address: unknown });
    expect(retried.status).toBe(404);
  });
});

describe("the analytics service with its shared cache out of reach", () => {
  it("serves paid requests from upstream and its memory, and says so in GET /", async () => {
    const port = await freePort();
    const cut = await createAnalyticsService(loadAnalyticsConfig({ LEDGER_DB: ":memory:" }), {
      logger: createLogger("silent"),
      stores: storeSettings({ CACHE_URL: `redis://127.0.0.1:${port}` }),
    });
    try {
      expect((await request(cut.app).get("/")).body.cache).toEqual({ store: "redis", status: "unavailable" });
      const requirement = (await request(cut.app).post("/base/defi/tvl").send({})).body.accepts[0];
      const paid = await request(cut.app)
        .post("/base/defi/tvl")
        .set("X-PAYMENT", await signEvmPayment(account, requirement))
        .send({});
      expect(paid.status).toBe(200);
      expect(paid.headers["x-payment-response"]).toBeDefined();
    } finally {
      await cut.close();
    }
  });
});
