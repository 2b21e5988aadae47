import { describe, expect, it } from "vitest";
import { manualClock } from "../../clock.js";
import type { FlowWindow, LabeledChain } from "../wallet-labels.js";
import { createEmbeddedWalletLabels } from "./wallet-labels.js";

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);
const DAY = 86_400_000;
const CHAINS: LabeledChain[] = ["ethereum", "solana", "base", "arbitrum"];
const WINDOWS: FlowWindow[] = ["5m", "1h", "6h", "12h", "1d", "7d"];
const FORMAT: Record<LabeledChain, RegExp> = {
  solana: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/,
  ethereum: /^0x[0-9a-fA-F]{40}$/,
  base: /^0x[0-9a-fA-F]{40}$/,
  arbitrum: /^0x[0-9a-fA-F]{40}$/,
};
const JUP = { chain: "solana", tokenAddress: "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN" } as const;
const FAMOUS = "0x28C6c06298d514Db089934071355E5743bf21d60";

function setup(seed = "test-seed", now = NOW) {
  const clock = manualClock(now);
  return { clock, labels: createEmbeddedWalletLabels({ seed, clock }) };
}

describe("embedded wallet labels: tokens and flows", () => {
  it("lists each chain's well-known tokens at addresses that fit the chain", async () => {
    const rows = await setup().labels.tokenScreener(CHAINS, "7d");
    const symbols = (chain: LabeledChain) => rows.filter((r) => r.chain === chain).map((r) => r.tokenSymbol);
    expect(symbols("solana")).toEqual(["JUP", "BONK", "WIF", "JTO", "PYTH"]);
    expect(symbols("ethereum")).toEqual(["AAVE", "UNI", "LINK", "PEPE", "ENA"]);
    expect(symbols("base")).toEqual(["AERO", "BRETT", "DEGEN"]);
    expect(symbols("arbitrum")).toEqual(["ARB", "GMX", "PENDLE"]);
    for (const r of rows) expect(r.tokenAddress).toMatch(FORMAT[r.chain]);
    expect((await setup().labels.tokenScreener(["base"], "7d")).map((r) => r.chain)).toEqual(["base", "base", "base"]);
  });

  it("prices market caps from a fixed supply while prices drift by the day, and ages tokens with the clock", async () => {
    const { clock, labels } = setup();
    const today = await labels.tokenScreener(CHAINS, "7d");
    clock.advance(DAY);
    const tomorrow = await labels.tokenScreener(CHAINS, "7d");
    today.forEach((row, i) => {
      const next = tomorrow[i];
      expect(next?.marketCapUsd).toBeGreaterThan(0);
      expect((row.marketCapUsd / row.priceUsd) * (next?.priceUsd ?? 0)).toBeCloseTo(next?.marketCapUsd ?? 0, -2);
      expect(next?.tokenAgeDays).toBeCloseTo(row.tokenAgeDays + 1, 5);
    });
    expect(tomorrow.map((r) => r.priceUsd)).not.toEqual(today.map((r) => r.priceUsd));
  });

  it("keeps net = buys − sells and nests shorter windows inside longer ones", async () => {
    const { labels } = setup();
    for (const row of await labels.tokenScreener(CHAINS, "7d")) {
      const token = { chain: row.chain, tokenAddress: row.tokenAddress };
      let previous = { buyVolumeUsd: 0, sellVolumeUsd: 0, walletCount: 0 };
      for (const window of WINDOWS) {
        const flows = await labels.flowIntelligence(token, window);
        for (const bucket of [flows?.smartTrader, flows?.whale, flows?.publicFigure]) {
          expect(bucket?.netFlowUsd).toBeCloseTo((bucket?.buyVolumeUsd ?? 0) - (bucket?.sellVolumeUsd ?? 0), 2);
          expect(bucket?.buyVolumeUsd).toBeGreaterThanOrEqual(0);
          expect(bucket?.sellVolumeUsd).toBeGreaterThanOrEqual(0);
          expect(bucket?.walletCount === 0).toBe(bucket?.buyVolumeUsd === 0 && bucket?.sellVolumeUsd === 0);
        }
        const smart = flows?.smartTrader ?? previous;
        expect(smart.buyVolumeUsd).toBeGreaterThanOrEqual(previous.buyVolumeUsd);
        expect(smart.sellVolumeUsd).toBeGreaterThanOrEqual(previous.sellVolumeUsd);
        expect(smart.walletCount).toBeGreaterThanOrEqual(previous.walletCount);
        previous = smart;
      }
    }
  });

  it("gives the screener the same 7-day figures as flow intelligence", async () => {
    const { labels } = setup();
    for (const row of await labels.tokenScreener(CHAINS, "7d")) {
      const flows = await labels.flowIntelligence({ chain: row.chain, tokenAddress: row.tokenAddress }, "7d");
      expect(row.smartMoneyNetflowUsd).toBe(flows?.smartTrader.netFlowUsd);
      expect(row.smartMoneyTraders).toBe(flows?.smartTrader.walletCount);
      expect(row.whaleTraders).toBe(flows?.whale.walletCount);
    }
  });

  it("knows tokens by chain (EVM case-insensitively) and nothing else", async () => {
    const { labels } = setup();
    const aave = "0x7Fc66500c84A76Ad7e9c93437bFc5Ac33E2DDaE9";
    expect(await labels.flowIntelligence({ chain: "ethereum", tokenAddress: aave.toLowerCase() }, "1d")).toEqual(
      await labels.flowIntelligence({ chain: "ethereum", tokenAddress: aave }, "1d"),
    );
    expect(await labels.flowIntelligence({ chain: "base", tokenAddress: aave }, "1d")).toBeUndefined();
    expect(
      await labels.flowIntelligence({ chain: "solana", tokenAddress: JUP.tokenAddress.toLowerCase() }, "1d"),
    ).toBeUndefined();
  });

  it("moves with the clock and is reproducible from the seed", async () => {
    const { clock, labels } = setup();
    const now = await labels.flowIntelligence(JUP, "1h");
    expect(await setup().labels.flowIntelligence(JUP, "1h")).toEqual(now);
    expect(await setup("other-seed").labels.flowIntelligence(JUP, "1h")).not.toEqual(now);
    clock.advance(3_600_000);
    expect(await labels.flowIntelligence(JUP, "1h")).not.toEqual(now);
  });
});

describe("embedded wallet labels: wallets", () => {
  it("labels a population on every chain, with every label somewhere", async () => {
    const { labels } = setup();
    const seen = new Set<string>();
    for (const chain of CHAINS) {
      const rows = await labels.pnlLeaderboard(chain, "30d");
      expect(rows.length).toBeGreaterThanOrEqual(30);
      for (const row of rows) {
        expect(row.traderAddress).toMatch(FORMAT[chain]);
        expect(row.labels.length).toBeGreaterThan(0);
        for (const label of row.labels) seen.add(label);
      }
    }
    expect([...seen].sort()).toEqual(["DEX Trader", "Early Adopter", "Fund", "NFT Trader", "Smart Money", "Whale"]);
  });

  it("labels Whale exactly when the balances sum above USD 1M, valued at the token's price", async () => {
    const { labels } = setup();
    const prices = new Map((await labels.tokenScreener(CHAINS, "7d")).map((r) => [r.tokenAddress, r.priceUsd]));
    let whales = 0;
    for (const chain of CHAINS) {
      for (const row of await labels.pnlLeaderboard(chain, "30d")) {
        const wallet = { chain, address: row.traderAddress };
        const holdings = await labels.balances(wallet);
        const worth = holdings.reduce((sum, h) => sum + h.valueUsd, 0);
        // Amounts carry six significant digits.
        for (const h of holdings)
          expect(Math.abs(h.amount * (prices.get(h.tokenAddress) ?? 0) - h.valueUsd) / h.valueUsd).toBeLessThan(1e-5);
        const isWhale = (await labels.labels(wallet)).some((l) => l.label === "Whale");
        expect(isWhale).toBe(worth > 1e6);
        whales += isWhale ? 1 : 0;
      }
    }
    expect(whales).toBeGreaterThan(0);
  });

  it("sums PnL summaries from the trades in the window, and the leaderboard agrees", async () => {
    const { labels } = setup();
    const rows = await labels.pnlLeaderboard("base", "7d");
    for (const row of rows.slice(0, 10)) {
      const wallet = { chain: "base" as const, address: row.traderAddress };
      const trades = (await labels.trades(wallet, 100_000)).filter((t) => t.timestamp > NOW - 7 * DAY);
      const sum = (side: string) => trades.filter((t) => t.side === side).reduce((total, t) => total + t.pnlUsd, 0);
      const summary = await labels.pnlSummary(wallet, "7d");
      expect(summary.tradedTimes).toBe(trades.length);
      expect(summary.realizedPnlUsd).toBeCloseTo(sum("sell"), 2);
      expect(summary.unrealizedPnlUsd).toBeCloseTo(sum("buy"), 2);
      expect(summary.winRate).toBeCloseTo(
        trades.length ? trades.filter((t) => t.pnlUsd > 0).length / trades.length : 0,
        10,
      );
      expect(row).toEqual({ traderAddress: row.traderAddress, labels: row.labels, ...summary });
      const day = await labels.pnlSummary(wallet, "1d");
      const month = await labels.pnlSummary(wallet, "30d");
      expect(day.tradedTimes).toBeLessThanOrEqual(summary.tradedTimes);
      expect(summary.tradedTimes).toBeLessThanOrEqual(month.tradedTimes);
    }
  });

  it("returns the latest trades newest first, none in the future nor before the first transaction", async () => {
    const { labels } = setup();
    const wallet = { chain: "ethereum" as const, address: FAMOUS };
    const trades = await labels.trades(wallet, 10);
    const first = (await labels.firstTransactionAt(wallet)) ?? Number.POSITIVE_INFINITY;
    expect(trades).toHaveLength(10);
    expect(trades.map((t) => t.timestamp)).toEqual(trades.map((t) => t.timestamp).sort((a, b) => b - a));
    expect(trades.every((t) => t.timestamp <= NOW && t.timestamp >= first && t.valueUsd > 0)).toBe(true);
  });

  it("knows the well-known wallets whatever the EVM address case", async () => {
    const { labels } = setup();
    const checksummed = { chain: "ethereum" as const, address: FAMOUS };
    const lower = { chain: "ethereum" as const, address: FAMOUS.toLowerCase() };
    expect((await labels.labels(checksummed)).map((l) => l.label)).toEqual(
      expect.arrayContaining(["Smart Money", "Whale"]),
    );
    expect(await labels.labels(lower)).toEqual(await labels.labels(checksummed));
    expect(await labels.pnlSummary(lower, "30d")).toEqual(await labels.pnlSummary(checksummed, "30d"));
    expect(await labels.firstTransactionAt(checksummed)).toBe(Date.UTC(2019, 2, 14));
  });

  it("treats any other address as a quiet, unlabeled wallet", async () => {
    const { labels } = setup();
    for (const wallet of [
      { chain: "solana", address: "So11111111111111111111111111111111111111112" },
      { chain: "arbitrum", address: "0x0000000000000000000000000000000000000001" },
    ] as const) {
      expect(await labels.labels(wallet)).toEqual([]);
      const worth = (await labels.balances(wallet)).reduce((sum, h) => sum + h.valueUsd, 0);
      expect(worth).toBeGreaterThan(0);
      expect(worth).toBeLessThan(10_000);
      expect((await labels.pnlSummary(wallet, "30d")).tradedTimes).toBeLessThan(10);
      expect(await labels.firstTransactionAt(wallet)).toBeLessThan(NOW);
    }
  });

  it("moves balances with the UTC day and trades with the hour, reproducibly", async () => {
    const { clock, labels } = setup();
    const wallet = { chain: "solana" as const, address: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM" };
    const balances = await labels.balances(wallet);
    const summary = await labels.pnlSummary(wallet, "1d");
    expect(await setup().labels.balances(wallet)).toEqual(balances);
    expect(await setup("other-seed").labels.pnlSummary(wallet, "1d")).not.toEqual(summary);
    clock.advance(6 * 3_600_000);
    expect(await labels.balances(wallet)).toEqual(balances);
    expect(await labels.pnlSummary(wallet, "1d")).not.toEqual(summary);
    clock.advance(DAY);
    expect(await labels.balances(wallet)).not.toEqual(balances);
  });
});
