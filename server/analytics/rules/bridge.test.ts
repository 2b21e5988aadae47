import { describe, expect, it } from "vitest";
import { annualGainUsd, breakEvenDays, migrateSignal, priceImpactPct, quoteSignal, routeCostUsd } from "./bridge.js";

describe("route costs", () => {
  it("reads price impact as the value lost beyond the deducted fees", () => {
    expect(priceImpactPct(1000, 990, 0)).toBeCloseTo(1, 10);
    expect(priceImpactPct(1000, 989.01, 1)).toBeCloseTo(1, 10);
    expect(priceImpactPct(1000, 1001, 0)).toBe(0);
    expect(priceImpactPct(1, 0, 2)).toBe(0);
  });

  it("adds fees, gas and the impact loss", () => {
    expect(routeCostUsd({ amountUsd: 1000, feesUsd: 2, gasUsd: 1, priceImpactPct: 0.5 })).toBeCloseTo(8, 10);
  });
});

describe("quoteSignal", () => {
  const quote = (costUsd: number, durationS = 60) => ({
    amountUsd: 1000,
    feesUsd: costUsd,
    gasUsd: 0,
    priceImpactPct: 0,
    durationS,
  });

  it("executes up to 1% all-in, waits above it, avoids above 3%", () => {
    expect(quoteSignal(quote(10)).signal).toBe("execute");
    expect(quoteSignal(quote(10.1)).signal).toBe("wait");
    expect(quoteSignal(quote(30)).signal).toBe("wait");
    expect(quoteSignal(quote(30.1)).signal).toBe("avoid");
    expect(quoteSignal({ ...quote(0), priceImpactPct: 3.01 }).signal).toBe("avoid");
  });

  it("waits on routes slower than 30 minutes", () => {
    expect(quoteSignal(quote(1, 1800)).signal).toBe("execute");
    expect(quoteSignal(quote(1, 1801)).signal).toBe("wait");
  });

  it("is surer of cheaper executions and avoids a quote with nothing to send", () => {
    expect(quoteSignal(quote(1)).confidence).toBeGreaterThan(quoteSignal(quote(9)).confidence);
    expect(quoteSignal({ ...quote(1), amountUsd: 0 }).signal).toBe("avoid");
  });
});

describe("migration economics", () => {
  it("computes the break-even and the first year's gain (the contract's example)", () => {
    expect(breakEvenDays(3.4, 20_000, 4.8)).toBeCloseTo(1.29, 2);
    expect(annualGainUsd(3.4, 20_000, 4.8)).toBeCloseTo(956.6, 8);
    expect(breakEvenDays(3.4, 20_000, 0)).toBeNull();
    expect(breakEvenDays(3.4, 20_000, -1)).toBeNull();
  });
});

describe("migrateSignal", () => {
  it("migrates on a 1-point gain that repays within 30 days", () => {
    expect(migrateSignal({ apyGainPct: 1, breakEvenDays: 30 }).signal).toBe("migrate");
    expect(migrateSignal({ apyGainPct: 0.99, breakEvenDays: 30 }).signal).toBe("wait");
    expect(migrateSignal({ apyGainPct: 1, breakEvenDays: 30.01 }).signal).toBe("wait");
  });

  it("stays without a gain, or when the bridge takes over a year to repay", () => {
    expect(migrateSignal({ apyGainPct: 0, breakEvenDays: null }).signal).toBe("stay");
    expect(migrateSignal({ apyGainPct: 2, breakEvenDays: 365 }).signal).toBe("wait");
    expect(migrateSignal({ apyGainPct: 2, breakEvenDays: 365.01 }).signal).toBe("stay");
  });

  it("is surer the faster the move repays", () => {
    expect(migrateSignal({ apyGainPct: 3, breakEvenDays: 1 }).confidence).toBeGreaterThan(
      migrateSignal({ apyGainPct: 3, breakEvenDays: 25 }).confidence,
    );
  });
});
