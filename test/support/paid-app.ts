/**
 * The analytics app over the real gate and an in-memory ledger on a manual clock (test payments
 * stand in for signatures; testGate), with the contract's example handlers and the real DeFi ones:
 * what the paid pipeline's tests drive with supertest.
 */
import request from "supertest";
import { type AnalyticsDeps, createAnalyticsApp } from "../../server/analytics/app.js";
import { createCache } from "../../server/analytics/cache/memory-cache.js";
import { manualClock } from "../../server/analytics/clock.js";
import { loadAnalyticsContract } from "../../server/analytics/contract/analytics-contract.js";
import { embeddedInsightWriter } from "../../server/analytics/insight/embedded.js";
import type { GateOptions } from "../../server/analytics/payments/gate/gate.js";
import type { SettlementBackend } from "../../server/analytics/payments/settlement/settlement.js";
import { createEmbeddedProviders } from "../../server/analytics/providers/index.js";
import { defiHandlers } from "../../server/analytics/segments/defi.js";
import { createSegmentContext } from "../../server/analytics/segments/derived.js";
import { type AnalyticsConfig, loadAnalyticsConfig } from "../../server/config/analytics.js";
import { createLogger } from "../../server/http/logger.js";
import { exampleHandlers, testGate } from "./analytics.js";
import { TEST_NOW } from "./segments.js";

export const contract = loadAnalyticsContract();
const baseConfig = loadAnalyticsConfig({}, contract.developmentDefaults);
const silent = createLogger("silent");
const modes = Object.fromEntries(
  ["tvl", "pools", "launches", "chain_rpc", "wallet_labels", "swap_bridge"].map((role) => [role, "embedded"]),
) as AnalyticsDeps["providerModes"];

export function buildPaidApp({
  config = {},
  backend,
  answerTimeoutMs,
  paymentIdentifier,
  ...overrides
}: Partial<Omit<AnalyticsDeps, "config">> & {
  config?: Partial<AnalyticsConfig>;
  backend?: SettlementBackend;
  answerTimeoutMs?: number;
  paymentIdentifier?: GateOptions["paymentIdentifier"];
} = {}) {
  const clock = manualClock(TEST_NOW);
  const { gate, ledger, tasks } = testGate(clock, { backend, answerTimeoutMs, paymentIdentifier });
  const app = createAnalyticsApp({
    contract,
    config: { ...baseConfig, ...config },
    handlers: { ...exampleHandlers(contract), ...defiHandlers },
    segment: createSegmentContext({
      providers: createEmbeddedProviders({ seed: "pipeline-test", clock }),
      clock,
      cache: createCache(clock),
    }),
    providerModes: modes,
    settlementMode: backend?.mode ?? "ledger",
    insight: embeddedInsightWriter,
    gate,
    ledger,
    tasks,
    clock,
    logger: silent,
    ...overrides,
  });
  const statuses = async () => (await ledger.rows()).map((row) => row.status);
  return { app, ledger, clock, statuses };
}

export const decodeHeader = (header: string | undefined) =>
  JSON.parse(Buffer.from(header ?? "", "base64").toString("utf8"));

/** A route's 402 and its v2 challenge. */
export async function challengeOf(app: ReturnType<typeof buildPaidApp>["app"], path = "/base/defi/tvl") {
  const res = await request(app).post(path).send({});
  return { res, v2: decodeHeader(res.headers["payment-required"]) };
}
