/** Swap and bridge quote role (LI.FI and Jupiter in production). */

export interface SwapBridgeProvider {
  /** Lowercase id reported in `sources`. */
  readonly source: string;
}
