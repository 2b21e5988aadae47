/** A launch of the embedded market: its facts at creation and the parameters of its curve's path. */

import { MINUTE } from "../../clock.js";
import { PUMP_COMPLETE_SOL } from "../../markets/pump-curve.js";

export type Platform = "pump" | "launchlab";

/** SOL in the curve when its last token is sold: pump.fun's real reserves, LaunchLab's raise target. */
export const COMPLETE_SOL: Record<Platform, number> = { pump: PUMP_COMPLETE_SOL, launchlab: 85 };
export const LAUNCH_EVERY: Record<Platform, number> = { pump: 3 * MINUTE, launchlab: 9 * MINUTE };

/** Population traders 0..SNIPER_TRADERS-1 are the snipers the market's launches attract. */
export const SNIPER_TRADERS = 16;

/** Sine waves `[amplitude, period, phase]`: smooth, seeded paths. */
export type Waves = [number, number, number][];

/** How SOL in a curve moves from its opening (see `solInCurve` and `priceSol`); `hover` are SOL waves a long-lived curve wanders by. */
export interface CurvePath {
  rise: number;
  riseTau: number;
  fall: number;
  fallTau: number;
  drift: number;
  waves: Waves;
  hover: Waves;
}

/** A wallet that bought within the first 3 blocks of a launch. */
export interface Snipe {
  trader: number;
  wallet: string;
  /** Blocks after the creation block. */
  blockOffset: number;
  sol: number;
  tokens: number;
  boughtAt: number;
  soldAt: number;
}

export interface LaunchToken {
  platform: Platform;
  index: number;
  mint: string;
  /** pump.fun bonding curve, or LaunchLab pool state. */
  curve: string;
  dev: string;
  name: string;
  symbol: string;
  uri: string;
  createdAt: number;
  slot: number;
  devSol: number;
  devTokens: number;
  /** The dev sells all but `devKeep` of its first buy at `devSellAt`. */
  devKeep: number;
  devSellAt: number;
  snipes: Snipe[];
  /** SOL in the curve right after the dev's and the snipers' buys. */
  openSol: number;
  /** When the curve completes; null if it never does. */
  completeAt: number | null;
  mintAuthority: string | null;
  freezeAuthority: string | null;
  /** Holders per SOL in the curve. */
  holderDensity: number;
  path: CurvePath;
}
