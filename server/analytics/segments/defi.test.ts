import { describe, expect, it } from "vitest";
import { countCalls, expectValidOutcome, testContext } from "../../../test/support/segments.js";
import { defiHandlers } from "./defi.js";

describe("defiTvl", () => {
  it("lists chains by TVL, highest first, with a total that is their sum", async () => {
    const out = expectValidOutcome("defiTvl", await defiHandlers.defiTvl({ chain: "all", limit: 5 }, testContext()));
    const tvls = out.data.chains.map((c) => c.tvl_usd);
    expect(out.data.chains).toHaveLength(5);
    expect(tvls).toEqual([...tvls].sort((a, b) => b - a));
    expect(out.data.total_tvl_usd).toBeCloseTo(
      tvls.reduce((a, b) => a + b, 0),
      2,
    );
    expect(out.data.filter).toEqual({ chain: "all", protocol: null });
  });

  it("filters one chain case-insensitively and rejects a chain the aggregator does not list", async () => {
    const out = await defiHandlers.defiTvl({ chain: "SOLANA", limit: 20 }, testContext());
    expect(out.data.chains.map((c) => c.name)).toEqual(["Solana"]);
    await expect(defiHandlers.defiTvl({ chain: "atlantis", limit: 20 }, testContext())).rejects.toMatchObject({
      status: 400,
    });
  });

  it("splits one protocol by chain, and 404s an unknown protocol", async () => {
    const out = expectValidOutcome(
      "defiTvl",
      await defiHandlers.defiTvl({ chain: "all", limit: 20, protocol: "Aave-V3" }, testContext()),
    );
    expect(out.data.chains[0]?.name).toBe("Ethereum");
    expect(out.data.chains.every((c) => c.token_symbol.length > 0)).toBe(true);
    expect(out.data.filter.protocol).toBe("Aave-V3");
    await expect(
      defiHandlers.defiTvl({ chain: "all", limit: 20, protocol: "nope" }, testContext()),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("serves the same answer from cache for 15 minutes, then refreshes", async () => {
    const ctx = testContext();
    const calls = countCalls(ctx.upstream.tvl, "chains");
    await Promise.all([
      defiHandlers.defiTvl({ chain: "all", limit: 3 }, ctx),
      defiHandlers.defiTvl({ chain: "all", limit: 3 }, ctx),
    ]);
    expect(calls.count).toBe(1);
    ctx.clock.advance(15 * 60_000 - 1);
    await defiHandlers.defiTvl({ chain: "all", limit: 3 }, ctx);
    expect(calls.count).toBe(1);
    ctx.clock.advance(1);
    await defiHandlers.defiTvl({ chain: "all", limit: 3 }, ctx);
    expect(calls.count).toBe(2);
  });
});

describe("defiYields", () => {
  it("sorts by APY, highest first, and warns about emissions above 100%", async () => {
    const out = expectValidOutcome(
      "defiYields",
      await defiHandlers.defiYields({ chain: "all", limit: 50 }, testContext()),
    );
    const apys = out.data.pools.map((p) => p.apy_pct);
    expect(apys).toEqual([...apys].sort((a, b) => b - a));
    expect(apys[0]).toBeGreaterThan(100);
    expect(out.brief).toMatch(/emissions/);
  });

  it("applies the stablecoin flag (string or boolean), chain and min_apy filters and echoes them", async () => {
    for (const stablecoin of ["true", true] as const) {
      const out = await defiHandlers.defiYields({ chain: "solana", limit: 50, stablecoin, min_apy: 5 }, testContext());
      expect(out.data.pools.length).toBeGreaterThan(0);
      expect(out.data.pools.every((p) => p.stablecoin && p.chain === "Solana" && p.apy_pct >= 5)).toBe(true);
      expect(out.data.filter).toEqual({ chain: "solana", stablecoin: true, min_apy: 5 });
    }
    const unfiltered = await defiHandlers.defiYields({ chain: "all", limit: 50, stablecoin: "false" }, testContext());
    expect(unfiltered.data.filter.min_apy).toBeNull();
    expect(unfiltered.data.pools.some((p) => !p.stablecoin)).toBe(true);
  });

  it("rejects a chain the aggregator does not list, and answers a listed chain without pools with an empty list", async () => {
    const ctx = testContext();
    await expect(defiHandlers.defiYields({ chain: "atlantis", limit: 20 }, ctx)).rejects.toMatchObject({
      status: 400,
      details: { errors: [{ location: "body", field: "chain" }] },
    });
    const pooled = new Set((await ctx.providers.tvl.yieldPools()).map((p) => p.chain.toLowerCase()));
    const poolless = (await ctx.providers.tvl.chains()).find((c) => !pooled.has(c.name.toLowerCase()));
    expect(poolless).toBeDefined();
    const out = expectValidOutcome(
      "defiYields",
      await defiHandlers.defiYields({ chain: poolless?.name as string, limit: 20 }, ctx),
    );
    expect(out.data.pools).toEqual([]);
  });

  it("is reproducible from the seed and the clock", async () => {
    const a = await defiHandlers.defiYields({ chain: "all", limit: 5 }, testContext("s1"));
    const b = await defiHandlers.defiYields({ chain: "all", limit: 5 }, testContext("s1"));
    const c = await defiHandlers.defiYields({ chain: "all", limit: 5 }, testContext("s2"));
    expect(a.data).toEqual(b.data);
    expect(a.data).not.toEqual(c.data);
  });
});
