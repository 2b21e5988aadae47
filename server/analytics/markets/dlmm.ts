/**
 * Meteora DLMM pool arithmetic: prices live in discrete bins `binStep` basis points apart, a
 * position earns fees while the active bin lies inside its bins, and fee income is read as an APR.
 */

/** What bin math needs of a pool. */
export interface BinGrid {
  binStep: number;
  tokenX: { decimals: number };
  tokenY: { decimals: number };
}

/** A position's or a range's bins, both included. */
export interface BinBounds {
  lowerBinId: number;
  upperBinId: number;
}

/** Price of X in Y at a bin: `(1 + binStep / 10 000)^binId`, scaled from raw units by `10^(decimalsX − decimalsY)`. */
export function binPrice(grid: BinGrid, binId: number): number {
  return (1 + grid.binStep / 10_000) ** binId * 10 ** (grid.tokenX.decimals - grid.tokenY.decimals);
}

/** The bin whose price is nearest to `price`. */
export function binIdAt(grid: BinGrid, price: number): number {
  const raw = price / 10 ** (grid.tokenX.decimals - grid.tokenY.decimals);
  return Math.round(Math.log(raw) / Math.log(1 + grid.binStep / 10_000));
}

/** A position earns fees while the active bin lies within its bins. */
export function inRange(range: BinBounds, activeBinId: number): boolean {
  return activeBinId >= range.lowerBinId && activeBinId <= range.upperBinId;
}

/** Annualized fee rate, percent: fees earned over `days`, scaled to a year, over TVL. */
export function aprPct(feesUsd: number, tvlUsd: number, days = 1): number {
  return tvlUsd > 0 ? ((feesUsd * 365) / days / tvlUsd) * 100 : 0;
}
