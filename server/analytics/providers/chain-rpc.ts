/** Solana chain RPC role */

export interface ChainRpcProvider {
  /** Lowercase id reported in `sources`. */
  readonly source: string;
}
