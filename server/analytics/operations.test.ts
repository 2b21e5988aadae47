// The analytics service's operators' side, wired as `npm start` wires it: metrics that move when a paid
// call is served, refused or released; a 206 whose cause is logged at warn with the request id and
// counted; readiness that asks the ledger and the facilitator within its bound.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import { signEvmPayment } from "../../client/x402/evm.js";
import type { PaymentRequirements } from "../../client/x402/types.js";
import { loadDoc } from "../../conformance/openapi-doc.js";
import { createResponseValidator } from "../../conformance/schema-validator.js";
import { capturedLogger } from "../../test/support/logs.js";
import { metricValue } from "../../test/support/metrics.js";
import { loadAnalyticsConfig } from "../config/analytics.js";
import { operationsConfig } from "../config/operations.js";
import { loadAnalyticsContract } from "./contract/analytics-contract.js";
import { type AnalyticsService, createAnalyticsService } from "./service.js";

const contract = createResponseValidator(loadDoc("3.1", "analytics"));
const account = privateKeyToAccount(generatePrivateKey());
const cleanup: (() => unknown)[] = [];
afterAll(async () => {
  for (const close of cleanup.reverse()) await close();
});

/** A local HTTP server answering every request with `answer` (none: the request hangs). */
async function stub(answer: () => { status: number; body: unknown } | undefined): Promise<string> {
  const server: Server = createServer((_req, res) => {
    const reply = answer();
    if (reply) res.writeHead(reply.status, { "content-type": "application/json" }).end(JSON.stringify(reply.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanup.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The service on `env` (in-memory ledger), with its log lines kept. */
async function start(
  env: Record<string, string> = {},
): Promise<{ service: AnalyticsService; logs: () => Record<string, unknown>[] }> {
  const { logger, lines } = capturedLogger();
  const service = await createAnalyticsService(loadAnalyticsConfig({ LEDGER_DB: ":memory:", ...env }), {
    logger,
    operations: operationsConfig(env),
  });
  cleanup.push(() => service.close());
  return { service, logs: lines };
}

const page = async (service: AnalyticsService) => (await request(service.app).get("/metrics")).text;

async function paid(service: AnalyticsService, path: string, body: object, header?: string) {
  const challenge = await request(service.app).post(path).send(body);
  expect(challenge.status).toBe(402);
  const payment = header ?? (await signEvmPayment(account, challenge.body.accepts[0] as PaymentRequirements));
  return { res: await request(service.app).post(path).set("X-PAYMENT", payment).send(body), payment };
}

describe("the analytics service's metrics", () => {
  it("move when a paid call is served, refused and released, by network, version and outcome", async () => {
    const { service } = await start();
    const payments = (labels: Record<string, string>) => async () =>
      metricValue(await page(service), "x402_payments_total", { network: "base-sepolia", ...labels });
    const served = payments({ x402_version: "1", outcome: "served", reason: "" });
    const refused = payments({ x402_version: "1", outcome: "refused", reason: "invalid_exact_evm_nonce_already_used" });
    const released = payments({ x402_version: "1", outcome: "released", reason: "" });
    expect([await served(), await refused(), await released()]).toEqual([0, 0, 0]);

    const first = await paid(service, "/base/defi/tvl", {});
    expect(first.res.status).toBe(200);
    expect([await served(), await refused(), await released()]).toEqual([1, 0, 0]);

    // the same payment for another request: a replay, refused with its reason
    const replay = await paid(service, "/base/defi/tvl", { limit: 3 }, first.payment);
    expect(replay.res.status).toBe(402);
    expect([await served(), await refused(), await released()]).toEqual([1, 1, 0]);

    // an answer that cannot be given (an unknown pool): released, never charged
    const unknown = await paid(service, "/base/lp/pool-detail", {
      address: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
    });
    expect(unknown.res.status).toBe(404);
    expect([await served(), await refused(), await released()]).toEqual([1, 1, 1]);

    const text = await page(service);
    expect(metricValue(text, "x402_settlement_duration_seconds_count", { backend: "ledger", outcome: "settled" })).toBe(
      1,
    );
    expect(metricValue(text, "http_requests_total", { operation: "defiTvl", status: "402" })).toBe(3);
    expect(metricValue(text, "http_requests_total", { operation: "defiTvl", status: "200" })).toBe(1);
    expect(metricValue(text, "http_requests_total", { operation: "lpPoolDetail", status: "404" })).toBe(1);
    expect(metricValue(text, "insight_answers_total", { outcome: "answered" })).toBe(1);
    // revenue: the one settled payment's micro-USDC, once (neither the replay nor the released payment adds)
    expect(metricValue(text, "x402_revenue_micro_usdc_total", { network: "base-sepolia" })).toBe(1000);
    expect(metricValue(text, "cache_lookups_total", { result: "miss" })).toBeGreaterThan(0);
    // no payer, payment or path parameter becomes a label
    expect(text).not.toContain(account.address);
    expect(text).not.toContain("9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin");
  });

  it("label the free GETs by operation without response validation too, where the validator has nothing to check", async () => {
    const { service } = await start({ VALIDATE_RESPONSES: "false" });
    for (const path of ["/", "/", "/livez", "/.well-known/x402"])
      expect((await request(service.app).get(path)).status, path).toBe(200);
    // a cache-buster is ignored (and counted under the operation); a bare key is still refused, before routing
    expect((await request(service.app).get("/?_=1700000000")).status).toBe(200);
    const bare = await request(service.app).get("/?nocache");
    expect(bare.status).toBe(400);
    expect(bare.body.errors[0]).toMatchObject({ location: "query", field: "nocache" });
    const text = await page(service);
    expect(metricValue(text, "http_requests_total", { operation: "Free_serviceInfo", status: "200" })).toBe(3);
    expect(metricValue(text, "http_requests_total", { operation: "Operations_livez", status: "200" })).toBe(1);
    expect(metricValue(text, "http_requests_total", { operation: "Free_x402Discovery", status: "200" })).toBe(1);
  });

  it("count a cached read as a hit the second time", async () => {
    const { service } = await start();
    await paid(service, "/base/defi/tvl", { limit: 2 });
    const before = metricValue(await page(service), "cache_lookups_total", { result: "hit" });
    await paid(service, "/base/defi/tvl", { limit: 2 });
    expect(metricValue(await page(service), "cache_lookups_total", { result: "hit" })).toBeGreaterThan(before);
  });
});

describe("a 206", () => {
  it("logs its cause at warn with the request id, counts it, and logs no key", async () => {
    const model = await stub(() => ({ status: 500, body: { error: "overloaded" } }));
    const { service, logs } = await start({
      INSIGHT_BASE_URL: `${model}/v1`,
      INSIGHT_API_KEY: "sk-test-do-not-log-0123456789",
      INSIGHT_ATTEMPTS: "1",
    });
    const { res } = await paid(service, "/base/defi/tvl", {});
    expect(res.status).toBe(206);
    const requestId = res.headers["x-request-id"];
    const warning = logs().find((line) => line.level === 40 && line.requestId === requestId);
    expect(warning).toMatchObject({ operation: "defiTvl", cause: "http_status" });
    expect(String(warning?.detail)).toContain("HTTP 500");
    // one line per paid request: the request's, with its settlement
    expect(logs().filter((line) => line.requestId === requestId && line.level === 30)).toEqual([
      expect.objectContaining({
        msg: "request",
        status: 206,
        payment: "settled",
        network: "base-sepolia",
        x402Version: 1,
        simulated: true,
      }),
    ]);
    expect(
      metricValue(await page(service), "insight_answers_total", { outcome: "partial", cause: "http_status" }),
    ).toBe(1);
    expect(JSON.stringify(logs())).not.toContain("sk-test-do-not-log");
  });
});

describe("the analytics service's readiness", () => {
  it("asks the ledger, and the facilitator's /supported within its bound, naming it when it does not answer", async () => {
    const { developmentDefaults } = loadAnalyticsContract();
    let hang = false;
    const facilitator = await stub(() =>
      hang
        ? undefined
        : {
            status: 200,
            body: {
              kinds: [
                {
                  x402Version: 1,
                  scheme: "exact",
                  network: "solana-devnet",
                  extra: { feePayer: developmentDefaults.svm.feePayer },
                },
              ],
            },
          },
    );
    // A bound far above the stub's answer time, so that a loaded machine cannot make the healthy probe miss it.
    const boundMs = 2000;
    const { service } = await start({
      SETTLEMENT: "facilitator",
      FACILITATOR_URL: facilitator,
      READINESS_TIMEOUT_MS: String(boundMs),
    });
    const ready = await request(service.app).get("/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body.checks.map((c: { name: string }) => c.name)).toEqual(["ledger", "settlement:facilitator"]);
    expect(contract.validate("get", "/readyz", 200, ready.body)).toEqual([]);

    hang = true;
    const down = await request(service.app).get("/readyz");
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({
      status: "not_ready",
      checks: [
        { name: "ledger", ok: true },
        { name: "settlement:facilitator", ok: false, error: `no answer within ${boundMs} ms` },
      ],
    });
    expect(contract.validate("get", "/readyz", 503, down.body)).toEqual([]);
  });

  it("asks only the ledger with the ledger backend (its settlement is the ledger's own commit)", async () => {
    const { service } = await start();
    const res = await request(service.app).get("/readyz");
    expect(res.body).toMatchObject({ status: "ready", checks: [{ name: "ledger", ok: true }] });
    expect(res.body.checks).toHaveLength(1);
  });
});
