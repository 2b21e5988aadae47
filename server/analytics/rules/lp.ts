/**
 * LP rules: the pool and position signals, pool recommendation scoring, strategy planning for the
 * three distributions, and rebalance proposals, over the DLMM arithmetic of markets/. Pure
 * functions; thresholds are documented where they are defined.
 */
import { type BinBounds, type BinGrid, binIdAt, binPrice, inRange } from "../markets/dlmm.js";
import { confidence } from "./confidence.js";
import { type IlRisk, ilRiskLevel } from "./defi.js";

export type Distribution = "spot" | "curve" | "bidask";
export type RiskLevel = "low" | "mid" | "high";
type Baseline<S extends string> = { signal: S; confidence: number };

/** A pool worth entering earns at least 20 % APR on at least $500k of TVL (thinner books slip and die). */
export const ENTRY_MIN_APR_PCT = 20;
export const ENTRY_MIN_TVL_USD = 500_000;
/** Below 5 % APR over 7 days the fees no longer pay for the price risk: leave. */
export const EXIT_MAX_APR_PCT = 5;
/** A day under 30 % of the 7-day daily average means the volume has collapsed: leave. */
export const VOLUME_COLLAPSE_RATIO = 0.3;
/** Fee income is steady when the 24 h APR is within half to twice the 7-day APR. */
export const STABLE_APR_RATIO = { min: 0.5, max: 2 };

/** The pool metrics of a pool detail (contract field names). */
export interface PoolMetrics {
  tvl_usd: number;
  volume_24h_usd: number;
  volume_7d_usd: number;
  apr_24h_pct: number;
  apr_7d_pct: number;
}

/**
 * Baseline of a pool list, judged on its first 5 pools: `add_liquidity` when one of them is worth
 * entering (`ENTRY_MIN_APR_PCT`, `ENTRY_MIN_TVL_USD`), else `hold`; confidence grows with their number.
 */
export function poolListSignal(
  pools: readonly { apr_pct: number; tvl_usd: number }[],
): Baseline<"add_liquidity" | "hold"> {
  const good = pools.slice(0, 5).filter((p) => p.apr_pct >= ENTRY_MIN_APR_PCT && p.tvl_usd >= ENTRY_MIN_TVL_USD).length;
  if (good === 0) return { signal: "hold", confidence: pools.length ? 0.6 : 0.5 };
  return { signal: "add_liquidity", confidence: confidence(0.55 + 0.07 * good) };
}

/**
 * Baseline of one pool: `remove` when the 7-day APR is under `EXIT_MAX_APR_PCT` or the last day's
 * volume collapsed (`VOLUME_COLLAPSE_RATIO`); `add_liquidity` when the 7-day APR and the TVL make it
 * worth entering and the 24 h APR is steady against it (`STABLE_APR_RATIO`); else `hold`. Confidence
 * follows how close the 24 h and 7-day APRs are.
 */
export function poolSignal(pool: PoolMetrics): Baseline<"add_liquidity" | "hold" | "remove"> {
  const ratio = pool.apr_7d_pct > 0 ? pool.apr_24h_pct / pool.apr_7d_pct : 0;
  const steadiness = ratio > 0 ? Math.min(ratio, 1 / ratio) : 0;
  const conf = confidence(0.55 + 0.3 * steadiness);
  const collapsed = pool.volume_7d_usd > 0 && pool.volume_24h_usd < (VOLUME_COLLAPSE_RATIO * pool.volume_7d_usd) / 7;
  if (pool.apr_7d_pct < EXIT_MAX_APR_PCT || collapsed) return { signal: "remove", confidence: 0.75 };
  const steady = ratio >= STABLE_APR_RATIO.min && ratio <= STABLE_APR_RATIO.max;
  if (pool.apr_7d_pct >= ENTRY_MIN_APR_PCT && pool.tvl_usd >= ENTRY_MIN_TVL_USD && steady)
    return { signal: "add_liquidity", confidence: conf };
  return { signal: "hold", confidence: conf };
}

/** The entry view of `poolSignal` (recommendation, strategy): a pool to leave is simply not entered. */
export function entrySignal(pool: PoolMetrics): Baseline<"add_liquidity" | "hold"> {
  const { signal, confidence: conf } = poolSignal(pool);
  return { signal: signal === "add_liquidity" ? signal : "hold", confidence: conf };
}

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

/** Recommendation weights; risk appetite moves weight between APR stability and fee generation. */
export const SCORE_WEIGHTS: Record<RiskLevel, { volume: number; fees: number; depth: number; stability: number }> = {
  low: { volume: 0.25, fees: 0.15, depth: 0.25, stability: 0.35 },
  mid: { volume: 0.25, fees: 0.25, depth: 0.25, stability: 0.25 },
  high: { volume: 0.25, fees: 0.35, depth: 0.25, stability: 0.15 },
};

/**
 * A pool's recommendation score, 0 to 1, from four parts each 0 to 1: volume pattern (1 minus the
 * coefficient of variation of its daily volumes: steady beats spiky), fee generation (7-day APR,
 * full at 100 %), TVL depth (log scale, 0 at $100k, full at $10M) and APR stability (24 h against 7 d).
 */
export function poolScore(pool: PoolMetrics & { daily_volumes: readonly number[] }, risk: RiskLevel): number {
  const vols = pool.daily_volumes;
  const mean = vols.reduce((a, b) => a + b, 0) / (vols.length || 1);
  const sd = Math.sqrt(vols.reduce((a, v) => a + (v - mean) ** 2, 0) / (vols.length || 1));
  const high = Math.max(pool.apr_24h_pct, pool.apr_7d_pct);
  const parts = {
    volume: mean > 0 ? clamp01(1 - sd / mean) : 0,
    fees: clamp01(pool.apr_7d_pct / 100),
    depth: pool.tvl_usd > 0 ? clamp01((Math.log10(pool.tvl_usd) - 5) / 2) : 0,
    stability: high > 0 ? clamp01(1 - Math.abs(pool.apr_24h_pct - pool.apr_7d_pct) / high) : 0,
  };
  const w = SCORE_WEIGHTS[risk];
  return parts.volume * w.volume + parts.fees * w.fees + parts.depth * w.depth + parts.stability * w.stability;
}

/** Range width, percent around the price, for a spot range at mid risk on a volatile-vs-stable pair. */
const BASE_RANGE_PCT: Record<Distribution, number> = { spot: 10, curve: 4, bidask: 15 };
/** Cautious LPs widen their range (fewer exits), eager ones tighten it (more fees per dollar). */
const RISK_RANGE_FACTOR: Record<RiskLevel, number> = { low: 1.5, mid: 1, high: 0.6 };
/** Pairs that barely move need narrow ranges; two volatile sides need wide ones. */
const PAIR_RANGE_FACTOR: Record<IlRisk, number> = { none: 0.05, low: 0.2, medium: 1, high: 2 };
/** Fee capture of each shape against a spot range of the same width. */
const DISTRIBUTION_YIELD: Record<Distribution, number> = { spot: 1, curve: 1.5, bidask: 0.6 };
/** Curve concentrates (one step riskier), bid-ask waits for the price (one step safer). */
const DISTRIBUTION_SHIFT: Record<Distribution, number> = { spot: 0, curve: 1, bidask: -1 };
/** The lowest lower bound a range may have, as a share of the price (a 100 % range would reach 0). */
const MIN_LOWER_FACTOR = 0.01;

const RISKS: RiskLevel[] = ["low", "mid", "high"];
const IL_RISKS: IlRisk[] = ["none", "low", "medium", "high"];
const shift = <T>(scale: readonly T[], value: T, by: number): T =>
  scale[Math.min(scale.length - 1, Math.max(0, scale.indexOf(value) + by))] as T;

/** IL class of a pair, as the DeFi rules grade it. */
export function pairIlRisk(symbolX: string, symbolY: string): IlRisk {
  return ilRiskLevel({ symbol: `${symbolX}-${symbolY}`, exposure: "multi", stablecoin: false });
}

/** The option each risk appetite gets: low → bidask, mid → spot, high → curve. */
export function recommendedDistribution(risk: RiskLevel): Distribution {
  return risk === "low" ? "bidask" : risk === "high" ? "curve" : "spot";
}

/** Range width for a shape, an appetite and a pair, percent around the price (at most 45: a wide bid-ask on two volatile sides). */
export function rangePctFor(distribution: Distribution, risk: RiskLevel, pairIl: IlRisk): number {
  return Math.round(BASE_RANGE_PCT[distribution] * RISK_RANGE_FACTOR[risk] * PAIR_RANGE_FACTOR[pairIl] * 100) / 100;
}

/** Which side of the price a range covers: `both` (spot, curve) or one side (a bid-ask wall). */
export type RangeSide = "both" | "below" | "above";

/** A range of bins around `price`, with the bin-aligned prices of its edges. */
export function binRange(grid: BinGrid, price: number, rangePct: number, side: RangeSide) {
  const lower = side === "above" ? price : price * Math.max(1 - rangePct / 100, MIN_LOWER_FACTOR);
  const upper = side === "below" ? price : price * (1 + rangePct / 100);
  const lowerBin = binIdAt(grid, lower);
  const upperBin = binIdAt(grid, upper);
  return {
    lowerBin,
    upperBin,
    lowerPrice: binPrice(grid, lowerBin),
    upperPrice: binPrice(grid, upperBin),
    binCount: upperBin - lowerBin + 1,
  };
}

/**
 * Expected APR band of a range: the pool's APRs scaled by the shape's fee capture and by
 * concentration (the square root of the pair's reference spot width over this width); the band runs
 * from 80 % of the lower of the 24 h and 7-day APRs to 110 % of the higher.
 */
export function expectedAprBand(
  pool: { apr_24h_pct: number; apr_7d_pct: number },
  distribution: Distribution,
  rangePct: number,
  pairIl: IlRisk,
): { low: number; high: number } {
  const reference = BASE_RANGE_PCT.spot * PAIR_RANGE_FACTOR[pairIl];
  const factor = DISTRIBUTION_YIELD[distribution] * Math.sqrt(reference / Math.max(rangePct, 0.01));
  const r2 = (v: number) => Math.round(v * 100) / 100;
  return {
    low: r2(Math.min(pool.apr_24h_pct, pool.apr_7d_pct) * factor * 0.8),
    high: r2(Math.max(pool.apr_24h_pct, pool.apr_7d_pct) * factor * 1.1),
  };
}

export interface StrategyInput {
  grid: BinGrid;
  price: number;
  apr_24h_pct: number;
  apr_7d_pct: number;
  pairIl: IlRisk;
}

/**
 * One way to provide liquidity for an appetite. Spot and curve straddle the price with half the
 * capital in X; bid-ask is a buy wall below the price, all in Y. The option's risk level is the
 * appetite shifted by the shape, and so is its IL risk from the pair's class.
 */
export function strategyOption(input: StrategyInput, distribution: Distribution, risk: RiskLevel) {
  const rangePct = rangePctFor(distribution, risk, input.pairIl);
  const range = binRange(input.grid, input.price, rangePct, distribution === "bidask" ? "below" : "both");
  const band = expectedAprBand(input, distribution, rangePct, input.pairIl);
  return {
    distribution,
    range_pct: rangePct,
    lower_price: range.lowerPrice,
    upper_price: range.upperPrice,
    bin_count: range.binCount,
    expected_apr_low: band.low,
    expected_apr_high: band.high,
    il_risk: shift(IL_RISKS, input.pairIl, DISTRIBUTION_SHIFT[distribution]),
    risk_level: shift(RISKS, risk, DISTRIBUTION_SHIFT[distribution]),
    token_x_pct: distribution === "bidask" ? 0 : 50,
  };
}

/** Distance from the price at the active bin to the nearest edge of a range, percent; 0 in range. */
export function rangeDistancePct(grid: BinGrid, range: BinBounds, activeBinId: number): number {
  if (inRange(range, activeBinId)) return 0;
  const price = binPrice(grid, activeBinId);
  const edge = binPrice(grid, activeBinId < range.lowerBinId ? range.lowerBinId : range.upperBinId);
  return (Math.abs(edge - price) / price) * 100;
}

/** Three Solana transactions (withdraw, swap, deposit) with priority fees, USD. */
const REBALANCE_TX_USD = 0.03;
/** Slippage on the rebalancing swap, percent, on top of the pool fee. */
const REBALANCE_SLIPPAGE_PCT = 0.1;

export interface RebalanceInput extends StrategyInput {
  baseFeePct: number;
  valueUsd: number;
  /** Share of the position's value held in X now, 0 to 1. */
  xShare: number;
}

/**
 * A fresh range around the current price. A bid-ask wall goes on the side the position's tokens
 * already serve (mostly X: a sell wall above; mostly Y: a buy wall below), so little is swapped.
 * Cost: the transactions plus the pool fee and slippage on the value swapped to reach the new mix.
 */
export function rebalanceProposal(input: RebalanceInput, distribution: Distribution, rangePct: number) {
  const side: RangeSide = distribution !== "bidask" ? "both" : input.xShare > 0.5 ? "above" : "below";
  const targetX = side === "both" ? 0.5 : side === "above" ? 1 : 0;
  const range = binRange(input.grid, input.price, rangePct, side);
  const band = expectedAprBand(input, distribution, rangePct, input.pairIl);
  const swapped = Math.abs(targetX - input.xShare) * input.valueUsd;
  return {
    new_lower_bin_id: range.lowerBin,
    new_upper_bin_id: range.upperBin,
    new_lower_price: range.lowerPrice,
    new_upper_price: range.upperPrice,
    distribution,
    expected_apr_pct: Math.round(((band.low + band.high) / 2) * 100) / 100,
    estimated_cost_usd:
      Math.round((REBALANCE_TX_USD + (swapped * (input.baseFeePct + REBALANCE_SLIPPAGE_PCT)) / 100) * 100) / 100,
  };
}

/** Out of range by more than 2 % of the price: the price is unlikely to come back soon. */
export const REBALANCE_DISTANCE_PCT = 2;

/**
 * Advice on one position: `remove` when its pool's 7-day APR is under `EXIT_MAX_APR_PCT`;
 * `rebalance` when it is out of range by more than `REBALANCE_DISTANCE_PCT` and a week of fees in the
 * new range would pay the rebalance cost; else `hold`.
 */
export function positionSignal(p: {
  distancePct: number;
  poolApr7dPct: number;
  rebalanceCostUsd: number;
  newRangeWeeklyFeesUsd: number;
}): Baseline<"rebalance" | "hold" | "remove"> {
  if (p.poolApr7dPct < EXIT_MAX_APR_PCT) return { signal: "remove", confidence: 0.75 };
  if (p.distancePct > REBALANCE_DISTANCE_PCT) {
    if (p.newRangeWeeklyFeesUsd >= p.rebalanceCostUsd)
      return { signal: "rebalance", confidence: confidence(0.6 + Math.min(0.3, p.distancePct / 20)) };
    return { signal: "hold", confidence: 0.55 };
  }
  return { signal: "hold", confidence: p.distancePct === 0 ? 0.8 : 0.6 };
}

/** Fees a position would earn in a week at an APR. */
export function weeklyFeesUsd(valueUsd: number, aprPercent: number): number {
  return (((valueUsd * aprPercent) / 100) * 7) / 365;
}

/** A remove that covers half the value, or a rebalance that covers a quarter, decides a wallet's signal. */
export const WALLET_REMOVE_SHARE = 0.5;
export const WALLET_REBALANCE_SHARE = 0.25;

/**
 * Baseline of a wallet's positions, weighted by value: `remove` when positions to remove hold at
 * least `WALLET_REMOVE_SHARE`; `rebalance` when positions to rebalance hold at least
 * `WALLET_REBALANCE_SHARE`; `add_liquidity` when every position is in range and their pools pay at
 * least `ENTRY_MIN_APR_PCT` (value-weighted 7-day APR); else `hold`.
 */
export function walletSignal(
  positions: readonly {
    valueUsd: number;
    inRange: boolean;
    poolApr7dPct: number;
    signal: "rebalance" | "hold" | "remove";
  }[],
): Baseline<"add_liquidity" | "rebalance" | "hold" | "remove"> {
  const total = positions.reduce((a, p) => a + p.valueUsd, 0);
  if (positions.length === 0 || total <= 0) return { signal: "hold", confidence: 0.5 };
  const share = (signal: string) =>
    positions.filter((p) => p.signal === signal).reduce((a, p) => a + p.valueUsd, 0) / total;
  if (share("remove") >= WALLET_REMOVE_SHARE)
    return { signal: "remove", confidence: confidence(0.55 + 0.3 * share("remove")) };
  if (share("rebalance") >= WALLET_REBALANCE_SHARE)
    return { signal: "rebalance", confidence: confidence(0.55 + 0.3 * share("rebalance")) };
  const apr = positions.reduce((a, p) => a + p.poolApr7dPct * p.valueUsd, 0) / total;
  if (positions.every((p) => p.inRange) && apr >= ENTRY_MIN_APR_PCT)
    return { signal: "add_liquidity", confidence: 0.7 };
  return { signal: "hold", confidence: 0.75 };
}
