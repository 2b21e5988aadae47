// The cache decorator of the provider roles over the embedded dataset: every read's value survives
// the JSON round trip of a shared store, keys normalize what they should, and the rest passes through.
import { beforeAll, describe, expect, it } from "vitest";
import { jsonStore } from "../../../test/support/cache.js";
import { countCalls, TEST_NOW } from "../../../test/support/segments.js";
import { singleFlight } from "../cache/memory-cache.js";
import { DAY, HOUR, MINUTE, manualClock } from "../clock.js";
import type { AsyncMethodOf } from "./cache-policy.js";
import { cachedProviders } from "./caching.js";
import { WSOL_MINT } from "./chain-rpc.js";
import { CONTRACT_EXAMPLES } from "./embedded/contract-examples.js";
import { createEmbeddedProviders, type Providers } from "./index.js";
import { toBaseUnits } from "./swap-bridge.js";

type Samples = {
  [R in keyof Providers]: {
    [K in AsyncMethodOf<Providers[R]>]: Providers[R][K] extends (...args: infer A) => unknown ? A : never;
  };
};

function setup() {
  const clock = manualClock(TEST_NOW);
  const upstream = createEmbeddedProviders({ seed: "cached-test", clock });
  return { clock, upstream, cached: cachedProviders(upstream, singleFlight(jsonStore(clock)), clock) };
}

/** One call of every read, with arguments the embedded dataset knows. */
async function samples(upstream: Providers): Promise<Samples> {
  const [launch] = await upstream.launches.recentCreates(1);
  const mint = launch?.mint as string;
  const created = await upstream.chain_rpc.mintCreation(mint);
  const [trader] = await upstream.chain_rpc.activeTraders(TEST_NOW - 30 * DAY, 1);
  const [usdc, usdcOnBase] = await Promise.all([
    upstream.swap_bridge.token("ethereum", "USDC"),
    upstream.swap_bridge.token("base", "USDC"),
  ]);
  if (!created || !trader || !usdc || !usdcOnBase) throw new Error("the embedded dataset lacks a sample");
  const wallet = { chain: "ethereum" as const, address: "0x28c6c06298d514db089934071355e5743bf21d60" };
  return {
    tvl: { chains: [], protocol: ["aave-v3"], yieldPools: [] },
    pools: {
      listPools: [{ sortBy: "tvl", pageSize: 20 }],
      pool: [CONTRACT_EXAMPLES.pool],
      volumeHistory: [CONTRACT_EXAMPLES.pool, 7],
      positionsByOwner: [CONTRACT_EXAMPLES.wallet],
      position: [CONTRACT_EXAMPLES.position.address],
    },
    launches: { recentCreates: [10], trackedCurves: [], recentLaunchLabLaunches: [5] },
    chain_rpc: {
      curveAccount: [upstream.chain_rpc.curveAddresses(mint).pump],
      mintAccount: [mint],
      tokenMetadata: [mint],
      largestHolders: [mint],
      holderCount: [mint],
      mintCreation: [mint],
      tokenTrades: [mint, { fromSlot: created.slot, toSlot: created.slot + 2 }],
      walletTrades: [trader, TEST_NOW - 60 * DAY],
      activeTraders: [TEST_NOW - 7 * DAY, 50],
      solBalance: [trader],
      tokenAccounts: [trader],
      prices: [[WSOL_MINT, mint]],
      candles: [mint, "1h", 24],
    },
    wallet_labels: {
      labels: [wallet],
      pnlSummary: [wallet, "30d"],
      trades: [wallet, 10],
      balances: [wallet],
      firstTransactionAt: [wallet],
      flowIntelligence: [{ chain: "solana", tokenAddress: "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN" }, "1d"],
      tokenScreener: [["solana", "ethereum"], "7d"],
      pnlLeaderboard: ["solana", "7d"],
    },
    swap_bridge: {
      token: ["ethereum", "USDC"],
      quote: [
        {
          fromChain: "ethereum",
          toChain: "base",
          fromToken: usdc,
          toToken: usdcOnBase,
          fromAmount: toBaseUnits(250, usdc.decimals),
          slippage: 0.005,
        },
      ],
    },
  };
}

type Read = (...args: unknown[]) => Promise<unknown>;
const readOf = (providers: Providers, role: string, method: string) =>
  (providers as unknown as Record<string, Record<string, Read>>)[role]?.[method] as Read;

describe("the cached providers", () => {
  let reads: Samples;
  beforeAll(async () => {
    reads = await samples(setup().upstream);
  });

  it("serve every read from one upstream call, with its value unchanged by the store's JSON round trip", async () => {
    const { upstream, cached } = setup();
    const checked: string[] = [];
    for (const [role, methods] of Object.entries(reads)) {
      for (const [method, args] of Object.entries(methods as Record<string, unknown[]>)) {
        const direct = await readOf(upstream, role, method)(...args);
        const calls = countCalls(
          (upstream as unknown as Record<string, Record<string, Read>>)[role] as Record<string, Read>,
          method,
        );
        const loaded = await readOf(cached, role, method)(...args);
        const stored = await readOf(cached, role, method)(...args);
        expect(calls.count, `${role}.${method}`).toBe(1);
        expect(loaded, `${role}.${method}`).toStrictEqual(direct);
        expect(stored, `${role}.${method}`).toStrictEqual(direct);
        checked.push(`${role}.${method}`);
      }
    }
    expect(checked).toHaveLength(34);
  });

  it("shares one entry between calls that mean the same read", async () => {
    const { upstream, cached } = setup();
    const tokens = countCalls(upstream.swap_bridge, "token");
    await Promise.all([cached.swap_bridge.token("base", "USDC"), cached.swap_bridge.token("base", " usdc ")]);
    expect(tokens.count).toBe(1);
    const prices = countCalls(upstream.chain_rpc, "prices");
    await cached.chain_rpc.prices(["b", "a", "a"]);
    await cached.chain_rpc.prices(["a", "b"]);
    expect(prices.count).toBe(1);
    await cached.swap_bridge.token("ethereum", "USDC");
    expect(tokens.count).toBe(2);
  });

  it("never shares an entry between Solana addresses that differ only in case (base58 is case-sensitive)", async () => {
    const { upstream, cached } = setup();
    const BONK = "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263";
    const asked: string[] = [];
    upstream.swap_bridge.token = async (_chain, symbolOrAddress) => {
      asked.push(symbolOrAddress);
      return symbolOrAddress === BONK
        ? { chain: "solana", address: BONK, symbol: "Bonk", decimals: 5, priceUsd: 0.00002 }
        : undefined;
    };
    // another caller's lowercased spelling, unknown upstream, must not answer for the real mint
    expect(await cached.swap_bridge.token("solana", BONK.toLowerCase())).toBeUndefined();
    expect(await cached.swap_bridge.token("solana", BONK)).toMatchObject({ address: BONK });
    expect(asked).toEqual([BONK.toLowerCase(), BONK]);
    // an EVM address still matches in any case
    await cached.swap_bridge.token("base", "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913");
    await cached.swap_bridge.token("base", "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913");
    expect(asked).toHaveLength(3);
  });

  it("keys a read of the last hour by its length, so that it stays one entry as the clock moves", async () => {
    const { clock, upstream, cached } = setup();
    const trades = countCalls(upstream.chain_rpc, "tokenTrades");
    const [mint] = reads.chain_rpc.mintAccount;
    const lastHour = () => cached.chain_rpc.tokenTrades(mint, { since: clock.now() - HOUR });
    await lastHour();
    clock.advance(29_999);
    await lastHour();
    expect(trades.count).toBe(1);
    clock.advance(1);
    await lastHour();
    expect(trades.count).toBe(2);
    await cached.chain_rpc.tokenTrades(mint, { since: clock.now() - DAY });
    expect(trades.count).toBe(3);
    clock.advance(2 * MINUTE - 1);
    await cached.chain_rpc.tokenTrades(mint, { since: clock.now() - DAY });
    expect(trades.count).toBe(3);
  });

  it("keeps the reads of different upstreams of a role apart in one shared cache (instances mid-way through a provider change)", async () => {
    const clock = manualClock(TEST_NOW);
    const shared = singleFlight(jsonStore(clock));
    const embedded = createEmbeddedProviders({ seed: "cached-test", clock });
    const live = { ...embedded, tvl: { ...embedded.tvl, source: "defillama", chains: async () => [] } };
    const first = cachedProviders(embedded, shared, clock);
    const second = cachedProviders(live, shared, clock);
    expect((await first.tvl.chains()).length).toBeGreaterThan(0);
    expect(await second.tvl.chains()).toEqual([]);
  });

  it("passes sources and derived reads through", () => {
    const { upstream, cached } = setup();
    expect(cached.launches.launchLabSource).toBe(upstream.launches.launchLabSource);
    expect(Object.entries(cached).map(([role, p]) => [role, p.source])).toEqual(
      Object.entries(upstream).map(([role, p]) => [role, p.source]),
    );
    expect(cached.chain_rpc.curveAddresses(WSOL_MINT)).toEqual(upstream.chain_rpc.curveAddresses(WSOL_MINT));
  });
});
