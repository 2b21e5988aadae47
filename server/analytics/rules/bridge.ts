/**
 * Bridge rules: what a route costs, whether to execute a quote now, and whether moving a position to
 * a better yield pays for the bridge. Pure functions; thresholds are documented where they are defined.
 */
import { confidence } from "./confidence.js";

type Baseline<S extends string> = { signal: S; confidence: number };

/**
 * Price impact of a route, percent: the value lost beyond the deducted fees
 * (`1 - toUsd / (fromUsd - includedFeesUsd)`); never negative.
 */
export function priceImpactPct(fromUsd: number, toUsd: number, includedFeesUsd: number): number {
  const net = fromUsd - includedFeesUsd;
  return net > 0 ? Math.max(0, (1 - toUsd / net) * 100) : 0;
}

/** Everything a route costs in USD: fees, source gas, and the value lost to price impact. */
export function routeCostUsd(q: {
  amountUsd: number;
  feesUsd: number;
  gasUsd: number;
  priceImpactPct: number;
}): number {
  return q.feesUsd + q.gasUsd + (q.amountUsd * q.priceImpactPct) / 100;
}

/** Up to 1 % all-in a transfer is cheap; above 3 % it loses too much to be worth it. */
export const EXECUTE_MAX_COST_PCT = 1;
export const AVOID_COST_PCT = 3;
/** Routes slower than 30 minutes leave the funds in flight too long to act on a price. */
export const EXECUTE_MAX_DURATION_S = 1800;

/**
 * Baseline of a quote from its all-in cost as a share of the amount (`routeCostUsd`): above
 * `AVOID_COST_PCT` `avoid`; above `EXECUTE_MAX_COST_PCT`, or slower than `EXECUTE_MAX_DURATION_S`,
 * `wait` (for cheaper gas, a faster route or a split); else `execute`. Confidence grows with the
 * distance from the nearest threshold.
 */
export function quoteSignal(q: {
  amountUsd: number;
  feesUsd: number;
  gasUsd: number;
  priceImpactPct: number;
  durationS: number;
}): Baseline<"execute" | "wait" | "avoid"> {
  const costPct = q.amountUsd > 0 ? (routeCostUsd(q) / q.amountUsd) * 100 : Number.POSITIVE_INFINITY;
  if (costPct > AVOID_COST_PCT)
    return { signal: "avoid", confidence: confidence(0.7 + Math.min(0.2, (costPct - AVOID_COST_PCT) / 20)) };
  if (costPct > EXECUTE_MAX_COST_PCT || q.durationS > EXECUTE_MAX_DURATION_S)
    return { signal: "wait", confidence: 0.6 };
  return { signal: "execute", confidence: confidence(0.65 + 0.25 * (1 - costPct / EXECUTE_MAX_COST_PCT)) };
}

/** Days for an APY gain to repay a one-off cost; null without a gain. */
export function breakEvenDays(costUsd: number, amountUsd: number, apyGainPct: number): number | null {
  if (apyGainPct <= 0 || amountUsd <= 0) return null;
  return costUsd / ((amountUsd * apyGainPct) / 100 / 365);
}

/** Extra yield over a year after paying the bridge once. */
export function annualGainUsd(costUsd: number, amountUsd: number, apyGainPct: number): number {
  return (amountUsd * apyGainPct) / 100 - costUsd;
}

/** A move pays when it gains at least a point of APY and repays its cost within a month. */
export const MIGRATE_MIN_GAIN_PCT = 1;
export const MIGRATE_MAX_BREAK_EVEN_DAYS = 30;
/** A move that takes over a year to repay never pays within the horizon of a yield. */
export const STAY_MIN_BREAK_EVEN_DAYS = 365;

/**
 * Baseline of a yield migration: `stay` without a gain or when the break-even exceeds
 * `STAY_MIN_BREAK_EVEN_DAYS`; `migrate` when the gain is at least `MIGRATE_MIN_GAIN_PCT` and the
 * break-even at most `MIGRATE_MAX_BREAK_EVEN_DAYS`; otherwise the gain is real but slow or thin:
 * `wait` (for a larger position, a cheaper bridge or a wider gap).
 */
export function migrateSignal(m: {
  apyGainPct: number;
  breakEvenDays: number | null;
}): Baseline<"migrate" | "stay" | "wait"> {
  const days = m.breakEvenDays;
  if (m.apyGainPct <= 0 || days === null || days > STAY_MIN_BREAK_EVEN_DAYS) return { signal: "stay", confidence: 0.8 };
  if (m.apyGainPct >= MIGRATE_MIN_GAIN_PCT && days <= MIGRATE_MAX_BREAK_EVEN_DAYS)
    return { signal: "migrate", confidence: confidence(0.6 + 0.3 * (1 - days / MIGRATE_MAX_BREAK_EVEN_DAYS)) };
  return { signal: "wait", confidence: 0.6 };
}
