/** Pool analytics role (Meteora DLMM in production) */

export interface PoolProvider {
  /** Lowercase id reported in `sources`. */
  readonly source: string;
}
