import { describe, expect, it } from "vitest";
import { ConfigError } from "../../config/analytics.js";
import { parseProviderSettings, redactor, secretsOf } from "./settings.js";

const HELIUS = "https://mainnet.helius-rpc.com/?api-key=0123456789abcdef";

describe("parseProviderSettings", () => {
  it("defaults every role to embedded, with the documented hosts", () => {
    const config = parseProviderSettings({});
    expect(Object.values(config.modes)).toEqual(Array(6).fill("embedded"));
    expect(config.defillama).toMatchObject({ url: "https://api.llama.fi", yieldsUrl: "https://yields.llama.fi" });
    expect(config.meteora).toMatchObject({
      url: "https://dlmm.datapi.meteora.ag",
      legacyUrl: "https://dlmm-api.meteora.ag",
    });
    expect(config.jupiter).toMatchObject({
      url: "https://api.jup.ag",
      policy: { timeoutMs: 5_000, concurrency: 1, retries: 2 },
    });
    expect(config.pumpportal.url).toBe("wss://pumpportal.fun/api/data");
  });

  it("switches roles to live and reads URLs, keys and timeouts", () => {
    const config = parseProviderSettings({
      TVL_PROVIDER: "live",
      CHAIN_RPC_PROVIDER: " live ",
      SOLANA_RPC_URL: HELIUS,
      NANSEN_TIMEOUT_MS: "2500",
      UPSTREAM_ATTEMPTS: "1",
      LIFI_BASE_URL: "http://127.0.0.1:8080/v1/",
    });
    expect(config.modes).toMatchObject({ tvl: "live", chain_rpc: "live", pools: "embedded" });
    expect(config.solana.wsUrl).toBe("wss://mainnet.helius-rpc.com/?api-key=0123456789abcdef");
    expect(config.nansen.policy).toMatchObject({ timeoutMs: 2500, retries: 0 });
    expect(config.lifi.url).toBe("http://127.0.0.1:8080/v1");
  });

  it("refuses a live role without what it needs, naming the variable", () => {
    expect(() => parseProviderSettings({ WALLET_LABELS_PROVIDER: "live" })).toThrow(
      new ConfigError("WALLET_LABELS_PROVIDER=live needs NANSEN_API_KEY (Nansen answers keyless calls with 402)"),
    );
    for (const role of ["CHAIN_RPC_PROVIDER", "POOLS_PROVIDER", "LAUNCHES_PROVIDER"]) {
      expect(() => parseProviderSettings({ [role]: "live" })).toThrow(/needs SOLANA_RPC_URL/);
    }
  });

  it("refuses unknown modes, bad URLs and bad timeouts without echoing values", () => {
    expect(() => parseProviderSettings({ TVL_PROVIDER: "yes" })).toThrow("TVL_PROVIDER must be embedded or live");
    expect(() => parseProviderSettings({ SOLANA_RPC_URL: "helius?api-key=secret-value" })).toThrow(
      new ConfigError("SOLANA_RPC_URL is not a valid URL"),
    );
    expect(() => parseProviderSettings({ PUMPPORTAL_WS_URL: "https://pumpportal.fun/api/data" })).toThrow(
      "PUMPPORTAL_WS_URL must be a wss: or ws: URL",
    );
    expect(() => parseProviderSettings({ DEFILLAMA_TIMEOUT_MS: "soon" })).toThrow(
      "DEFILLAMA_TIMEOUT_MS must be a positive integer",
    );
  });
});

describe("secretsOf and redactor", () => {
  it("scrubs keys and the key-bearing RPC URLs", () => {
    const config = parseProviderSettings({
      SOLANA_RPC_URL: HELIUS,
      NANSEN_API_KEY: "nansen-key-42",
      JUPITER_API_KEY: "jup-key-42",
    });
    const redact = redactor(secretsOf(config));
    expect(redact(`failed at ${HELIUS} with nansen-key-42 and jup-key-42; key 0123456789abcdef`)).toBe(
      "failed at [redacted] with [redacted] and [redacted]; key [redacted]",
    );
    const path = redactor(
      secretsOf(parseProviderSettings({ SOLANA_RPC_URL: "https://example.solana-mainnet.quiknode.pro/a1b2c3d4e5f6/" })),
    );
    expect(path("token a1b2c3d4e5f6")).toBe("token [redacted]");
  });
});
