import { describe, expect, it } from "vitest";
import { countCalls, expectValidOutcome, testContext } from "../../../test/support/segments.js";
import { embeddedLpWallets } from "../providers/embedded/pools.js";
import type { PositionRecord } from "../providers/pools.js";
import { lpHandlers } from "./lp.js";

const SOL = "So11111111111111111111111111111111111111112";
const UNKNOWN = "11111111111111111111111111111111";

async function solUsdc4(ctx = testContext()) {
  const out = await lpHandlers.lpPools({ sort: "tvl", limit: 100, min_tvl: 0, base: "SOL", quote: "USDC" }, ctx);
  const pool = out.data.pools.find((p) => p.bin_step === 4);
  if (!pool) throw new Error("the embedded venue lost its SOL-USDC bin-step-4 pool");
  return pool;
}

async function positions(ctx = testContext()) {
  const all = await Promise.all(embeddedLpWallets("test-seed").map((w) => ctx.providers.pools.positionsByOwner(w)));
  return all.flat();
}

async function findPosition(
  ctx: ReturnType<typeof testContext>,
  wanted: (p: PositionRecord, activeBinId: number) => boolean,
) {
  for (const p of await positions(ctx)) {
    const pool = await ctx.providers.pools.pool(p.pool);
    if (pool && wanted(p, pool.activeBinId)) return p;
  }
  throw new Error("no embedded position fits");
}

describe("lpPools", () => {
  it("sorts by APR, volume or TVL, highest first, and caps the list at limit", async () => {
    for (const [sort, key] of [
      ["apr", "apr_pct"],
      ["volume", "volume_24h_usd"],
      ["tvl", "tvl_usd"],
    ] as const) {
      const out = expectValidOutcome(
        "lpPools",
        await lpHandlers.lpPools({ sort, limit: 7, min_tvl: 0 }, testContext()),
      );
      const values = out.data.pools.map((p) => p[key]);
      expect(values).toHaveLength(7);
      expect(values).toEqual([...values].sort((a, b) => b - a));
      expect(out.data.total_pools).toBeGreaterThan(7);
      expect(out.data.sort).toBe(sort);
    }
  });

  it("derives each APR from 24 h fees over TVL", async () => {
    const out = await lpHandlers.lpPools({ sort: "apr", limit: 100, min_tvl: 0 }, testContext());
    for (const p of out.data.pools) expect(p.apr_pct).toBeCloseTo(((p.fees_24h_usd * 365) / p.tvl_usd) * 100, 1);
  });

  it("filters by mint, base and quote symbols (any case) and minimum TVL, and echoes the filters", async () => {
    const out = expectValidOutcome(
      "lpPools",
      await lpHandlers.lpPools(
        { sort: "apr", limit: 50, min_tvl: 1e6, token: SOL, base: "sol", quote: "usdc" },
        testContext(),
      ),
    );
    expect(out.data.pools.length).toBeGreaterThan(1);
    expect(out.data.pools.every((p) => p.name === "SOL-USDC" && p.tvl_usd >= 1e6)).toBe(true);
    expect(out.data.total_pools).toBe(out.data.pools.length);
    expect(out.data.filter).toEqual({ min_tvl: 1e6, token: SOL, base: "sol", quote: "usdc" });
    const quoted = await lpHandlers.lpPools({ sort: "tvl", limit: 50, min_tvl: 0, quote: "SOL" }, testContext());
    expect(quoted.data.pools.every((p) => p.token_y.symbol === "SOL")).toBe(true);
    expect(quoted.data.filter).toEqual({ min_tvl: 0, token: null, base: null, quote: "SOL" });
  });

  it("serves the legacy GET, which carries sort and limit only", async () => {
    const out = expectValidOutcome("lpPools", await lpHandlers.lpPools({ sort: "volume", limit: 3 }, testContext()));
    expect(out.data.pools).toHaveLength(3);
    expect(out.data.filter).toEqual({ min_tvl: 0, token: null, base: null, quote: null });
  });

  it("answers an empty list with hold when nothing matches", async () => {
    const out = expectValidOutcome(
      "lpPools",
      await lpHandlers.lpPools({ sort: "apr", limit: 50, min_tvl: 1e12 }, testContext()),
    );
    expect(out.data).toMatchObject({ pools: [], total_pools: 0 });
    expect(out.baseline.signal).toBe("hold");
  });

  it("serves lists from cache for 5 minutes, sharing one upstream call between concurrent misses", async () => {
    const ctx = testContext();
    const calls = countCalls(ctx.upstream.pools, "listPools");
    const request = { sort: "apr", limit: 5, min_tvl: 0 } as const;
    await Promise.all([lpHandlers.lpPools(request, ctx), lpHandlers.lpPools({ ...request, limit: 9 }, ctx)]);
    expect(calls.count).toBe(1);
    ctx.clock.advance(5 * 60_000 - 1);
    await lpHandlers.lpPools(request, ctx);
    expect(calls.count).toBe(1);
    ctx.clock.advance(1);
    await lpHandlers.lpPools(request, ctx);
    expect(calls.count).toBe(2);
  });
});

describe("lpPoolDetail", () => {
  it("details a pool with 7 days of volume, most recent first, whose sum is the 7-day volume", async () => {
    const ctx = testContext();
    const { address } = await solUsdc4(ctx);
    const out = expectValidOutcome("lpPoolDetail", await lpHandlers.lpPoolDetail({ address }, ctx));
    const { pool, volume_history: history } = out.data;
    expect(history.map((v) => v.date)).toEqual([
      "2026-11-21",
      "2026-11-20",
      "2026-11-19",
      "2026-11-18",
      "2026-11-17",
      "2026-11-16",
      "2026-11-15",
    ]);
    expect(history[0]?.volume_usd).toBe(pool.volume_24h_usd);
    expect(pool.volume_7d_usd).toBeCloseTo(
      history.reduce((a, v) => a + v.volume_usd, 0),
      1,
    );
    expect(pool.fees_7d_usd).toBeCloseTo((pool.volume_7d_usd * pool.base_fee_pct) / 100, 0);
    expect(pool.apr_7d_pct).toBeCloseTo(((pool.fees_7d_usd * 365) / 7 / pool.tvl_usd) * 100, 1);
    expect(pool.apr_24h_pct).toBeCloseTo(((pool.fees_24h_usd * 365) / pool.tvl_usd) * 100, 1);
    expect(out.brief).toContain(pool.name);
  });

  it("404s an unknown pool", async () => {
    await expect(lpHandlers.lpPoolDetail({ address: UNKNOWN }, testContext())).rejects.toMatchObject({ status: 404 });
  });

  it("shares one pool read between concurrent requests and refreshes it after a minute", async () => {
    const ctx = testContext();
    const { address } = await solUsdc4(ctx);
    const calls = countCalls(ctx.upstream.pools, "pool");
    await Promise.all([lpHandlers.lpPoolDetail({ address }, ctx), lpHandlers.lpPoolDetail({ address }, ctx)]);
    expect(calls.count).toBe(1);
    ctx.clock.advance(60_000);
    await lpHandlers.lpPoolDetail({ address }, ctx);
    expect(calls.count).toBe(2);
  });
});

describe("lpPoolsRecommend", () => {
  it("recommends one pool of the pair with a strategy for the appetite, and up to 3 runner-ups", async () => {
    const ctx = testContext();
    const out = expectValidOutcome(
      "lpPoolsRecommend",
      await lpHandlers.lpPoolsRecommend({ base: "SOL", quote: "USDC", strategy: "spot", risk: "mid" }, ctx),
    );
    const { recommended_pool: best, strategy, alternatives } = out.data;
    expect(best.name).toBe("SOL-USDC");
    expect(strategy).toMatchObject({
      distribution: "spot",
      suggested_range_pct: 10,
      risk_level: "mid",
      il_risk: "medium",
    });
    expect(strategy.expected_apr_low).toBeLessThan(strategy.expected_apr_high);
    expect(alternatives.length).toBeGreaterThan(0);
    expect(alternatives.length).toBeLessThanOrEqual(3);
    expect(alternatives.every((a) => a.name === "SOL-USDC" && a.address !== best.address)).toBe(true);
  });

  it("widens the range for the cautious and tightens it for the eager", async () => {
    const range = async (risk: "low" | "mid" | "high") =>
      (await lpHandlers.lpPoolsRecommend({ base: "SOL", quote: "USDC", strategy: "curve", risk }, testContext())).data
        .strategy.suggested_range_pct;
    expect(await range("low")).toBeGreaterThan(await range("mid"));
    expect(await range("mid")).toBeGreaterThan(await range("high"));
  });

  it("accepts the pair in either order, and 404s a pair the venue has no pool for", async () => {
    const out = await lpHandlers.lpPoolsRecommend(
      { base: "sol", quote: "jitosol", strategy: "spot", risk: "low" },
      testContext(),
    );
    expect(out.data.recommended_pool.name).toBe("JitoSOL-SOL");
    expect(out.data.strategy.il_risk).toBe("low");
    await expect(
      lpHandlers.lpPoolsRecommend({ base: "SOL", quote: "DOGE", strategy: "spot", risk: "mid" }, testContext()),
    ).rejects.toMatchObject({
      status: 404,
    });
  });
});

describe("lpWalletPositions", () => {
  it("lists a wallet's positions with totals that add up", async () => {
    const ctx = testContext();
    for (const wallet of embeddedLpWallets("test-seed").slice(0, 4)) {
      const out = expectValidOutcome("lpWalletPositions", await lpHandlers.lpWalletPositions({ wallet }, ctx));
      const { positions: list } = out.data;
      expect(list.length).toBeGreaterThan(0);
      expect(out.data.total_value_usd).toBeCloseTo(
        list.reduce((a, p) => a + p.value_usd, 0),
        1,
      );
      expect(out.data.in_range_count).toBe(list.filter((p) => p.in_range).length);
      for (const p of list)
        expect(p.in_range).toBe(p.active_bin_id >= p.lower_bin_id && p.active_bin_id <= p.upper_bin_id);
    }
  });

  it("filters by pool, 404s an unknown pool, and answers an empty wallet with hold", async () => {
    const ctx = testContext();
    const [first] = await positions(ctx);
    const wallet = first?.owner as string;
    const out = await lpHandlers.lpWalletPositions({ wallet, pool: first?.pool }, ctx);
    expect(out.data.positions.length).toBeGreaterThan(0);
    expect(out.data.positions.every((p) => p.pool_address === first?.pool)).toBe(true);
    await expect(lpHandlers.lpWalletPositions({ wallet, pool: UNKNOWN }, ctx)).rejects.toMatchObject({ status: 404 });
    const empty = expectValidOutcome("lpWalletPositions", await lpHandlers.lpWalletPositions({ wallet: UNKNOWN }, ctx));
    expect(empty.data).toEqual({
      wallet: UNKNOWN,
      positions: [],
      total_value_usd: 0,
      total_unclaimed_fees_usd: 0,
      in_range_count: 0,
    });
    expect(empty.baseline.signal).toBe("hold");
  });
});

describe("lpPositionRebalance", () => {
  it("measures how far an out-of-range position is and proposes a range around the price", async () => {
    const ctx = testContext();
    const stray = await findPosition(ctx, (p, active) => active > p.upperBinId || active < p.lowerBinId);
    const out = expectValidOutcome(
      "lpPositionRebalance",
      await lpHandlers.lpPositionRebalance({ position: stray.address, strategy: "spot", range_pct: 5 }, ctx),
    );
    const { proposal, current_price: price } = out.data;
    expect(out.data.position.in_range).toBe(false);
    expect(out.data.distance_from_range_pct).toBeGreaterThan(0);
    expect(proposal.new_lower_price).toBeLessThan(price);
    expect(proposal.new_upper_price).toBeGreaterThan(price);
    expect(proposal.new_lower_price / price).toBeCloseTo(0.95, 2);
    expect(proposal.estimated_cost_usd).toBeGreaterThan(0);
  });

  it("finds no distance for an in-range position and walls one side for bidask", async () => {
    const ctx = testContext();
    const inside = await findPosition(ctx, (p, active) => active >= p.lowerBinId && active <= p.upperBinId);
    const out = expectValidOutcome(
      "lpPositionRebalance",
      await lpHandlers.lpPositionRebalance({ position: inside.address, strategy: "bidask", range_pct: 10 }, ctx),
    );
    expect(out.data.distance_from_range_pct).toBe(0);
    expect(out.baseline.signal).not.toBe("rebalance");
    const { proposal } = out.data;
    expect([proposal.new_lower_bin_id, proposal.new_upper_bin_id]).toContain(out.data.position.active_bin_id);
  });

  it("404s an unknown position", async () => {
    await expect(
      lpHandlers.lpPositionRebalance({ position: UNKNOWN, strategy: "spot", range_pct: 10 }, testContext()),
    ).rejects.toMatchObject({
      status: 404,
    });
  });
});

describe("lpPoolsStrategy", () => {
  it("plans spot, curve and bidask for a pool and recommends the one the appetite fits", async () => {
    const ctx = testContext();
    const { address } = await solUsdc4(ctx);
    for (const [risk, recommended] of [
      ["low", "bidask"],
      ["mid", "spot"],
      ["high", "curve"],
    ] as const) {
      const out = expectValidOutcome(
        "lpPoolsStrategy",
        await lpHandlers.lpPoolsStrategy({ address, capital_usd: 5000, risk }, ctx),
      );
      expect(out.data.strategies.map((s) => s.distribution)).toEqual(["spot", "curve", "bidask"]);
      expect(out.data.recommended).toBe(recommended);
      expect(out.data.strategies.find((s) => s.distribution === recommended)?.risk_level).toBe(risk);
      expect(out.data.capital_usd).toBe(5000);
      expect(out.brief).toContain("$5000.00");
    }
  });

  it("404s an unknown pool", async () => {
    await expect(
      lpHandlers.lpPoolsStrategy({ address: UNKNOWN, capital_usd: 1000, risk: "mid" }, testContext()),
    ).rejects.toMatchObject({
      status: 404,
    });
  });
});
