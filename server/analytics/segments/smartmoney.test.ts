import { describe, expect, it } from "vitest";
import { expectValidOutcome, TEST_NOW, testContext } from "../../../test/support/segments.js";
import { flowSignal } from "../rules/smartmoney.js";
import { smartmoneyHandlers as handlers } from "./smartmoney.js";

const MINUTE = 60_000;
const JUP = "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN";
const FAMOUS = "0x28C6c06298d514Db089934071355E5743bf21d60";
const ALL_CHAINS = "solana,ethereum,base,arbitrum";

/** Counts the calls of one provider method. */
function countCalls<K extends "labels" | "trades" | "flowIntelligence" | "tokenScreener" | "pnlLeaderboard">(
  ctx: ReturnType<typeof testContext>,
  method: K,
): { calls: number } {
  const counter = { calls: 0 };
  const provider = ctx.upstream.wallet_labels;
  const original = provider[method].bind(provider) as (...args: unknown[]) => Promise<unknown>;
  Object.assign(provider, {
    [method]: (...args: unknown[]) => {
      counter.calls++;
      return original(...args);
    },
  });
  return counter;
}

describe("smartmoneyTokenScreener", () => {
  const screen = (body: Parameters<typeof handlers.smartmoneyTokenScreener>[0], ctx = testContext()) =>
    handlers.smartmoneyTokenScreener({ chains: "solana", only_smart_money: true, limit: 20, ...body }, ctx);

  it("lists Solana tokens by default, strongest smart-money inflow first, and echoes the filters", async () => {
    const out = expectValidOutcome("smartmoneyTokenScreener", await screen({}));
    const flows = out.data.tokens.map((t) => t.smart_money_net_flow_7d_usd);
    expect(out.data.tokens.length).toBeGreaterThan(0);
    expect(out.data.tokens.every((t) => t.chain === "solana")).toBe(true);
    expect(flows).toEqual([...flows].sort((a, b) => b - a));
    expect(out.data.total_matches).toBe(out.data.tokens.length);
    expect(out.data.filters).toEqual({
      chains: ["solana"],
      only_smart_money: true,
      market_cap_min: null,
      market_cap_max: null,
      token_age_days: null,
    });
    expect(out.brief).toContain(out.data.tokens[0]?.symbol);
  });

  it("parses and deduplicates the chains, and limits after counting the matches", async () => {
    const out = expectValidOutcome(
      "smartmoneyTokenScreener",
      await screen({ chains: "base,arbitrum,base", only_smart_money: false, limit: 2 }),
    );
    expect(out.data.filters.chains).toEqual(["base", "arbitrum"]);
    expect(out.data.tokens).toHaveLength(2);
    expect(out.data.total_matches).toBe(6);
    expect(out.data.tokens.every((t) => t.chain === "base" || t.chain === "arbitrum")).toBe(true);
  });

  it("keeps only tokens with smart-money activity unless asked otherwise", async () => {
    const active = await screen({ chains: ALL_CHAINS, limit: 50 });
    const all = await screen({ chains: ALL_CHAINS, only_smart_money: false, limit: 50 });
    expect(active.data.tokens.every((t) => t.smart_money_wallets > 0)).toBe(true);
    expect(all.data.total_matches).toBe(16);
    expect(all.data.tokens.some((t) => t.smart_money_wallets === 0)).toBe(true);
    expect(active.data.total_matches).toBeLessThan(all.data.total_matches);
  });

  it("applies market-cap bounds inclusively and the maximum age", async () => {
    const all = await screen({ chains: ALL_CHAINS, only_smart_money: false, limit: 50 });
    const caps = all.data.tokens.map((t) => t.market_cap_usd).sort((a, b) => a - b);
    const [low, high] = [caps[3] as number, caps[10] as number];
    const bounded = await screen({
      chains: ALL_CHAINS,
      only_smart_money: false,
      limit: 50,
      market_cap_min: low,
      market_cap_max: high,
    });
    expect(bounded.data.total_matches).toBe(8);
    expect(bounded.data.filters).toMatchObject({ market_cap_min: low, market_cap_max: high });
    const young = await screen({ chains: ALL_CHAINS, only_smart_money: false, limit: 50, token_age_days: 1000 });
    expect(young.data.tokens.map((t) => t.symbol).sort()).toEqual(["BRETT", "ENA"]);
    expect(young.data.filters.token_age_days).toBe(1000);
  });

  it("accepts a maximum market cap equal to the minimum", async () => {
    expectValidOutcome("smartmoneyTokenScreener", await screen({ market_cap_min: 1e9, market_cap_max: 1e9 }));
  });

  it("says so when nothing matches", async () => {
    const out = expectValidOutcome("smartmoneyTokenScreener", await screen({ market_cap_min: 1e15 }));
    expect(out.data.tokens).toEqual([]);
    expect(out.baseline.signal).toBe("ignore");
    expect(out.brief).toMatch(/No token/);
  });

  it("shares one screener call per chain set for 5 minutes, whatever the chain order", async () => {
    const ctx = testContext();
    const counter = countCalls(ctx, "tokenScreener");
    await Promise.all([screen({ chains: "base,solana" }, ctx), screen({ chains: "solana,base", limit: 3 }, ctx)]);
    expect(counter.calls).toBe(1);
    ctx.clock.advance(5 * MINUTE - 1);
    await screen({ chains: "base,solana" }, ctx);
    expect(counter.calls).toBe(1);
    ctx.clock.advance(1);
    await screen({ chains: "base,solana" }, ctx);
    expect(counter.calls).toBe(2);
  });
});

describe("smartmoneyFlowIntel", () => {
  it("splits flows by category for every window, with a total that is their sum", async () => {
    for (const timeframe of ["5m", "1h", "6h", "12h", "1d", "7d"] as const) {
      const out = expectValidOutcome(
        "smartmoneyFlowIntel",
        await handlers.smartmoneyFlowIntel({ chain: "solana", token_address: JUP, timeframe }, testContext()),
      );
      const { smart_traders, whales, kols } = out.data.flows;
      expect(out.data).toMatchObject({ token: JUP, chain: "solana", timeframe });
      expect(out.data.total_net_flow_usd).toBeCloseTo(
        smart_traders.net_flow_usd + whales.net_flow_usd + kols.net_flow_usd,
        2,
      );
      expect(out.baseline).toEqual(flowSignal(out.data.flows));
      expect(out.brief).toContain(`${smart_traders.unique_wallets} smart trader`);
    }
  });

  it("takes EVM token addresses in any case and echoes them as given", async () => {
    const aave = "0x7Fc66500c84A76Ad7e9c93437bFc5Ac33E2DDaE9";
    const mixed = await handlers.smartmoneyFlowIntel(
      { chain: "ethereum", token_address: aave, timeframe: "1d" },
      testContext(),
    );
    const lower = await handlers.smartmoneyFlowIntel(
      { chain: "ethereum", token_address: aave.toLowerCase(), timeframe: "1d" },
      testContext(),
    );
    expect(mixed.data.token).toBe(aave);
    expect(lower.data.flows).toEqual(mixed.data.flows);
  });

  it("404s a token the provider does not know", async () => {
    const ctx = testContext();
    await expect(
      handlers.smartmoneyFlowIntel(
        { chain: "base", token_address: "0x0000000000000000000000000000000000000001", timeframe: "7d" },
        ctx,
      ),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("caches 5-minute flows for one minute and weekly flows for five", async () => {
    const ctx = testContext();
    const counter = countCalls(ctx, "flowIntelligence");
    const ask = (timeframe: "5m" | "7d") =>
      handlers.smartmoneyFlowIntel({ chain: "solana", token_address: JUP, timeframe }, ctx);
    await Promise.all([ask("5m"), ask("5m"), ask("7d")]);
    expect(counter.calls).toBe(2);
    ctx.clock.advance(MINUTE);
    await Promise.all([ask("5m"), ask("7d")]);
    expect(counter.calls).toBe(3);
    ctx.clock.advance(4 * MINUTE);
    await ask("7d");
    expect(counter.calls).toBe(4);
  });
});

describe("smartmoneyPnlLeaderboard", () => {
  it("ranks the chain's labeled traders by total PnL, highest first, up to the limit", async () => {
    const out = expectValidOutcome(
      "smartmoneyPnlLeaderboard",
      await handlers.smartmoneyPnlLeaderboard({ chain: "ethereum", timeframe: "7d", limit: 5 }, testContext()),
    );
    const totals = out.data.traders.map((t) => t.total_pnl_usd);
    expect(out.data).toMatchObject({ chain: "ethereum", timeframe: "7d" });
    expect(out.data.traders.map((t) => t.rank)).toEqual([1, 2, 3, 4, 5]);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
    for (const t of out.data.traders) expect(t.total_pnl_usd).toBeCloseTo(t.realized_pnl_usd + t.unrealized_pnl_usd, 2);
    expect(out.brief).toContain("ethereum");
  });

  it("agrees with the wallet profile of its leader over 30 days", async () => {
    const ctx = testContext();
    const board = await handlers.smartmoneyPnlLeaderboard({ chain: "solana", timeframe: "30d", limit: 50 }, ctx);
    const leader = board.data.traders[0];
    expect(board.data.traders.length).toBeGreaterThanOrEqual(30);
    const profile = await handlers.smartmoneyWalletIntel({ chain: "solana", address: leader?.address ?? "" }, ctx);
    expect(profile.data.labels).toEqual(leader?.labels);
    expect(profile.data.pnl_summary).toEqual({
      realized_pnl_usd: leader?.realized_pnl_usd,
      unrealized_pnl_usd: leader?.unrealized_pnl_usd,
      total_pnl_usd: leader?.total_pnl_usd,
      win_rate_pct: leader?.win_rate_pct,
      total_trades: leader?.total_trades,
    });
  });

  it("caches a chain and window for 10 minutes", async () => {
    const ctx = testContext();
    const counter = countCalls(ctx, "pnlLeaderboard");
    const ask = (limit: number) => handlers.smartmoneyPnlLeaderboard({ chain: "base", timeframe: "1d", limit }, ctx);
    await Promise.all([ask(3), ask(10)]);
    expect(counter.calls).toBe(1);
    ctx.clock.advance(10 * MINUTE);
    await ask(3);
    expect(counter.calls).toBe(2);
  });
});

describe("smartmoneyWalletIntel", () => {
  it("profiles a well-known smart-money whale", async () => {
    const out = expectValidOutcome(
      "smartmoneyWalletIntel",
      await handlers.smartmoneyWalletIntel({ chain: "ethereum", address: FAMOUS }, testContext()),
    );
    const { data } = out;
    expect(data.address).toBe(FAMOUS);
    expect(data.labels).toEqual(expect.arrayContaining(["Smart Money", "Whale"]));
    expect(data.archetype).toBe("smart_trader");
    expect(data.portfolio_value_usd).toBeGreaterThan(1e6);
    expect(data.active_since).toBe("2019-03-14");
    expect(data.pnl_summary.total_pnl_usd).toBeCloseTo(
      data.pnl_summary.realized_pnl_usd + data.pnl_summary.unrealized_pnl_usd,
      2,
    );
    expect(data.recent_smart_trades).toHaveLength(10);
    const times = data.recent_smart_trades.map((t) => t.timestamp);
    expect(times).toEqual([...times].sort().reverse());
    expect(out.brief).toContain(data.recent_smart_trades[0]?.token);
  });

  it("profiles an unknown address as a quiet, unlabeled casual wallet", async () => {
    const out = expectValidOutcome(
      "smartmoneyWalletIntel",
      await handlers.smartmoneyWalletIntel(
        { chain: "base", address: "0x000000000000000000000000000000000000dEaD" },
        testContext(),
      ),
    );
    expect(out.data.labels).toEqual([]);
    expect(out.data.archetype).toBe("casual");
    expect(out.baseline.signal).toBe("ignore");
    expect(out.brief).toMatch(/unlabeled/);
  });

  it("dates a wallet without any transaction from today", async () => {
    const ctx = testContext();
    ctx.upstream.wallet_labels.firstTransactionAt = async () => undefined;
    const out = await handlers.smartmoneyWalletIntel({ chain: "solana", address: JUP }, ctx);
    expect(out.data.active_since).toBe(new Date(TEST_NOW).toISOString().slice(0, 10));
  });

  it("refreshes trades after 2 minutes and labels after 30, sharing concurrent misses", async () => {
    const ctx = testContext();
    const labels = countCalls(ctx, "labels");
    const trades = countCalls(ctx, "trades");
    const ask = (address: string) => handlers.smartmoneyWalletIntel({ chain: "ethereum", address }, ctx);
    await Promise.all([ask(FAMOUS), ask(FAMOUS.toLowerCase())]);
    expect([labels.calls, trades.calls]).toEqual([1, 1]);
    ctx.clock.advance(2 * MINUTE);
    await ask(FAMOUS);
    expect([labels.calls, trades.calls]).toEqual([1, 2]);
    ctx.clock.advance(28 * MINUTE);
    await ask(FAMOUS);
    expect([labels.calls, trades.calls]).toEqual([2, 3]);
  });
});
