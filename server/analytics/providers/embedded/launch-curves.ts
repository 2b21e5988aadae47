/**
 * The curves of the embedded launches in time: SOL in a curve and the token's price at any moment,
 * the accounts a chain read returns, and the seeded paths they follow. Curves use pump.fun's
 * constant product (markets/pump-curve.ts); LaunchLab pools use the same numbers and complete at
 * 85 SOL raised. After completion a token trades on a pool, its price wandering from the
 * completion price.
 */
import { DAY, HOUR, MINUTE } from "../../clock.js";
import { curvePriceSol, PUMP_CURVE, virtualTokensAtSol } from "../../markets/pump-curve.js";
import type { LaunchLabPoolAccount, PumpCurveAccount } from "../../markets/records.js";
import { COMPLETE_SOL, type CurvePath, type LaunchToken, type Waves } from "./launch-token.js";
import { type Rng, round } from "./random.js";

const VT0 = PUMP_CURVE.initialVirtualTokenReserves;
const VS0 = PUMP_CURVE.initialVirtualSolReserves;
const TOKEN_SUPPLY = PUMP_CURVE.tokenTotalSupply;
const TOKENS_FOR_SALE = PUMP_CURVE.initialRealTokenReserves;

/** A sum of sine waves at time `t`. */
export const waveSum = (waves: Readonly<Waves>, t: number) =>
  waves.reduce((sum, [amp, period, phase]) => sum + amp * Math.sin((2 * Math.PI * t) / period + phase), 0);

export function solInCurve(token: LaunchToken, t: number): number {
  if (t < token.createdAt) return 0;
  if (token.completeAt !== null && t >= token.completeAt) return COMPLETE_SOL[token.platform];
  const age = t - token.createdAt;
  const { rise, riseTau, fall, fallTau, hover } = token.path;
  const risen = 1 - Math.exp(-age / riseTau);
  return Math.max(0, token.openSol + (rise + waveSum(hover, age)) * risen - fall * (1 - Math.exp(-age / fallTau)));
}

/** SOL per token: the curve price, then after completion a pool price wandering from the completion price. */
export function priceSol(token: LaunchToken, t: number): number {
  const completeAt = token.completeAt;
  if (completeAt === null || t < completeAt) return curvePriceSol(solInCurve(token, t));
  const since = t - completeAt;
  const wave = waveSum(token.path.waves, since) - waveSum(token.path.waves, 0);
  return curvePriceSol(COMPLETE_SOL[token.platform]) * Math.exp(token.path.drift * (since / DAY) + wave);
}

/** The pump.fun bonding-curve account of a token as it reads at `t`. */
export function pumpCurveAccount(token: LaunchToken, t: number): PumpCurveAccount {
  const sol = solInCurve(token, t);
  const tokens = virtualTokensAtSol(sol);
  return {
    kind: "pump",
    address: token.curve,
    virtualTokenReserves: round(tokens, 6),
    virtualSolReserves: round(VS0 + sol, 9),
    realTokenReserves: round(Math.max(0, tokens - (VT0 - TOKENS_FOR_SALE)), 6),
    realSolReserves: round(sol, 9),
    tokenTotalSupply: TOKEN_SUPPLY,
    complete: token.completeAt !== null && t >= token.completeAt,
    creator: token.dev,
  };
}

/** The LaunchLab pool account of a token as it reads at `t`. */
export function launchLabPoolAccount(token: LaunchToken, t: number): LaunchLabPoolAccount {
  const sol = solInCurve(token, t);
  return {
    kind: "launchlab",
    address: token.curve,
    mint: token.mint,
    creator: token.dev,
    status: token.completeAt !== null && t >= token.completeAt ? "migrated" : "trading",
    supply: TOKEN_SUPPLY,
    totalSellA: TOKENS_FOR_SALE,
    virtualA: VT0,
    virtualB: VS0,
    realA: round(Math.min(TOKENS_FOR_SALE, VT0 - virtualTokensAtSol(sol)), 6),
    realB: round(sol, 9),
    totalFundRaisingB: COMPLETE_SOL.launchlab,
  };
}

/**
 * A curve's path from the SOL in it after the opening buys. Most launches are duds that rise a
 * little and then dump below their opening (the snipers and the dev sell); some climb and fade;
 * a few stall near the end of the curve; about 6% graduate, `completeAfter` ms after launch.
 */
export function curvePath(r: Rng, open: number, complete: number): { path: CurvePath; completeAfter: number | null } {
  const kind = r.next();
  const graduates = kind >= 0.94;
  let rise: number;
  let riseTau: number;
  let fall = 0;
  let fallTau = HOUR;
  if (kind < 0.55) {
    rise = r.range(1, 15);
    riseTau = r.range(5, 90) * MINUTE;
    fall = rise * r.range(0.7, 1) + open * r.range(0.3, 1);
    fallTau = riseTau * r.range(0.2, 2);
  } else if (kind < 0.925) {
    rise = r.range(15, 45);
    riseTau = r.range(0.5, 12) * HOUR;
    fall = rise * r.range(0, 0.6) + open * r.range(0, 0.3);
    fallTau = riseTau * r.range(1, 8);
  } else if (!graduates) {
    rise = Math.max(1, r.range(52, 84) - open);
    riseTau = r.range(1, 24) * HOUR;
  } else {
    rise = (complete - open) * r.range(1.3, 3);
    riseTau = r.range(0.25, 24) * HOUR;
  }
  if (!graduates) rise = Math.min(rise, (complete - open) * 0.98);
  const waves: Waves = [
    [r.range(0.1, 0.4), r.range(6, 72) * HOUR, r.range(0, 2 * Math.PI)],
    [r.range(0.04, 0.15), r.range(0.7, 4) * HOUR, r.range(0, 2 * Math.PI)],
  ];
  return {
    path: { rise, riseTau, fall, fallTau, drift: r.range(-0.4, 0.15), waves, hover: [] },
    completeAfter: graduates ? Math.round(-riseTau * Math.log(1 - (complete - open) / rise)) : null,
  };
}

/** A long-lived curve's path: it climbs from the opening buys to `settleSol` over a few days, then wanders within `wanderSol` of it. */
export function settlingPath(
  r: Rng,
  open: number,
  { settleSol, wanderSol: w }: { settleSol: number; wanderSol: number },
): CurvePath {
  return {
    rise: settleSol - open,
    riseTau: r.range(1, 3) * DAY,
    fall: 0,
    fallTau: HOUR,
    drift: 0,
    waves: [],
    hover: [
      [0.55 * w, r.range(4, 7) * DAY, r.range(0, 2 * Math.PI)],
      [0.3 * w, r.range(14, 30) * HOUR, r.range(0, 2 * Math.PI)],
      [0.15 * w, r.range(1.5, 4) * HOUR, r.range(0, 2 * Math.PI)],
    ],
  };
}
