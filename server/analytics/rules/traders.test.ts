import { describe, expect, it } from "vitest";
import { walletTrades } from "../../../test/support/wallet-trades.js";
import { ledger } from "../markets/wallet-ledger.js";
import {
  archetype,
  candleSignal,
  copySignal,
  copyWorthiness,
  flowSignal,
  INACTIVE_BELOW_TRADES,
  specialty,
  type WalletStats,
  walletStats,
} from "./traders.js";

const H = 3_600_000;
const DAY = 24 * H;
const T0 = Date.UTC(2026, 10, 1);

const trade = walletTrades(T0);

describe("walletStats", () => {
  it("counts closed trades in the window, wins, consistency, launch buys and buys per position", () => {
    const launch = { venue: "pump", mint: "MEME", symbol: "MEME" };
    const trades = [
      trade("buy", -48, 10, 100),
      trade("buy", 0, 10, 100, launch),
      trade("sell", 2, 10, 180, launch),
      trade("buy", 1, 10, 100),
      trade("sell", 30, 20, 150),
    ];
    const stats = walletStats(
      { trades, closed: ledger(trades).closed },
      T0 - H,
      T0 + 2 * DAY,
      new Map([["MEME", T0 - 4 * 60_000]]),
    );
    expect(stats).toMatchObject({
      trades: 2,
      wins: 1,
      losses: 1,
      winRatePct: 50,
      bestUsd: 80,
      worstUsd: -50,
      consistency: 0.5,
    });
    expect(stats.realizedUsd).toBeCloseTo(30, 9);
    expect(stats.launchBuyShare).toBeCloseTo(1 / 2, 9);
    expect(stats.buysPerPosition).toBe(2);
    expect(stats.volumeUsd).toBe(530);
    expect(stats.maxDrawdownPct).toBeGreaterThan(0);
  });

  it("counts the launchpad buys of tokens not looked up at the rate of those that were", () => {
    const buys = ["A", "B", "C", "D"].map((mint, i) => trade("buy", i, 10, 100, { venue: "pump", mint, symbol: mint }));
    const lookedUp = new Map([
      ["A", T0 - 60_000],
      ["B", undefined],
    ]);
    const stats = walletStats({ trades: [...buys, trade("buy", 5, 10, 100)], closed: [] }, T0 - H, T0 + DAY, lookedUp);
    // one of the two looked up was at launch: half of the four launchpad buys, of five buys
    expect(stats.launchBuyShare).toBeCloseTo(2 / 5, 9);
  });
});

const stats = (over: Partial<WalletStats>): WalletStats => ({
  days: 30,
  trades: 40,
  wins: 24,
  losses: 16,
  winRatePct: 60,
  realizedUsd: 1000,
  bestUsd: 500,
  worstUsd: -200,
  avgHoldHours: 24,
  volumeUsd: 100_000,
  tradesPerDay: 1.3,
  lpShare: 0,
  avgExecutionUsd: 1250,
  launchBuyShare: 0,
  buysPerPosition: 1,
  riskAdjusted: 0.3,
  consistency: 0.6,
  maxDrawdownPct: 5,
  ...over,
});

describe("archetype", () => {
  it("is inactive below 5 trades", () => {
    expect(archetype(stats({ trades: INACTIVE_BELOW_TRADES - 1 }))).toBe("inactive");
    expect(archetype(stats({ trades: INACTIVE_BELOW_TRADES }))).toBe("swing_trader");
  });

  it("reads behaviour in order: liquidity, size, launch timing, frequency, gradual building", () => {
    expect(archetype(stats({ lpShare: 0.5 }))).toBe("lp_farmer");
    expect(archetype(stats({ lpShare: 0.49 }))).toBe("swing_trader");
    expect(archetype(stats({ avgExecutionUsd: 50_000 }))).toBe("whale");
    expect(archetype(stats({ avgExecutionUsd: 49_999 }))).toBe("swing_trader");
    expect(archetype(stats({ launchBuyShare: 0.5 }))).toBe("sniper");
    expect(archetype(stats({ tradesPerDay: 5, avgHoldHours: 11.9 }))).toBe("degen");
    expect(archetype(stats({ tradesPerDay: 5, avgHoldHours: 12 }))).toBe("swing_trader");
    expect(archetype(stats({ tradesPerDay: 4.9, avgHoldHours: 2 }))).toBe("swing_trader");
    expect(archetype(stats({ buysPerPosition: 2.5, avgHoldHours: 72 }))).toBe("accumulator");
    expect(archetype(stats({ buysPerPosition: 2.5, avgHoldHours: 71 }))).toBe("swing_trader");
  });
});

describe("copyWorthiness", () => {
  const perfect = { winRatePct: 80, riskAdjusted: 1, consistency: 1, tradesPerDay: 2, maxDrawdownPct: 0 };
  const nothing = { winRatePct: 40, riskAdjusted: 0, consistency: 0.4, tradesPerDay: 0, maxDrawdownPct: 25 };

  it("weighs win rate 30%, risk-adjusted return 25%, consistency 20%, frequency 15%, drawdown 10%", () => {
    expect(copyWorthiness(stats(perfect)).score).toBe(10);
    expect(copyWorthiness(stats(nothing)).score).toBe(0);
    expect(copyWorthiness(stats({ ...nothing, winRatePct: 80 })).score).toBe(3);
    expect(copyWorthiness(stats({ ...nothing, riskAdjusted: 1 })).score).toBe(2.5);
    expect(copyWorthiness(stats({ ...nothing, consistency: 1 })).score).toBe(2);
    expect(copyWorthiness(stats({ ...nothing, tradesPerDay: 2 })).score).toBe(1.5);
    expect(copyWorthiness(stats({ ...nothing, maxDrawdownPct: 0 })).score).toBe(1);
  });

  it("scores frequency 10 from 0.5 to 5 trades a day and less on either side", () => {
    const frequency = (tradesPerDay: number) => copyWorthiness(stats({ tradesPerDay })).components.frequency;
    expect(frequency(0.25)).toBe(5);
    expect([frequency(0.5), frequency(5)]).toEqual([10, 10]);
    expect(frequency(15)).toBe(5);
    expect(frequency(25)).toBe(0);
  });
});

describe("copySignal", () => {
  it("follows strictly above 7.0 and ignores below 4.0", () => {
    expect(copySignal(7.1).signal).toBe("follow");
    expect(copySignal(3.9)).toEqual({ signal: "ignore", confidence: 0.61 });
  });

  it("ignores the unproven 4.0 to 7.0 band, both ends included, with a low confidence", () => {
    expect(copySignal(7)).toEqual({ signal: "ignore", confidence: 0.4 });
    expect(copySignal(4)).toEqual({ signal: "ignore", confidence: 0.5 });
    expect(copySignal(5.5).confidence).toBeLessThan(copySignal(3.9).confidence);
  });
});

describe("specialty", () => {
  it("is the category with the most volume", () => {
    const launch = { venue: "pump", mint: "MEME", symbol: "MEME" };
    expect(specialty([trade("buy", 0, 1, 500, launch), trade("buy", 0, 1, 400)])).toBe("launchpad_tokens");
    expect(specialty([trade("buy", 0, 1, 900, { symbol: "JitoSOL" }), trade("buy", 0, 1, 400)])).toBe("liquid_staking");
    expect(specialty([trade("deposit", 0, 1, 900), trade("buy", 0, 1, 400, { symbol: "BONK" })])).toBe("lp_positions");
    expect(specialty([])).toBe("none");
  });
});

describe("flowSignal", () => {
  it("reads a net flow above the threshold share of holdings as a direction", () => {
    expect(flowSignal(101, 1000, 10).signal).toBe("accumulate");
    expect(flowSignal(100, 1000, 10).signal).toBe("ignore");
    expect(flowSignal(-100, 1000, 10).signal).toBe("ignore");
    expect(flowSignal(-101, 1000, 10).signal).toBe("distribute");
    expect(flowSignal(50, 0, 10).signal).toBe("ignore");
  });
});

describe("candleSignal", () => {
  const candles = (open: number, close: number, volumes: number[]) =>
    volumes.map((volume_usd, i) => ({ open: i === 0 ? open : close, close, volume_usd }));

  it("calls a 5% move on volume that held up", () => {
    expect(candleSignal(candles(100, 105, [10, 10])).signal).toBe("accumulate");
    expect(candleSignal(candles(100, 104.99, [10, 10])).signal).toBe("ignore");
    expect(candleSignal(candles(100, 95, [10, 12])).signal).toBe("distribute");
    expect(candleSignal(candles(100, 120, [12, 10])).signal).toBe("ignore");
    expect(candleSignal(candles(100, 120, [10])).signal).toBe("ignore");
  });
});
