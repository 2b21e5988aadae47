import { describe, expect, it } from "vitest";
import { countCalls, expectValidOutcome, testContext } from "../../../test/support/segments.js";
import { curveFacts, sniperRisk } from "../rules/trenches.js";
import { trenchesHandlers as T } from "./trenches.js";

const JUP = "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN";
const UNKNOWN = "7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hx";
const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** Recent pump.fun launches of the test market. */
const recent = async (count = 100) => testContext().providers.launches.recentCreates(count);

describe("trenchesNewTokens", () => {
  it("lists the newest pump.fun launches first, up to the limit", async () => {
    const out = expectValidOutcome("trenchesNewTokens", await T.trenchesNewTokens({ limit: 25 }, testContext()));
    const times = out.data.tokens.map((t) => Date.parse(t.created_at));
    expect(out.data.tokens).toHaveLength(25);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(out.data.tokens.every((t) => t.platform === "pumpfun" && t.market_cap_sol > 0)).toBe(true);
    expect(out.sources).toEqual(["embedded-launches"]);
    expect(out.brief).toContain(out.data.tokens[0]?.symbol);
  });

  it("shows new launches once the feed's 10-second cache expires", async () => {
    const ctx = testContext();
    const first = (await T.trenchesNewTokens({ limit: 1 }, ctx)).data.tokens[0];
    ctx.clock.advance(10 * MINUTE);
    expect((await T.trenchesNewTokens({ limit: 1 }, ctx)).data.tokens[0]).not.toEqual(first);
  });

  it("shares one feed read between concurrent requests and refreshes after 10 seconds", async () => {
    const ctx = testContext();
    const calls = countCalls(ctx.upstream.launches, "recentCreates");
    await Promise.all([T.trenchesNewTokens({ limit: 5 }, ctx), T.trenchesNewTokens({ limit: 50 }, ctx)]);
    expect(calls.count).toBe(1);
    ctx.clock.advance(10 * SECOND - 1);
    await T.trenchesNewTokens({ limit: 5 }, ctx);
    expect(calls.count).toBe(1);
    ctx.clock.advance(1);
    await T.trenchesNewTokens({ limit: 5 }, ctx);
    expect(calls.count).toBe(2);
  });
});

describe("trenchesAltNewTokens", () => {
  it("lists LaunchLab launches, newest first, from the second launchpad's source", async () => {
    const out = expectValidOutcome("trenchesAltNewTokens", await T.trenchesAltNewTokens({ limit: 8 }, testContext()));
    expect(out.data.tokens).toHaveLength(8);
    expect(out.data.tokens.every((t) => t.platform === "launchlab" && t.mint.endsWith("bonk"))).toBe(true);
    expect(out.sources).toEqual(["embedded-launchlab"]);
  });
});

describe("trenchesGraduating", () => {
  it("lists curves above 85%, highest first, with urgency by the 90% line", async () => {
    const out = expectValidOutcome("trenchesGraduating", await T.trenchesGraduating({ limit: 50 }, testContext()));
    const { graduating, total_found } = out.data;
    expect(graduating.length).toBeGreaterThan(3);
    expect(total_found).toBe(graduating.length);
    expect(graduating.map((g) => g.progress_pct)).toEqual(graduating.map((g) => g.progress_pct).sort((a, b) => b - a));
    for (const g of graduating) {
      expect(g.progress_pct).toBeGreaterThan(85);
      expect(g.progress_pct).toBeLessThan(100);
      expect(g.urgency).toBe(g.progress_pct > 90 ? "high" : "medium");
      expect(g.estimated_hours_remaining).toBeLessThanOrEqual(720);
    }
    expect(new Set(graduating.map((g) => g.urgency))).toEqual(new Set(["high", "medium"]));
    expect(out.sources).toEqual(["embedded-launches", "embedded-chain"]);
  });

  it("applies the limit after counting every token found", async () => {
    const out = await T.trenchesGraduating({ limit: 2 }, testContext());
    expect(out.data.graduating).toHaveLength(2);
    expect(out.data.total_found).toBeGreaterThan(2);
  });
});

describe("trenchesCurve", () => {
  it("reads the curve of a graduating token the way the graduating list does", async () => {
    const ctx = testContext();
    const [top] = (await T.trenchesGraduating({ limit: 1 }, ctx)).data.graduating;
    const out = expectValidOutcome("trenchesCurve", await T.trenchesCurve({ mint: top?.mint as string }, ctx));
    expect(out.data.curve).toEqual({
      progress_pct: top?.progress_pct,
      sol_in_curve: top?.sol_in_curve,
      estimated_graduation_hours: top?.estimated_hours_remaining,
    });
    const { reserves } = out.data;
    expect(out.data.market_cap_sol).toBeCloseTo(
      (reserves.virtual_sol_reserves / reserves.virtual_token_reserves) * reserves.token_total_supply,
      1,
    );
    expect(out.data.complete).toBe(false);
  });

  it("accepts the curve key it derives, rejects another account, and 404s a mint with no curve", async () => {
    const ctx = testContext();
    const [token] = await recent(1);
    const mint = token?.mint as string;
    const keyed = await T.trenchesCurve({ mint, curve_key: token?.bondingCurveKey }, ctx);
    expect(keyed.data.curve_key).toBe(token?.bondingCurveKey);
    await expect(T.trenchesCurve({ mint, curve_key: JUP }, ctx)).rejects.toMatchObject({ status: 400 });
    await expect(T.trenchesCurve({ mint: UNKNOWN }, ctx)).rejects.toMatchObject({ status: 404 });
    await expect(T.trenchesCurve({ mint: JUP }, ctx)).rejects.toMatchObject({ status: 404 });
  });

  it("reads LaunchLab pools, and completed curves at 100% with no hours left", async () => {
    const ctx = testContext();
    const [pool] = await ctx.providers.launches.recentLaunchLabLaunches(1);
    const lab = expectValidOutcome("trenchesCurve", await T.trenchesCurve({ mint: pool?.mint as string }, ctx));
    expect(lab.data.curve.progress_pct).toBe(curveFacts(pool as NonNullable<typeof pool>).progressPct);
    expect(lab.data.curve_key).toBe(pool?.address);
    const done = (await ctx.providers.launches.trackedCurves()).find((c) => c.migratedAt !== null);
    const out = expectValidOutcome("trenchesCurve", await T.trenchesCurve({ mint: done?.mint as string }, ctx));
    expect(out.data).toMatchObject({ complete: true, curve: { progress_pct: 100, estimated_graduation_hours: 0 } });
    expect(out.baseline.signal).toBe("watch");
  });
});

describe("trenchesToken and trenchesTokenSnipers", () => {
  it("reports holders, the creator's share and the authorities of a launch", async () => {
    const [token] = await recent(12).then((list) => list.slice(11));
    const out = expectValidOutcome(
      "trenchesToken",
      await T.trenchesToken({ mint: token?.mint as string }, testContext()),
    );
    expect(out.data.token).toMatchObject({
      mint: token?.mint,
      symbol: token?.symbol,
      dev_wallet: token?.traderPublicKey,
    });
    expect(out.data.token.top_holders_pct).toBeGreaterThan(0);
    expect(["watch", "avoid"]).toContain(out.baseline.signal);
  });

  it("404s unknown mints and mints that are no launchpad token", async () => {
    await expect(T.trenchesToken({ mint: UNKNOWN }, testContext())).rejects.toMatchObject({ status: 404 });
    await expect(T.trenchesToken({ mint: JUP }, testContext())).rejects.toMatchObject({ status: 404 });
    await expect(T.trenchesTokenSnipers({ mint: JUP }, testContext())).rejects.toMatchObject({ status: 404 });
  });

  it("lists the wallets of the first 3 blocks, largest buy first, and grades their share", async () => {
    const ctx = testContext();
    let found = 0;
    for (const token of await recent(60)) {
      const out = expectValidOutcome("trenchesTokenSnipers", await T.trenchesTokenSnipers({ mint: token.mint }, ctx));
      const { snipers, wallets } = out.data;
      expect(snipers.count).toBe(wallets.length);
      expect(snipers.risk_level).toBe(sniperRisk(snipers.count, snipers.total_pct));
      expect(wallets.map((w) => w.bought_pct)).toEqual(wallets.map((w) => w.bought_pct).sort((a, b) => b - a));
      expect(wallets.every((w) => w.wallet !== token.traderPublicKey && w.block_offset <= 2)).toBe(true);
      expect(snipers.total_pct).toBeCloseTo(
        wallets.reduce((sum, w) => sum + w.bought_pct, 0),
        1,
      );
      if (snipers.count) found++;
    }
    expect(found).toBeGreaterThan(5);
  });
});

describe("trenchesTokenVerdict", () => {
  it("combines exactly what the token, sniper and curve endpoints return", async () => {
    const ctx = testContext();
    const [top] = (await T.trenchesGraduating({ limit: 1 }, ctx)).data.graduating;
    const mint = top?.mint as string;
    const out = expectValidOutcome("trenchesTokenVerdict", await T.trenchesTokenVerdict({ mint }, ctx));
    expect(out.data.token).toEqual((await T.trenchesToken({ mint }, ctx)).data.token);
    expect(out.data.snipers).toEqual((await T.trenchesTokenSnipers({ mint }, ctx)).data.snipers);
    expect(out.data.curve).toEqual((await T.trenchesCurve({ mint }, ctx)).data.curve);
    expect(out.brief).toContain(out.data.token.symbol);
  });

  it("avoids a launch with a live authority, and reaches every signal across the market", async () => {
    const ctx = testContext();
    const signals = new Map<string, number>();
    for (const token of await recent(100)) {
      const out = await T.trenchesTokenVerdict({ mint: token.mint }, ctx);
      signals.set(out.baseline.signal, (signals.get(out.baseline.signal) ?? 0) + 1);
      if (out.data.token.freeze_authority || out.data.token.mint_authority) expect(out.baseline.signal).toBe("avoid");
    }
    expect([...signals.keys()].sort()).toEqual(["avoid", "snipe", "watch"]);
    await expect(T.trenchesTokenVerdict({ mint: UNKNOWN }, ctx)).rejects.toMatchObject({ status: 404 });
  });
});
