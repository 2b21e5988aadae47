/**
 * Pool analytics role (Meteora DLMM in production): the venue's pools, their daily volume, and LP
 * positions. Records keep the venue's meaning: pools as the datapi serves them (`GET /pools`,
 * `GET /pools/{address}`, `GET /pools/{address}/volume/history`), positions as the DLMM program's
 * position accounts. Amounts are in token units (decimals applied), percentages in percent. APRs are
 * not stored: the rules derive them from fees and TVL.
 */

/** One side of a pair (datapi `token_x` / `token_y`). */
export interface PoolTokenRecord {
  mint: string;
  symbol: string;
  decimals: number;
  /** USD price. */
  priceUsd: number;
}

/** One pool (datapi `Pool`). */
export interface PoolRecord {
  address: string;
  /** Token pair, `X-Y`. */
  name: string;
  tokenX: PoolTokenRecord;
  tokenY: PoolTokenRecord;
  /** Basis points between adjacent bins (`pool_config.bin_step`). */
  binStep: number;
  /** Base fee per swap, percent (`pool_config.base_fee_pct`; 0.04 means 0.04 %). */
  baseFeePct: number;
  /** Price of X in Y at the active bin. */
  currentPrice: number;
  /** The pair account's active bin (on-chain `active_id`; a datapi adapter derives it from `current_price`). */
  activeBinId: number;
  /** Reserves, token units (`token_x_amount`, `token_y_amount`). */
  reserveX: number;
  reserveY: number;
  tvlUsd: number;
  /** Last 24 h (`volume["24h"]`, `fees["24h"]`). */
  volume24hUsd: number;
  fees24hUsd: number;
  /**
   * Open position accounts on the pair. No pool API serves it: the live venue counts them on chain
   * for `pool()` only, and its `listPools` rows carry 0 (a count costs one program scan per pool).
   */
  openPositions: number;
  /** Unix seconds. */
  createdAt: number;
}

/** One bucket of `volume/history?timeframe=24h`. */
export interface VolumeBucket {
  /** Bucket start, unix seconds (UTC midnight). */
  timestamp: number;
  volumeUsd: number;
  feesUsd: number;
}

/** One open DLMM position account. */
export interface PositionRecord {
  address: string;
  /** The pair (`lb_pair`). */
  pool: string;
  owner: string;
  lowerBinId: number;
  upperBinId: number;
  /** Liquidity held now, token units. */
  amountX: number;
  amountY: number;
  /** Fees earned and not yet claimed, token units. */
  unclaimedFeeX: number;
  unclaimedFeeY: number;
  /** Unix seconds when the position was opened. */
  createdAt: number;
}

/** datapi `sort_by` keys, always descending: `apr_24h`, `volume_24h`, `tvl`. */
export type PoolSortKey = "apr" | "volume" | "tvl";

export interface PoolListQuery {
  /** datapi `query`: matched against pool address, token mints, token symbols and the pair name. */
  query?: string;
  sortBy: PoolSortKey;
  /** datapi `page_size` (first page only; at most 1000). */
  pageSize: number;
}

export interface PoolProvider {
  /** Lowercase id reported in `sources`. */
  readonly source: string;
  /** The first page of pools matching `query`, best first; `total` counts every match. */
  listPools(query: PoolListQuery): Promise<{ total: number; pools: PoolRecord[] }>;
  /** One pool; undefined when the venue does not know the address. */
  pool(address: string): Promise<PoolRecord | undefined>;
  /** The last `days` daily buckets, oldest first; the newest one is the last 24 h. Empty for an unknown pool. */
  volumeHistory(address: string, days: number): Promise<VolumeBucket[]>;
  /** The open positions a wallet owns (position accounts filtered by owner). */
  positionsByOwner(wallet: string): Promise<PositionRecord[]>;
  /** One open position; undefined when unknown or closed. */
  position(address: string): Promise<PositionRecord | undefined>;
}
