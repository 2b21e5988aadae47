/**
 * DeFi rules: impermanent-loss level of a pool, and the baseline signals of the TVL and yield
 * answers. Pure functions; thresholds are documented where they are defined.
 */
import { confidence } from "./confidence.js";

export type IlRisk = "none" | "low" | "medium" | "high";
export type DefiSignal = "high_yield" | "medium_yield" | "low_yield" | "risky";

const STABLES = new Set([
  "USDC",
  "USDT",
  "DAI",
  "USDE",
  "USDS",
  "FDUSD",
  "PYUSD",
  "HONEY",
  "USDB",
  "FRAX",
  "LUSD",
  "GHO",
  "CRVUSD",
]);

/** Assets that track one underlying: a pair of two of the same family barely diverges. */
const FAMILIES: Record<string, string> = {
  SOL: "SOL",
  WSOL: "SOL",
  JITOSOL: "SOL",
  MSOL: "SOL",
  BSOL: "SOL",
  JUPSOL: "SOL",
  ETH: "ETH",
  WETH: "ETH",
  STETH: "ETH",
  WSTETH: "ETH",
  CBETH: "ETH",
  RETH: "ETH",
  WEETH: "ETH",
  BTC: "BTC",
  WBTC: "BTC",
  CBBTC: "BTC",
  TBTC: "BTC",
};

/**
 * `none` for single-asset pools and stable-stable pairs, `low` for two assets of one family
 * (JITOSOL-SOL), `medium` for a volatile asset against a stable, `high` for two unrelated volatile
 * assets.
 */
export function ilRiskLevel(pool: { symbol: string; exposure: "single" | "multi"; stablecoin: boolean }): IlRisk {
  const sides = pool.symbol.toUpperCase().split(/[-/]/).filter(Boolean);
  if (pool.exposure === "single" || sides.length < 2 || pool.stablecoin) return "none";
  const stableSides = sides.filter((s) => STABLES.has(s)).length;
  if (stableSides === sides.length) return "none";
  const families = new Set(sides.map((s) => FAMILIES[s] ?? s));
  if (families.size === 1) return "low";
  return stableSides > 0 ? "medium" : "high";
}

/** APY above which a pool's yield usually rests on emissions that shrink. */
export const EMISSIONS_APY_PCT = 100;

/**
 * Baseline of a yield list, judged on its top 5 pools: `risky` when at least half of them pay
 * above 100% (emission-driven); otherwise by their median APY: 20% or more `high_yield`, 8% or more
 * `medium_yield`, below `low_yield`. Confidence grows with the share of those pools holding at least
 * $10M of TVL (deep pools keep their rates).
 */
export function yieldsSignal(pools: readonly { apy_pct: number; tvl_usd: number }[]): {
  signal: DefiSignal;
  confidence: number;
} {
  const top = pools.slice(0, 5);
  if (top.length === 0) return { signal: "low_yield", confidence: 0.5 };
  const deepShare = top.filter((p) => p.tvl_usd >= 10e6).length / top.length;
  const conf = confidence(0.55 + 0.3 * deepShare);
  if (top.filter((p) => p.apy_pct > EMISSIONS_APY_PCT).length * 2 >= top.length)
    return { signal: "risky", confidence: conf };
  const apys = top.map((p) => p.apy_pct).sort((a, b) => a - b);
  const median =
    apys.length % 2
      ? (apys[(apys.length - 1) / 2] as number)
      : ((apys[apys.length / 2 - 1] as number) + (apys[apys.length / 2] as number)) / 2;
  if (median >= 20) return { signal: "high_yield", confidence: conf };
  if (median >= 8) return { signal: "medium_yield", confidence: conf };
  return { signal: "low_yield", confidence: conf };
}

/**
 * Baseline of a TVL answer, read as market depth: under $50M of total TVL the market is thin
 * (`risky`); under $1B small ecosystems pay to attract capital (`high_yield`); under $20B
 * `medium_yield`; deeper markets are mature and competitive (`low_yield`). Confidence is higher
 * when the answer covers several chains.
 */
export function tvlSignal(totalTvlUsd: number, chainCount: number): { signal: DefiSignal; confidence: number } {
  const conf = confidence(0.6 + 0.05 * Math.min(chainCount, 5));
  if (totalTvlUsd < 50e6) return { signal: "risky", confidence: conf };
  if (totalTvlUsd < 1e9) return { signal: "high_yield", confidence: conf };
  if (totalTvlUsd < 20e9) return { signal: "medium_yield", confidence: conf };
  return { signal: "low_yield", confidence: conf };
}
