// Choosing the settlement backend from the environment; with SETTLEMENT=local-chain the service
// announces the local chain's own fee payer (the facilitator's is tested in facilitator.test.ts).
import request from "supertest";
import { describe, expect, it } from "vitest";
import { ConfigError, loadAnalyticsConfig } from "../../../../config/analytics.js";
import { createLogger } from "../../../../http/logger.js";
import { loadAnalyticsContract } from "../../../contract/analytics-contract.js";
import { createAnalyticsService } from "../../../service.js";
import { ledgerBackend } from "../settlement.js";
import { createSettlementBackend } from "./index.js";

const contract = loadAnalyticsContract();
const config = loadAnalyticsConfig({}, contract.developmentDefaults);
const unreachable = "http://127.0.0.1:9";

const backendFor = (env: Record<string, string>) =>
  createSettlementBackend({ contract, config: loadAnalyticsConfig(env) });

describe("createSettlementBackend", () => {
  it("defaults to the embedded ledger, which keeps the configured fee payer", async () => {
    const selected = await backendFor({});
    expect(selected.backend).toBe(ledgerBackend);
    expect(selected.feePayer).toBeUndefined();
  });

  it("refuses an unknown mode and a bad facilitator timeout", () => {
    expect(() => loadAnalyticsConfig({ SETTLEMENT: "chain" })).toThrow(ConfigError);
    expect(() =>
      loadAnalyticsConfig({ SETTLEMENT: "facilitator", FACILITATOR_URL: unreachable, FACILITATOR_TIMEOUT_MS: "soon" }),
    ).toThrow(/FACILITATOR_TIMEOUT_MS/);
  });

  it("needs FACILITATOR_URL on the mainnet profile (the public facilitator settles testnets only)", () => {
    expect(() => loadAnalyticsConfig({ X402_PROFILE: "mainnet", SETTLEMENT: "facilitator" })).toThrow(
      /FACILITATOR_URL/,
    );
  });

  it("does not start when the facilitator cannot name its Solana fee payer", async () => {
    await expect(
      backendFor({ SETTLEMENT: "facilitator", FACILITATOR_URL: unreachable, FACILITATOR_TIMEOUT_MS: "500" }),
    ).rejects.toThrow(/supported failed/);
  });

  it("with SETTLEMENT=local-chain, makes the service announce the local chain's own fee payer, and closes the chains", async () => {
    // Response validation off: compiling its schemas on the first request would only add seconds here.
    const env = { SETTLEMENT: "local-chain", LEDGER_DB: ":memory:", VALIDATE_RESPONSES: "false" };
    const service = await createAnalyticsService(loadAnalyticsConfig(env), { logger: createLogger("silent") });
    try {
      const res = await request(service.app).post("/defi/tvl").send({});
      expect(res.status).toBe(402);
      expect(res.body.accepts[0].extra.feePayer).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
      expect(res.body.accepts[0].extra.feePayer).not.toBe(config.feePayer);
    } finally {
      await service.close();
    }
  });
});
