// Choosing the settlement backend from the environment; with SETTLEMENT=local-chain the service
// announces the local chain's own fee payer (the facilitator's is tested in facilitator.test.ts).
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../../http/logger.js";
import { ConfigError, loadAnalyticsConfig } from "../../config.js";
import { loadAnalyticsContract } from "../../contract.js";
import { createAnalyticsService } from "../../service.js";
import { ledgerBackend } from "../settlement.js";
import { createSettlementBackend } from "./index.js";

const contract = loadAnalyticsContract();
const config = loadAnalyticsConfig({}, contract.developmentDefaults);
const unreachable = "http://127.0.0.1:9";

describe("createSettlementBackend", () => {
  it("defaults to the embedded ledger, which keeps the configured fee payer", async () => {
    const selected = await createSettlementBackend("ledger", {}, { contract, config });
    expect(selected.backend).toBe(ledgerBackend);
    expect(selected.feePayer).toBeUndefined();
  });

  it("refuses an unknown mode and a bad facilitator timeout", async () => {
    await expect(createSettlementBackend("chain", {}, { contract, config })).rejects.toThrow(ConfigError);
    await expect(
      createSettlementBackend("facilitator", { FACILITATOR_URL: unreachable, FACILITATOR_TIMEOUT_MS: "soon" }, { contract, config }),
    ).rejects.toThrow(/FACILITATOR_TIMEOUT_MS/);
  });

  it("needs FACILITATOR_URL on the mainnet profile (the public facilitator settles testnets only)", async () => {
    await expect(createSettlementBackend("facilitator", {}, { contract, config: { ...config, profile: "mainnet" } })).rejects.toThrow(
      /FACILITATOR_URL/,
    );
  });

  it("does not start when the facilitator cannot name its Solana fee payer", async () => {
    await expect(
      createSettlementBackend("facilitator", { FACILITATOR_URL: unreachable, FACILITATOR_TIMEOUT_MS: "500" }, { contract, config }),
    ).rejects.toThrow(/supported failed/);
  });

  it("with SETTLEMENT=local-chain, makes the service announce the local chain's own fee payer, and closes the chains", async () => {
    // Response validation off: compiling its schemas on the first request would only add seconds here.
    const env = { SETTLEMENT: "local-chain", LEDGER_DB: ":memory:", VALIDATE_RESPONSES: "false" };
    const service = await createAnalyticsService(env, { logger: createLogger("silent") });
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
