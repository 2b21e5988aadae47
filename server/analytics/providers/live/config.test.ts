import { describe, expect, it } from "vitest";
import { ApiError } from "../../../http/errors.js";
import { manualClock } from "../../clock.js";
import { ConfigError } from "../../config.js";
import { createProviders, loadLiveConfig, redactor, secretsOf } from "./config.js";
import { eventually, fixture, reply, startServer, startWsServer } from "./fixtures/local-server.js";

const HELIUS = "https://mainnet.helius-rpc.com/?api-key=0123456789abcdef";
const options = { seed: "config-test", clock: manualClock(Date.parse("2026-11-21T12:00:00Z")) };

describe("loadLiveConfig", () => {
  it("defaults every role to embedded, with the documented hosts", () => {
    const config = loadLiveConfig({});
    expect(Object.values(config.modes)).toEqual(Array(6).fill("embedded"));
    expect(config.defillama).toMatchObject({ url: "https://api.llama.fi", yieldsUrl: "https://yields.llama.fi" });
    expect(config.meteora).toMatchObject({ url: "https://dlmm.datapi.meteora.ag", legacyUrl: "https://dlmm-api.meteora.ag" });
    expect(config.jupiter).toMatchObject({ url: "https://api.jup.ag", policy: { timeoutMs: 5_000, concurrency: 1, retries: 2 } });
    expect(config.pumpportal.url).toBe("wss://pumpportal.fun/api/data");
  });

  it("switches roles to live and reads URLs, keys and timeouts", () => {
    const config = loadLiveConfig({
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
    expect(() => loadLiveConfig({ WALLET_LABELS_PROVIDER: "live" })).toThrow(
      new ConfigError("WALLET_LABELS_PROVIDER=live needs NANSEN_API_KEY (Nansen answers keyless calls with 402)"),
    );
    for (const role of ["CHAIN_RPC_PROVIDER", "POOLS_PROVIDER", "LAUNCHES_PROVIDER"]) {
      expect(() => loadLiveConfig({ [role]: "live" })).toThrow(/needs SOLANA_RPC_URL/);
    }
  });

  it("refuses unknown modes, bad URLs and bad timeouts without echoing values", () => {
    expect(() => loadLiveConfig({ TVL_PROVIDER: "yes" })).toThrow("TVL_PROVIDER must be embedded or live");
    expect(() => loadLiveConfig({ SOLANA_RPC_URL: "helius?api-key=secret-value" })).toThrow(
      new ConfigError("SOLANA_RPC_URL is not a valid URL"),
    );
    expect(() => loadLiveConfig({ PUMPPORTAL_WS_URL: "https://pumpportal.fun/api/data" })).toThrow(
      "PUMPPORTAL_WS_URL must be a wss: or ws: URL",
    );
    expect(() => loadLiveConfig({ DEFILLAMA_TIMEOUT_MS: "soon" })).toThrow("DEFILLAMA_TIMEOUT_MS must be a positive integer");
  });
});

describe("secretsOf and redactor", () => {
  it("scrubs keys and the key-bearing RPC URLs", () => {
    const config = loadLiveConfig({ SOLANA_RPC_URL: HELIUS, NANSEN_API_KEY: "nansen-key-42", JUPITER_API_KEY: "jup-key-42" });
    const redact = redactor(secretsOf(config));
    expect(redact(`failed at ${HELIUS} with nansen-key-42 and jup-key-42; key 0123456789abcdef`)).toBe(
      "failed at [redacted] with [redacted] and [redacted]; key [redacted]",
    );
    const path = redactor(secretsOf(loadLiveConfig({ SOLANA_RPC_URL: "https://example.solana-mainnet.quiknode.pro/a1b2c3d4e5f6/" })));
    expect(path("token a1b2c3d4e5f6")).toBe("token [redacted]");
  });
});

describe("createProviders", () => {
  it("builds the embedded dataset by default", () => {
    const { providers, modes } = createProviders({}, options);
    expect(Object.values(providers).map((p) => p.source)).toEqual([
      "embedded-tvl",
      "embedded-pools",
      "embedded-launches",
      "embedded-chain",
      "embedded-labels",
      "embedded-swap",
    ]);
    expect(modes.swap_bridge).toBe("embedded");
  });

  it("switches a role to its live adapter with configuration alone", async () => {
    const server = await startServer((_req, res) => reply(res, 200, fixture("defillama-chains.json")));
    try {
      const { providers, modes } = createProviders({ TVL_PROVIDER: "live", DEFILLAMA_API_URL: server.url }, options);
      expect(modes.tvl).toBe("live");
      expect(providers.tvl.source).toBe("defillama");
      expect(await providers.tvl.chains()).toHaveLength(4);
      expect(providers.pools.source).toBe("embedded-pools");
    } finally {
      await server.close();
    }
  });

  it("builds every live adapter, keeps keys out of upstream errors, and closes the feeds", async () => {
    const [feed, rpc] = await Promise.all([startWsServer(), startServer((_req, res) => reply(res, 500, { error: "down" }))]);
    const env = {
      TVL_PROVIDER: "live",
      POOLS_PROVIDER: "live",
      LAUNCHES_PROVIDER: "live",
      CHAIN_RPC_PROVIDER: "live",
      WALLET_LABELS_PROVIDER: "live",
      SWAP_BRIDGE_PROVIDER: "live",
      NANSEN_API_KEY: "nansen-key-42",
      SOLANA_RPC_URL: `${rpc.url}/?api-key=0123456789abcdef`,
      SOLANA_WS_URL: feed.url,
      PUMPPORTAL_WS_URL: feed.url,
      UPSTREAM_ATTEMPTS: "1",
    };
    const created = createProviders(env, options);
    try {
      expect(Object.values(created.providers).map((p) => p.source)).toEqual([
        "defillama",
        "meteora",
        "pumpportal",
        "solana-rpc",
        "nansen",
        "lifi",
      ]);
      expect(Object.values(created.modes)).toEqual(Array(6).fill("live"));
      await feed.waitForConnections(2);
      // PumpPortal's two subscriptions and the LaunchLab logs subscription.
      await eventually(() => expect(feed.received).toHaveLength(3));
      const error = await created.providers.chain_rpc.solBalance("4Be9CvxqHW6BYiRAxW9Q3xu1ycTMWaL5z8NX4HR3ha7t").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).message).toBe("solana-rpc answered HTTP 500 (1 attempt).");
      expect(rpc.seen[0]?.url).toBe("/?api-key=0123456789abcdef");
      created.close();
      await eventually(() => expect(feed.open).toBe(0));
    } finally {
      created.close();
      await Promise.all([feed.close(), rpc.close()]);
    }
  });
});
