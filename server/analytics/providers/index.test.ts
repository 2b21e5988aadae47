import { describe, expect, it } from "vitest";
import { eventually, fixture, reply, startServer, startWsServer } from "../../../test/support/upstreams.js";
import { ApiError } from "../../http/errors.js";
import { createCache } from "../cache/memory-cache.js";
import { manualClock } from "../clock.js";
import { createProviders } from "./index.js";
import { parseProviderSettings } from "./settings.js";

const clock = manualClock(Date.parse("2026-11-21T12:00:00Z"));
const options = { seed: "config-test", clock, cache: createCache(clock) };
const fromEnv = (env: Record<string, string>) => createProviders(parseProviderSettings(env), options);

describe("createProviders", () => {
  it("builds the embedded dataset by default", () => {
    const { providers, modes } = fromEnv({});
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
      const { providers, modes } = fromEnv({ TVL_PROVIDER: "live", DEFILLAMA_API_URL: server.url });
      expect(modes.tvl).toBe("live");
      expect(providers.tvl.source).toBe("defillama");
      expect(await providers.tvl.chains()).toHaveLength(4);
      expect(providers.pools.source).toBe("embedded-pools");
    } finally {
      await server.close();
    }
  });

  it("builds every live adapter, keeps keys out of upstream errors, and closes the feeds", async () => {
    const [feed, rpc] = await Promise.all([
      startWsServer(),
      startServer((_req, res) => reply(res, 500, { error: "down" })),
    ]);
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
    const created = fromEnv(env);
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
      const error = await created.providers.chain_rpc
        .solBalance("4Be9CvxqHW6BYiRAxW9Q3xu1ycTMWaL5z8NX4HR3ha7t")
        .catch((e: unknown) => e);
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
