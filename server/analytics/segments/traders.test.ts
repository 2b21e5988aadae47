import { describe, expect, it } from "vitest";
import { countCalls, expectValidOutcome, testContext } from "../../../test/support/segments.js";
import { MAX_LAUNCH_LOOKUPS, tradersHandlers as R } from "./traders.js";

const JUP = "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN";
const UNKNOWN = "7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hx";
const QUIET = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** Profiling the whole population reads 80 wallet histories. */
const SLOW = { timeout: 120_000 };

const population = () => testContext().upstream.chain_rpc.activeTraders(0, 200);

describe("tradersWalletIntel", () => {
  it(
    "profiles the population into every archetype, with wallets worth following and wallets to ignore",
    async () => {
      const ctx = testContext();
      const archetypes = new Set<string>();
      const signals = new Set<string>();
      for (const address of await population()) {
        const out = await R.tradersWalletIntel({ address }, ctx);
        archetypes.add(out.data.archetype);
        signals.add(out.baseline.signal);
        expect(out.baseline.signal).toBe(out.data.copy_worthiness > 7 ? "follow" : "ignore");
        if (out.data.archetype === "inactive") expect(out.data.total_trades).toBeLessThan(5);
      }
      expect([...archetypes].sort()).toEqual([
        "accumulator",
        "degen",
        "inactive",
        "lp_farmer",
        "sniper",
        "swing_trader",
        "whale",
      ]);
      expect([...signals].sort()).toEqual(["follow", "ignore"]);
    },
    SLOW.timeout,
  );

  it("answers a contract-valid profile for a population wallet and for a quiet wallet", async () => {
    const ctx = testContext();
    const [address] = await population();
    const out = expectValidOutcome(
      "tradersWalletIntel",
      await R.tradersWalletIntel({ address: address as string }, ctx),
    );
    expect(out.data).toMatchObject({ address, period: "30d" });
    expect(out.data.worst_trade_pnl_usd).toBeLessThanOrEqual(out.data.best_trade_pnl_usd);
    const quiet = expectValidOutcome("tradersWalletIntel", await R.tradersWalletIntel({ address: QUIET }, ctx));
    expect(quiet.data.archetype).toBe("inactive");
    expect(quiet.baseline.signal).toBe("ignore");
  });

  it("looks up the launches of at most a bounded number of tokens, the most recently bought", async () => {
    const ctx = testContext();
    const now = ctx.clock.now();
    // 60 launchpad buys of distinct tokens, newest first, as the chain reader answers
    const buys = Array.from({ length: 60 }, (_, i) => ({
      signature: `sig${i}`,
      blockTime: now - (i + 1) * MINUTE,
      type: "buy" as const,
      venue: "pump",
      mint: `mint${i}`,
      symbol: `T${i}`,
      amount: 1,
      valueUsd: 10,
    }));
    ctx.upstream.chain_rpc.walletTrades = async () => buys;
    const asked: string[] = [];
    ctx.upstream.chain_rpc.mintCreation = async (mint) => {
      asked.push(mint);
      return undefined;
    };
    await R.tradersWalletIntel({ address: UNKNOWN }, ctx);
    expect(asked.sort()).toEqual(
      buys
        .slice(0, MAX_LAUNCH_LOOKUPS)
        .map((b) => b.mint)
        .sort(),
    );
  });

  it("looks up no launch for a buy older than the profile's 30-day window", async () => {
    const ctx = testContext();
    const now = ctx.clock.now();
    const buy = (mint: string, blockTime: number) => ({
      signature: `sig-${mint}`,
      blockTime,
      type: "buy" as const,
      venue: "pump",
      mint,
      symbol: mint,
      amount: 1,
      valueUsd: 10,
    });
    ctx.upstream.chain_rpc.walletTrades = async () => [buy("recent", now - DAY), buy("old", now - 31 * DAY)];
    const asked: string[] = [];
    ctx.upstream.chain_rpc.mintCreation = async (mint) => {
      asked.push(mint);
      return undefined;
    };
    await R.tradersWalletIntel({ address: UNKNOWN }, ctx);
    expect(asked).toEqual(["recent"]);
  });

  it("reads a wallet's history once for concurrent requests and again after 5 minutes", async () => {
    const ctx = testContext();
    const calls = countCalls(ctx.upstream.chain_rpc, "walletTrades");
    await Promise.all([
      R.tradersWalletIntel({ address: QUIET }, ctx),
      R.tradersWalletPnl({ address: QUIET, period: "7d" }, ctx),
    ]);
    expect(calls.count).toBe(1);
    ctx.clock.advance(5 * MINUTE - 1);
    await R.tradersWalletPositions({ address: QUIET }, ctx);
    expect(calls.count).toBe(1);
    ctx.clock.advance(1);
    await R.tradersWalletIntel({ address: QUIET }, ctx);
    expect(calls.count).toBe(2);
  });
});

describe("tradersWalletPnl", () => {
  it("splits PnL into realized and unrealized with a per-token breakdown", async () => {
    const ctx = testContext();
    const address = (await population())[40] as string;
    const out = expectValidOutcome("tradersWalletPnl", await R.tradersWalletPnl({ address, period: "30d" }, ctx));
    const d = out.data;
    expect(d.total_pnl_usd).toBeCloseTo(d.realized_pnl_usd + d.unrealized_pnl_usd, 2);
    expect(d.winning_trades + d.losing_trades).toBe(d.total_trades);
    expect(d.tokens.length).toBeGreaterThan(0);
    expect(d.tokens.length).toBeLessThanOrEqual(20);
    const size = d.tokens.map((t) => Math.abs(t.realized_pnl_usd + t.unrealized_pnl_usd));
    expect(size).toEqual([...size].sort((a, b) => b - a));
  });

  it("counts fewer trades in shorter windows", async () => {
    const ctx = testContext();
    const address = (await population())[20] as string;
    const [day, week, month] = await Promise.all(
      (["1d", "7d", "30d"] as const).map(
        async (period) => (await R.tradersWalletPnl({ address, period }, ctx)).data.total_trades,
      ),
    );
    expect(day).toBeLessThanOrEqual(week as number);
    expect(week).toBeLessThan(month as number);
  });
});

describe("tradersWalletPositions", () => {
  it("values open positions at current prices, largest first", async () => {
    const ctx = testContext();
    const address = (await population())[60] as string;
    const out = expectValidOutcome("tradersWalletPositions", await R.tradersWalletPositions({ address }, ctx));
    const { positions, total_value_usd } = out.data;
    expect(positions.length).toBeGreaterThan(0);
    expect(positions.map((p) => p.value_usd)).toEqual(positions.map((p) => p.value_usd).sort((a, b) => b - a));
    expect(total_value_usd).toBeCloseTo(
      positions.reduce((sum, p) => sum + p.value_usd, 0),
      1,
    );
    for (const p of positions) {
      expect(p.value_usd).toBeCloseTo(p.amount * p.current_price_usd, 0);
      expect(p.unrealized_pnl_usd).toBeCloseTo(p.amount * (p.current_price_usd - p.avg_entry_price_usd), -1);
    }
  });
});

describe("tradersTopWallets", () => {
  it(
    "ranks wallets by the requested key, within the limit",
    async () => {
      const ctx = testContext();
      for (const [sort, key] of [
        ["pnl", "net_pnl_usd"],
        ["win_rate", "win_rate_pct"],
        ["volume", "volume_usd"],
      ] as const) {
        const out = expectValidOutcome(
          "tradersTopWallets",
          await R.tradersTopWallets({ period: "7d", sort, limit: 15 }, ctx),
        );
        const { wallets } = out.data;
        expect(wallets).toHaveLength(15);
        expect(wallets.map((w) => w.rank)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
        expect(wallets.map((w) => w[key])).toEqual(wallets.map((w) => w[key]).sort((a, b) => b - a));
        expect(out.data).toMatchObject({ period: "7d", sort });
      }
    },
    SLOW.timeout,
  );

  it(
    "computes the ranking once per period for 5 minutes, whatever the sort and limit (a derived read, cached)",
    async () => {
      const ctx = testContext();
      const candidates = countCalls(ctx.upstream.chain_rpc, "activeTraders");
      const byPnl = await R.tradersTopWallets({ period: "7d", sort: "pnl", limit: 5 }, ctx);
      const byVolume = await R.tradersTopWallets({ period: "7d", sort: "volume", limit: 10 }, ctx);
      expect(candidates.count).toBe(1);
      // the same rows, ranked another way
      const rows = new Map(byVolume.data.wallets.map((w) => [w.address, w.net_pnl_usd]));
      for (const w of byPnl.data.wallets) if (rows.has(w.address)) expect(rows.get(w.address)).toBe(w.net_pnl_usd);
      await R.tradersTopWallets({ period: "1d", sort: "pnl", limit: 5 }, ctx);
      expect(candidates.count).toBe(2);
      ctx.clock.advance(5 * 60_000 + 1);
      await R.tradersTopWallets({ period: "7d", sort: "pnl", limit: 5 }, ctx);
      expect(candidates.count).toBe(3);
    },
    SLOW.timeout,
  );
});

describe("tradersTokenWhales", () => {
  it("lists the largest wallets of a token, program accounts left out, with their 24-hour change", async () => {
    const ctx = testContext();
    const [token] = (await ctx.providers.launches.recentCreates(40)).slice(39);
    const mint = token?.mint as string;
    const out = expectValidOutcome("tradersTokenWhales", await R.tradersTokenWhales({ mint, limit: 5 }, ctx));
    const { whales, top_10_pct } = out.data;
    expect(whales.length).toBeGreaterThan(0);
    expect(whales.length).toBeLessThanOrEqual(5);
    expect(whales.map((w) => w.balance)).toEqual(whales.map((w) => w.balance).sort((a, b) => b - a));
    expect(whales.some((w) => w.address === token?.bondingCurveKey)).toBe(false);
    expect(top_10_pct).toBeGreaterThanOrEqual(whales.slice(0, 5).reduce((sum, w) => sum + w.pct_of_supply, 0) - 0.01);
    for (const w of whales) expect(w.net_change_24h).toBeLessThanOrEqual(w.balance + 1e-6);
  });

  it("knows established tokens and 404s unknown mints", async () => {
    const out = expectValidOutcome(
      "tradersTokenWhales",
      await R.tradersTokenWhales({ mint: JUP, limit: 3 }, testContext()),
    );
    expect(out.data.symbol).toBe("JUP");
    expect(out.data.whales).toHaveLength(3);
    await expect(R.tradersTokenWhales({ mint: UNKNOWN, limit: 3 }, testContext())).rejects.toMatchObject({
      status: 404,
    });
  });
});

describe("tradersTokenOhlcv", () => {
  it("returns candles oldest first, as many as asked", async () => {
    const out = expectValidOutcome(
      "tradersTokenOhlcv",
      await R.tradersTokenOhlcv({ mint: JUP, interval: "1h", limit: 48 }, testContext()),
    );
    const times = out.data.candles.map((c) => Date.parse(c.time));
    expect(out.data).toMatchObject({ mint: JUP, symbol: "JUP", interval: "1h" });
    expect(times).toHaveLength(48);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(times[1] as number).toBe((times[0] as number) + 3_600_000);
  });

  it("starts a young launch's candles at its creation, and 404s unknown mints", async () => {
    const ctx = testContext();
    const [token] = await ctx.providers.launches.recentCreates(1);
    const out = expectValidOutcome(
      "tradersTokenOhlcv",
      await R.tradersTokenOhlcv({ mint: token?.mint as string, interval: "1m", limit: 500 }, ctx),
    );
    expect(out.data.candles.length).toBeLessThan(10);
    await expect(R.tradersTokenOhlcv({ mint: UNKNOWN, interval: "1h", limit: 5 }, ctx)).rejects.toMatchObject({
      status: 404,
    });
  });
});
