import { describe, expect, it } from "vitest";
import { binPrice } from "../markets/dlmm.js";
import {
  binRange,
  entrySignal,
  expectedAprBand,
  poolListSignal,
  poolScore,
  poolSignal,
  positionSignal,
  rangeDistancePct,
  rangePctFor,
  rebalanceProposal,
  recommendedDistribution,
  SCORE_WEIGHTS,
  strategyOption,
  walletSignal,
  weeklyFeesUsd,
} from "./lp.js";

/** SOL (9 decimals) against USDC (6 decimals), bin step 4. */
const solUsdc = { binStep: 4, tokenX: { decimals: 9 }, tokenY: { decimals: 6 } };

describe("bin ranges", () => {
  it("counts a range in bins and aligns its edges to bins; one-sided ranges end at the price", () => {
    const price = binPrice(solUsdc, -4731);
    const both = binRange(solUsdc, price, 10, "both");
    expect(both.binCount).toBe(both.upperBin - both.lowerBin + 1);
    expect(both.lowerPrice).toBe(binPrice(solUsdc, both.lowerBin));
    expect(both.lowerPrice).toBeCloseTo(price * 0.9, 1);
    expect(both.upperPrice).toBeCloseTo(price * 1.1, 1);
    expect(binRange(solUsdc, price, 10, "below").upperBin).toBe(-4731);
    expect(binRange(solUsdc, price, 10, "above").lowerBin).toBe(-4731);
    const widest = binRange(solUsdc, price, 100, "both");
    expect(widest.lowerPrice).toBeGreaterThan(0);
    expect(Number.isFinite(widest.lowerBin)).toBe(true);
  });
});

const metrics = (over: Partial<Parameters<typeof poolSignal>[0]> = {}) => ({
  tvl_usd: 1e6,
  volume_24h_usd: 1e6,
  volume_7d_usd: 7e6,
  apr_24h_pct: 30,
  apr_7d_pct: 30,
  ...over,
});

describe("poolListSignal", () => {
  const pool = (apr_pct: number, tvl_usd = 1e6) => ({ apr_pct, tvl_usd });

  it("adds liquidity when one of the first five pools pays 20% on $500k", () => {
    expect(poolListSignal([pool(20, 500_000)]).signal).toBe("add_liquidity");
    expect(poolListSignal([pool(19.99)]).signal).toBe("hold");
    expect(poolListSignal([pool(80, 499_999)]).signal).toBe("hold");
    expect(poolListSignal([pool(1), pool(1), pool(1), pool(1), pool(1), pool(90)]).signal).toBe("hold");
    expect(poolListSignal([])).toEqual({ signal: "hold", confidence: 0.5 });
  });

  it("is more confident the more good pools it lists", () => {
    expect(poolListSignal([pool(30), pool(30)]).confidence).toBeGreaterThan(poolListSignal([pool(30)]).confidence);
  });
});

describe("poolSignal", () => {
  it("removes below 5% over 7 days, not at 5%", () => {
    expect(poolSignal(metrics({ apr_7d_pct: 4.99, apr_24h_pct: 4.99 })).signal).toBe("remove");
    expect(poolSignal(metrics({ apr_7d_pct: 5, apr_24h_pct: 5 })).signal).toBe("hold");
  });

  it("removes when the last day's volume fell under 30% of the 7-day daily average", () => {
    expect(poolSignal(metrics({ volume_24h_usd: 0.3e6 })).signal).toBe("add_liquidity");
    expect(poolSignal(metrics({ volume_24h_usd: 0.2999e6 })).signal).toBe("remove");
  });

  it("adds at 20% APR and $500k when the 24 h APR stays within half to twice the 7-day one", () => {
    expect(poolSignal(metrics({ apr_7d_pct: 20, apr_24h_pct: 20, tvl_usd: 500_000 })).signal).toBe("add_liquidity");
    expect(poolSignal(metrics({ apr_7d_pct: 19.99, apr_24h_pct: 19.99 })).signal).toBe("hold");
    expect(poolSignal(metrics({ tvl_usd: 499_999 })).signal).toBe("hold");
    expect(poolSignal(metrics({ apr_24h_pct: 15 })).signal).toBe("add_liquidity");
    expect(poolSignal(metrics({ apr_24h_pct: 14.9 })).signal).toBe("hold");
    expect(poolSignal(metrics({ apr_24h_pct: 60 })).signal).toBe("add_liquidity");
    expect(poolSignal(metrics({ apr_24h_pct: 60.1 })).signal).toBe("hold");
  });

  it("trusts steady fee income more", () => {
    expect(poolSignal(metrics()).confidence).toBeGreaterThan(poolSignal(metrics({ apr_24h_pct: 50 })).confidence);
  });

  it("never tells someone who holds nothing to remove (entry view)", () => {
    expect(entrySignal(metrics({ apr_7d_pct: 1, apr_24h_pct: 1 })).signal).toBe("hold");
    expect(entrySignal(metrics()).signal).toBe("add_liquidity");
  });
});

describe("poolScore", () => {
  const steady = { ...metrics(), daily_volumes: [1e6, 1.05e6, 0.95e6, 1e6, 1e6, 0.98e6, 1.02e6] };
  const spiky = { ...steady, daily_volumes: [0.2e6, 3e6, 0.1e6, 2.5e6, 0.3e6, 0.4e6, 0.5e6] };

  it("weights each appetite to 1", () => {
    for (const w of Object.values(SCORE_WEIGHTS)) expect(w.volume + w.fees + w.depth + w.stability).toBeCloseTo(1, 10);
  });

  it("prefers steady volume, more fees and deeper TVL", () => {
    expect(poolScore(steady, "mid")).toBeGreaterThan(poolScore(spiky, "mid"));
    expect(poolScore({ ...steady, apr_7d_pct: 60, apr_24h_pct: 60 }, "mid")).toBeGreaterThan(poolScore(steady, "mid"));
    expect(poolScore({ ...steady, tvl_usd: 5e6 }, "mid")).toBeGreaterThan(poolScore(steady, "mid"));
    expect(poolScore({ ...steady, daily_volumes: [0, 0] }, "mid")).toBeLessThan(poolScore(steady, "mid"));
  });

  it("lets risk appetite trade APR stability for fee generation", () => {
    const stable = { ...steady, apr_24h_pct: 25, apr_7d_pct: 25 };
    const hot = { ...steady, apr_24h_pct: 180, apr_7d_pct: 90 };
    expect(poolScore(stable, "low")).toBeGreaterThan(poolScore(hot, "low"));
    expect(poolScore(hot, "high")).toBeGreaterThan(poolScore(stable, "high"));
  });
});

describe("strategies", () => {
  const input = {
    grid: solUsdc,
    price: binPrice(solUsdc, -4731),
    apr_24h_pct: 75,
    apr_7d_pct: 70,
    pairIl: "medium" as const,
  };

  it("recommends bidask to the cautious, spot to the middle, curve to the eager", () => {
    expect(["low", "mid", "high"].map((r) => recommendedDistribution(r as "low"))).toEqual(["bidask", "spot", "curve"]);
  });

  it("sizes ranges by shape, appetite and how much the pair moves", () => {
    expect(rangePctFor("spot", "mid", "medium")).toBe(10);
    expect(rangePctFor("curve", "mid", "medium")).toBe(4);
    expect(rangePctFor("bidask", "mid", "medium")).toBe(15);
    expect(rangePctFor("spot", "low", "medium")).toBe(15);
    expect(rangePctFor("spot", "high", "medium")).toBe(6);
    expect(rangePctFor("spot", "mid", "none")).toBe(0.5);
    expect(rangePctFor("bidask", "low", "high")).toBe(45);
  });

  it("shifts risk and IL one step up for curve and one step down for bidask", () => {
    const [spot, curve, bidask] = (["spot", "curve", "bidask"] as const).map((d) => strategyOption(input, d, "mid"));
    expect([spot?.risk_level, curve?.risk_level, bidask?.risk_level]).toEqual(["mid", "high", "low"]);
    expect([spot?.il_risk, curve?.il_risk, bidask?.il_risk]).toEqual(["medium", "high", "low"]);
    expect(strategyOption(input, "curve", "high").risk_level).toBe("high");
    expect(strategyOption({ ...input, pairIl: "none" }, "bidask", "low").il_risk).toBe("none");
  });

  it("straddles the price for spot and curve, and walls it from below for bidask", () => {
    const spot = strategyOption(input, "spot", "mid");
    const bidask = strategyOption(input, "bidask", "mid");
    expect(spot.lower_price).toBeLessThan(input.price);
    expect(spot.upper_price).toBeGreaterThan(input.price);
    expect(spot.token_x_pct).toBe(50);
    expect(bidask.upper_price).toBe(input.price);
    expect(bidask.token_x_pct).toBe(0);
  });

  it("expects more from concentration and from curve, and spans the 24 h and 7-day APRs", () => {
    const band = expectedAprBand(input, "spot", 10, "medium");
    expect(band).toEqual({ low: 56, high: 82.5 });
    expect(expectedAprBand(input, "spot", 5, "medium").low).toBeGreaterThan(band.low);
    expect(expectedAprBand(input, "curve", 10, "medium").low).toBeGreaterThan(band.low);
    expect(expectedAprBand(input, "bidask", 10, "medium").high).toBeLessThan(band.high);
  });
});

describe("positions", () => {
  const range = { lowerBinId: -4760, upperBinId: -4700 };

  it("measures the distance from the price to the nearer edge", () => {
    expect(rangeDistancePct(solUsdc, range, -4731)).toBe(0);
    expect(rangeDistancePct(solUsdc, range, -4680)).toBeCloseTo((1 - 1.0004 ** -20) * 100, 8);
    expect(rangeDistancePct(solUsdc, range, -4780)).toBeCloseTo((1.0004 ** 20 - 1) * 100, 8);
  });

  const base = {
    grid: solUsdc,
    price: binPrice(solUsdc, -4731),
    apr_24h_pct: 75,
    apr_7d_pct: 70,
    pairIl: "medium" as const,
    baseFeePct: 0.04,
    valueUsd: 10_000,
  };

  it("prices a rebalance by the value swapped to the new mix", () => {
    expect(rebalanceProposal({ ...base, xShare: 0.5 }, "spot", 10).estimated_cost_usd).toBe(0.03);
    expect(rebalanceProposal({ ...base, xShare: 1 }, "spot", 10).estimated_cost_usd).toBe(0.03 + 7);
    expect(rebalanceProposal({ ...base, xShare: 0 }, "bidask", 10).estimated_cost_usd).toBe(0.03);
  });

  it("puts a bid-ask wall on the side the position's tokens serve", () => {
    const sell = rebalanceProposal({ ...base, xShare: 0.51 }, "bidask", 10);
    const buy = rebalanceProposal({ ...base, xShare: 0.5 }, "bidask", 10);
    expect(sell.new_lower_bin_id).toBe(-4731);
    expect(buy.new_upper_bin_id).toBe(-4731);
  });

  it("advises on one position at 5% APR and 2% distance, weighing a week of fees against the cost", () => {
    const p = { distancePct: 3, poolApr7dPct: 30, rebalanceCostUsd: 5, newRangeWeeklyFeesUsd: 5 };
    expect(positionSignal(p).signal).toBe("rebalance");
    expect(positionSignal({ ...p, newRangeWeeklyFeesUsd: 4.99 }).signal).toBe("hold");
    expect(positionSignal({ ...p, distancePct: 2 }).signal).toBe("hold");
    expect(positionSignal({ ...p, distancePct: 2.01 }).signal).toBe("rebalance");
    expect(positionSignal({ ...p, poolApr7dPct: 4.99 }).signal).toBe("remove");
    expect(positionSignal({ ...p, poolApr7dPct: 5 }).signal).toBe("rebalance");
    expect(positionSignal({ ...p, distancePct: 0 })).toEqual({ signal: "hold", confidence: 0.8 });
  });

  it("counts a week of fees at an APR", () => {
    expect(weeklyFeesUsd(36_500, 100)).toBeCloseTo(700, 10);
  });
});

describe("walletSignal", () => {
  const pos = (
    valueUsd: number,
    signal: "rebalance" | "hold" | "remove",
    inRange = signal === "hold",
    poolApr7dPct = 30,
  ) => ({
    valueUsd,
    inRange,
    poolApr7dPct,
    signal,
  });

  it("removes when half the value sits in positions to remove", () => {
    expect(walletSignal([pos(50, "remove"), pos(50, "hold")]).signal).toBe("remove");
    expect(walletSignal([pos(49, "remove"), pos(51, "hold")]).signal).toBe("hold");
  });

  it("rebalances when a quarter of the value sits in positions to rebalance", () => {
    expect(walletSignal([pos(25, "rebalance"), pos(75, "hold")]).signal).toBe("rebalance");
    expect(walletSignal([pos(24, "rebalance"), pos(76, "hold")]).signal).toBe("hold");
  });

  it("adds when every position is in range in pools paying 20% (value-weighted)", () => {
    expect(walletSignal([pos(50, "hold", true, 10), pos(50, "hold", true, 30)]).signal).toBe("add_liquidity");
    expect(walletSignal([pos(50, "hold", true, 10), pos(50, "hold", true, 29.98)]).signal).toBe("hold");
    expect(walletSignal([pos(90, "hold"), pos(10, "hold", false)]).signal).toBe("hold");
    expect(walletSignal([])).toEqual({ signal: "hold", confidence: 0.5 });
  });
});
