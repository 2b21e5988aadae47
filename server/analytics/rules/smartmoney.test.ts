import { describe, expect, it } from "vitest";
import {
  contractLabels,
  flowSignal,
  followWorthy,
  labeledArchetype,
  leaderboardSignal,
  screenerSignal,
  type WalletLabel,
  walletSignal,
} from "./smartmoney.js";

describe("contractLabels", () => {
  it("keeps the contract's labels once each, in display order, and drops the rest", () => {
    expect(contractLabels(["DEX Trader", "Top 100 on BONK", "Whale", "Smart Money", "Whale"])).toEqual([
      "Smart Money",
      "Whale",
      "DEX Trader",
    ]);
    expect(contractLabels([])).toEqual([]);
  });
});

describe("labeledArchetype", () => {
  const wallet = (labels: WalletLabel[], over: Partial<Parameters<typeof labeledArchetype>[0]> = {}) =>
    labeledArchetype({
      labels,
      win_rate_pct: 50,
      total_trades: 30,
      total_pnl_usd: 1000,
      portfolio_value_usd: 50_000,
      ...over,
    });

  it("ranks labels: fund, smart money, whale, DEX, NFT, early adopter", () => {
    expect(wallet(["Smart Money", "Whale", "Fund"])).toBe("fund");
    expect(wallet(["Smart Money", "Whale"])).toBe("smart_trader");
    expect(wallet(["Whale", "DEX Trader"])).toBe("whale");
    expect(wallet(["DEX Trader", "NFT Trader"])).toBe("dex_trader");
    expect(wallet(["NFT Trader", "Early Adopter"])).toBe("nft_trader");
    expect(wallet(["Early Adopter"])).toBe("early_adopter");
    expect(wallet([])).toBe("casual");
  });

  it("earns smart_trader by behaviour at 20 trades, a 60% win rate and a profit", () => {
    expect(wallet([], { total_trades: 20, win_rate_pct: 60 })).toBe("smart_trader");
    expect(wallet([], { total_trades: 19, win_rate_pct: 60 })).toBe("casual");
    expect(wallet([], { total_trades: 20, win_rate_pct: 59.9 })).toBe("casual");
    expect(wallet([], { total_trades: 20, win_rate_pct: 60, total_pnl_usd: 0 })).toBe("casual");
  });

  it("earns whale above USD 1M and dex_trader at 100 trades", () => {
    expect(wallet([], { portfolio_value_usd: 1_000_000.01 })).toBe("whale");
    expect(wallet([], { portfolio_value_usd: 1_000_000 })).toBe("casual");
    expect(wallet([], { total_trades: 100 })).toBe("dex_trader");
    expect(wallet([], { total_trades: 99 })).toBe("casual");
  });
});

describe("followWorthy and walletSignal", () => {
  const record = { win_rate_pct: 55, total_trades: 10, total_pnl_usd: 0.01 };

  it("follows at 10 trades, a 55% win rate and any profit, and not below", () => {
    expect(followWorthy(record)).toBe(true);
    expect(followWorthy({ ...record, total_trades: 9 })).toBe(false);
    expect(followWorthy({ ...record, win_rate_pct: 54.9 })).toBe(false);
    expect(followWorthy({ ...record, total_pnl_usd: 0 })).toBe(false);
    expect(walletSignal({ ...record, labels: [] }).signal).toBe("follow");
    expect(walletSignal({ ...record, total_trades: 9, labels: ["Smart Money"] }).signal).toBe("ignore");
  });

  it("is surer with a longer record and with a Smart Money label behind a follow", () => {
    const short = walletSignal({ ...record, labels: [] }).confidence;
    const long = walletSignal({ ...record, total_trades: 200, labels: [] }).confidence;
    const labeled = walletSignal({ ...record, total_trades: 200, labels: ["Smart Money"] }).confidence;
    expect(long).toBeGreaterThan(short);
    expect(labeled).toBeGreaterThan(long);
    expect(labeled).toBeLessThanOrEqual(1);
  });
});

describe("leaderboardSignal", () => {
  const good = { win_rate_pct: 70, total_trades: 50, total_pnl_usd: 1e5 };
  const bad = { win_rate_pct: 40, total_trades: 50, total_pnl_usd: 1e5 };

  it("follows when 3 of the top 5 are follow-worthy, and ignores at 2", () => {
    expect(leaderboardSignal([good, good, good, bad, bad]).signal).toBe("follow");
    expect(leaderboardSignal([good, good, bad, bad, bad, good, good]).signal).toBe("ignore");
    expect(leaderboardSignal([good, bad]).signal).toBe("ignore");
    expect(leaderboardSignal([]).signal).toBe("ignore");
  });

  it("is surer when the split is one-sided", () => {
    expect(leaderboardSignal([good, good, good, good, good]).confidence).toBeGreaterThan(
      leaderboardSignal([good, good, good, bad, bad]).confidence,
    );
  });
});

describe("flowSignal", () => {
  const bucket = (buy: number, sell: number) => ({
    net_flow_usd: buy - sell,
    buy_volume_usd: buy,
    sell_volume_usd: sell,
  });
  const none = bucket(0, 0);

  it("reads ±10% of gross volume as the edge of the dead band", () => {
    expect(flowSignal({ smart_traders: bucket(55, 45), whales: none, kols: none }).signal).toBe("accumulate");
    expect(flowSignal({ smart_traders: bucket(54.99, 45.01), whales: none, kols: none }).signal).toBe("ignore");
    expect(flowSignal({ smart_traders: bucket(45, 55), whales: none, kols: none }).signal).toBe("distribute");
    expect(flowSignal({ smart_traders: bucket(45.01, 54.99), whales: none, kols: none }).signal).toBe("ignore");
    expect(flowSignal({ smart_traders: none, whales: none, kols: none })).toEqual({
      signal: "ignore",
      confidence: 0.4,
    });
  });

  it("weighs smart traders above whales, and whales above KOLs", () => {
    expect(flowSignal({ smart_traders: bucket(150, 50), whales: bucket(50, 150), kols: none }).signal).toBe(
      "accumulate",
    );
    expect(flowSignal({ smart_traders: bucket(50, 150), whales: bucket(150, 50), kols: none }).signal).toBe(
      "distribute",
    );
    expect(flowSignal({ smart_traders: none, whales: bucket(150, 50), kols: bucket(50, 150) }).signal).toBe(
      "accumulate",
    );
  });

  it("is surer the further the flow leaves the band", () => {
    const mild = flowSignal({ smart_traders: bucket(60, 40), whales: none, kols: none }).confidence;
    const strong = flowSignal({ smart_traders: bucket(90, 10), whales: none, kols: none }).confidence;
    expect(strong).toBeGreaterThan(mild);
  });
});

describe("screenerSignal", () => {
  const flows = (...nets: number[]) => nets.map((smart_money_net_flow_7d_usd) => ({ smart_money_net_flow_7d_usd }));

  it("takes a direction when 60% of the listed tokens agree", () => {
    expect(screenerSignal(flows(1, 1, 1, -1, -1)).signal).toBe("accumulate");
    expect(screenerSignal(flows(1, 1, 0, -1, -1)).signal).toBe("ignore");
    expect(screenerSignal(flows(-1, -1, -1, 1, 0)).signal).toBe("distribute");
    expect(screenerSignal(flows(-1, -1, 1, 1)).signal).toBe("ignore");
    expect(screenerSignal([]).signal).toBe("ignore");
  });

  it("is surer with more tokens and a wider imbalance", () => {
    expect(screenerSignal(flows(1, 1, 1, 1, 1, 1, 1, 1, 1, 1)).confidence).toBeGreaterThan(
      screenerSignal(flows(1, 1, 1, -1, -1)).confidence,
    );
  });
});
