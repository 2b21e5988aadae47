/**
 * Trenches rules: curve accounts in the contract's terms, graduation listing and urgency, the
 * graduation estimate, sniper risk and the token verdict. Pure functions over the curve arithmetic
 * of markets/; thresholds are documented where defined.
 */

import { EMPTY_CURVE_CAP_SOL, PUMP_CURVE, pumpProgressAtSol } from "../markets/pump-curve.js";
import type { CurveAccount } from "../markets/records.js";
import { confidence } from "./confidence.js";

export type TokenSignal = "snipe" | "watch" | "avoid";
export type GraduationSignal = "graduate_soon" | "watch";
export type SniperRisk = "none" | "low" | "medium" | "high";

/** A curve account in the contract's terms, whichever launchpad it belongs to. */
export interface CurveFacts {
  progressPct: number;
  solInCurve: number;
  reserves: {
    virtual_token_reserves: number;
    virtual_sol_reserves: number;
    real_token_reserves: number;
    real_sol_reserves: number;
    token_total_supply: number;
  };
  marketCapSol: number;
  complete: boolean;
  /** Progress the curve had with `sol` SOL in it: how velocity in SOL becomes velocity in percent. */
  progressAt(sol: number): number;
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * pump.fun: progress = 1 − real_token_reserves / 793.1M; market cap = virtual SOL / virtual tokens ×
 * supply. LaunchLab: progress = realB / totalFundRaisingB; the pool prices on virtualA − realA tokens
 * against virtualB + realB SOL, and those are its reserves in pump.fun's terms.
 */
export function curveFacts(account: CurveAccount): CurveFacts {
  if (account.kind === "pump") {
    const complete = account.complete;
    return {
      progressPct: complete ? 100 : round((1 - account.realTokenReserves / PUMP_CURVE.initialRealTokenReserves) * 100),
      solInCurve: round(account.realSolReserves, 4),
      reserves: {
        virtual_token_reserves: account.virtualTokenReserves,
        virtual_sol_reserves: account.virtualSolReserves,
        real_token_reserves: account.realTokenReserves,
        real_sol_reserves: account.realSolReserves,
        token_total_supply: account.tokenTotalSupply,
      },
      marketCapSol: round((account.virtualSolReserves / account.virtualTokenReserves) * account.tokenTotalSupply),
      complete,
      progressAt: pumpProgressAtSol,
    };
  }
  const virtualTokens = account.virtualA - account.realA;
  const virtualSol = account.virtualB + account.realB;
  const complete = account.status !== "trading";
  return {
    progressPct: complete ? 100 : round(Math.min(100, (account.realB / account.totalFundRaisingB) * 100)),
    solInCurve: round(account.realB, 4),
    reserves: {
      virtual_token_reserves: virtualTokens,
      virtual_sol_reserves: virtualSol,
      real_token_reserves: Math.max(0, account.totalSellA - account.realA),
      real_sol_reserves: account.realB,
      token_total_supply: account.supply,
    },
    marketCapSol: round((virtualSol / virtualTokens) * account.supply),
    complete,
    progressAt: (sol) => Math.min(100, Math.max(0, (sol / account.totalFundRaisingB) * 100)),
  };
}

/** The interface's cap on graduation estimates: 30 days, also what a stalled curve reports. */
export const MAX_ESTIMATE_HOURS = 720;

/**
 * Hours until the curve completes at `progressPerHour` (its recent velocity): 0 once complete,
 * 720 when the curve is not moving forward, otherwise the remaining progress over the velocity,
 * capped at 720.
 */
export function estimateGraduationHours(progressPct: number, progressPerHour: number, complete: boolean): number {
  if (complete || progressPct >= 100) return 0;
  if (progressPerHour <= 0) return MAX_ESTIMATE_HOURS;
  return round(Math.min(MAX_ESTIMATE_HOURS, (100 - progressPct) / progressPerHour));
}

/** Listed as graduating strictly above 85% and below 100% (a complete curve has graduated). */
const GRADUATING_ABOVE_PCT = 85;
/** Urgency is `high` strictly above 90%; 85 < progress ≤ 90 is `medium`. */
const URGENT_ABOVE_PCT = 90;

export const isGraduating = (progressPct: number) => progressPct > GRADUATING_ABOVE_PCT && progressPct < 100;

export const urgency = (progressPct: number): "high" | "medium" => (progressPct > URGENT_ABOVE_PCT ? "high" : "medium");

/** A curve graduates "soon" when it is listed as graduating and the estimate is within a day. */
const SOON_HOURS = 24;

/**
 * `graduate_soon` for a listed curve (above 85%, not complete) expected within 24 hours, else
 * `watch`. Confidence rises with progress and with a nearer estimate.
 */
export function graduationSignal(curve: { progressPct: number; hours: number; complete: boolean }): {
  signal: GraduationSignal;
  confidence: number;
} {
  const soon = !curve.complete && isGraduating(curve.progressPct) && curve.hours <= SOON_HOURS;
  if (soon)
    return {
      signal: "graduate_soon",
      confidence: confidence(0.6 + (curve.progressPct - 85) / 75 + (1 - curve.hours / SOON_HOURS) * 0.1),
    };
  return {
    signal: "watch",
    confidence: confidence(curve.complete ? 0.8 : 0.55 + Math.max(0, 85 - curve.progressPct) / 400),
  };
}

/** Sniper share of supply: none without snipers; below 5% low; 5 to 15 (both included) medium; above 15 high. */
export function sniperRisk(count: number, totalPct: number): SniperRisk {
  if (count === 0) return "none";
  if (totalPct < 5) return "low";
  if (totalPct <= 15) return "medium";
  return "high";
}

/** The parts of a verdict; the single-purpose endpoints judge with the parts they have. */
export interface VerdictParts {
  token?: {
    freeze_authority: string | null;
    mint_authority: string | null;
    dev_holds_pct: number;
    top_holders_pct: number;
    holders: number;
  };
  snipers?: { risk_level: SniperRisk };
  curve?: { progress_pct: number };
}

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));
const SNIPER_RISK: Record<SniperRisk, number> = { none: 0, low: 0.25, medium: 0.6, high: 1 };

/**
 * Risk factors, each 0 (clean) to 1, with their weights: sniper concentration and dev holdings
 * high (3); top-5 concentration and curve progress medium (2); holder count low (1). Dev risk runs
 * from 2% to 15% of supply; top-5 from 15% to 50%; progress from 0% (untested) to 70% (proven
 * demand); holders from 25 to 500.
 */
function riskFactors(parts: VerdictParts): [risk: number, weight: number][] {
  const out: [number, number][] = [];
  if (parts.snipers) out.push([SNIPER_RISK[parts.snipers.risk_level], 3]);
  if (parts.token) {
    out.push([clamp01((parts.token.dev_holds_pct - 2) / 13), 3]);
    out.push([clamp01((parts.token.top_holders_pct - 15) / 35), 2]);
    out.push([clamp01((500 - parts.token.holders) / 475), 1]);
  }
  if (parts.curve) out.push([clamp01(1 - parts.curve.progress_pct / 70), 2]);
  return out;
}

/** Weighted risk below which a fully covered token is a `snipe`, and above which it is an `avoid`. */
const SNIPE_BELOW_RISK = 0.3;
const AVOID_ABOVE_RISK = 0.55;

/**
 * The signal for a weighted risk: `snipe` strictly below 0.3 (only when the verdict covers the
 * token, sniper and curve parts: a partial view never calls a buy), `avoid` strictly above 0.55,
 * otherwise `watch`. Confidence grows with the distance from the nearest threshold.
 */
export function tokenSignalFromRisk(risk: number, fullView: boolean): { signal: TokenSignal; confidence: number } {
  const margin = Math.min(Math.abs(risk - SNIPE_BELOW_RISK), Math.abs(risk - AVOID_ABOVE_RISK));
  const conf = confidence(0.52 + Math.min(0.35, margin * 1.2) + (fullView ? 0.05 : 0));
  if (risk > AVOID_ABOVE_RISK) return { signal: "avoid", confidence: conf };
  if (risk < SNIPE_BELOW_RISK && fullView) return { signal: "snipe", confidence: conf };
  return { signal: "watch", confidence: conf };
}

/**
 * The verdict: a live freeze or mint authority is critical and alone means `avoid` (0.9, or 0.95
 * with both); otherwise the weighted risk of the parts present decides.
 */
export function tokenVerdict(parts: VerdictParts): { signal: TokenSignal; confidence: number; risk: number } {
  const live = parts.token
    ? [parts.token.freeze_authority, parts.token.mint_authority].filter((a) => a !== null).length
    : 0;
  if (live > 0) return { signal: "avoid", confidence: live === 2 ? 0.95 : 0.9, risk: 1 };
  const factors = riskFactors(parts);
  const weight = factors.reduce((sum, [, w]) => sum + w, 0);
  const risk = weight ? factors.reduce((sum, [r, w]) => sum + r * w, 0) / weight : 0.5;
  return { ...tokenSignalFromRisk(risk, Boolean(parts.token && parts.snipers && parts.curve)), risk: round(risk, 3) };
}

/** A dev buy of 3 SOL or more takes about 10% of the supply. */
const HEAVY_DEV_BUY_SOL = 3;

/**
 * A fresh-launch list: `snipe` when at least 30% of the tokens already doubled the empty-curve cap
 * (traction) and under 30% opened with a heavy dev buy; `avoid` when half or more opened with a
 * heavy dev buy; otherwise `watch`. Confidence grows with the list's size.
 */
export function launchListSignal(tokens: readonly { initial_buy_sol: number; market_cap_sol: number }[]): {
  signal: TokenSignal;
  confidence: number;
} {
  if (tokens.length === 0) return { signal: "watch", confidence: 0.5 };
  const share = (test: (t: (typeof tokens)[number]) => boolean) => tokens.filter(test).length / tokens.length;
  const traction = share((t) => t.market_cap_sol >= 2 * EMPTY_CURVE_CAP_SOL);
  const heavy = share((t) => t.initial_buy_sol >= HEAVY_DEV_BUY_SOL);
  const conf = confidence(0.5 + Math.min(0.25, tokens.length / 80));
  if (heavy >= 0.5) return { signal: "avoid", confidence: conf };
  if (traction >= 0.3 && heavy < 0.3) return { signal: "snipe", confidence: conf };
  return { signal: "watch", confidence: conf };
}
