/**
 * pump.fun's bonding curve: a constant product over virtual reserves (docs/upstreams.md §3.2). Every
 * SOL-paired curve starts at 30 virtual SOL against 1.073B virtual tokens, sells 793.1M tokens, and
 * completes when they are gone (at about 85.005 SOL). Amounts are UI units: tokens, SOL.
 */

/** The program's Global values (mainnet) in UI units. */
export const PUMP_CURVE = {
  initialVirtualTokenReserves: 1_073_000_000,
  initialVirtualSolReserves: 30,
  initialRealTokenReserves: 793_100_000,
  tokenTotalSupply: 1_000_000_000,
} as const;

const VT0 = PUMP_CURVE.initialVirtualTokenReserves;
const VS0 = PUMP_CURVE.initialVirtualSolReserves;
/** The invariant: virtual tokens × virtual SOL. */
const K = VT0 * VS0;

/** Virtual token reserves with `sol` SOL in the curve. */
export const virtualTokensAtSol = (sol: number) => K / (VS0 + sol);

/** Price in SOL per token with `sol` SOL in the curve. */
export const curvePriceSol = (sol: number) => (VS0 + sol) / virtualTokensAtSol(sol);

/** SOL in the curve when its last token is sold: virtual tokens then equal the 279.9M that were never for sale. */
export const PUMP_COMPLETE_SOL = K / (VT0 - PUMP_CURVE.initialRealTokenReserves) - VS0;

/** Progress from the virtual token reserves (PumpPortal's `vTokensInBondingCurve`): virtual minus real tokens stays 279.9M. */
export function pumpProgressPct(virtualTokenReserves: number): number {
  const sold = VT0 - virtualTokenReserves;
  return Math.min(100, Math.max(0, (sold / PUMP_CURVE.initialRealTokenReserves) * 100));
}

/** Progress with `sol` SOL in the curve. */
export const pumpProgressAtSol = (sol: number) => pumpProgressPct(virtualTokensAtSol(sol));

/** Market cap of a curve with no buy yet (30 SOL over 1.073B tokens, times the supply): 27.96 SOL. */
export const EMPTY_CURVE_CAP_SOL = (VS0 / VT0) * PUMP_CURVE.tokenTotalSupply;
