import { describe, expect, it } from "vitest";
import { walletTrades } from "../../../test/support/wallet-trades.js";
import { ledger } from "./wallet-ledger.js";

const H = 3_600_000;
const T0 = Date.UTC(2026, 10, 1);

const trade = walletTrades(T0);

describe("ledger", () => {
  it("matches exits first-in first-out and keeps what is left open", () => {
    const { closed, open } = ledger([
      trade("sell", 30, 150, 450),
      trade("buy", 0, 100, 100),
      trade("buy", 10, 100, 200),
    ]);
    expect(closed).toHaveLength(1);
    expect(closed[0]?.costUsd).toBeCloseTo(200, 9);
    expect(closed[0]?.pnlUsd).toBeCloseTo(250, 9);
    expect(closed[0]?.returnPct).toBeCloseTo(125, 9);
    expect(closed[0]?.holdHours).toBeCloseTo((100 * 30 + 50 * 20) / 150, 9);
    expect(open.get("JUP")).toEqual([{ time: T0 + 10 * H, amount: 50, costUsd: 100 }]);
  });

  it("leaves out the part of an exit that has no entry before it", () => {
    expect(ledger([trade("sell", 1, 10, 50)]).closed).toEqual([]);
    const partial = ledger([trade("buy", 0, 10, 10), trade("sell", 1, 20, 40)]).closed[0];
    expect(partial?.pnlUsd).toBeCloseTo(10, 9);
  });

  it("treats liquidity deposits and withdrawals as entries and exits of the LP token", () => {
    const lp = { mint: "LP", symbol: "SOL-USDC LP", venue: "meteora" };
    const { closed } = ledger([trade("deposit", 0, 1000, 1000, lp), trade("withdraw", 48, 1000, 1012, lp)]);
    expect(closed[0]).toMatchObject({ mint: "LP", holdHours: 48 });
    expect(closed[0]?.pnlUsd).toBeCloseTo(12, 9);
  });
});
