/** TVL aggregator role (DefiLlama in production): chain TVL, protocol TVL by chain, yield pools. */

/** One chain's current TVL. */
export interface ChainTvlRecord {
  name: string;
  tvlUsd: number;
  /** Native gas token; null when the aggregator has none for the chain. */
  tokenSymbol: string | null;
}

/** One protocol's current TVL on each chain it is deployed on. */
export interface ProtocolTvlRecord {
  /** Aggregator slug, e.g. `aave-v3`. */
  slug: string;
  name: string;
  chains: { name: string; tvlUsd: number }[];
}

/** One yield pool, in the aggregator's terms (APY in percent). */
export interface YieldPoolRecord {
  /** Aggregator pool id. */
  id: string;
  /** Token pair or asset, e.g. `JITOSOL-SOL`. */
  symbol: string;
  project: string;
  chain: string;
  apy: number;
  apyBase: number | null;
  apyReward: number | null;
  tvlUsd: number;
  stablecoin: boolean;
  /** The aggregator's coarse impermanent-loss flag. */
  ilRisk: "yes" | "no";
  /** `single` asset or `multi` asset pool. */
  exposure: "single" | "multi";
  /** Reward token symbols. */
  rewardTokens: string[];
}

export interface TvlProvider {
  /** Lowercase id reported in `sources`. */
  readonly source: string;
  chains(): Promise<ChainTvlRecord[]>;
  /** A protocol by slug or name (case-insensitive); undefined when unknown. */
  protocol(slugOrName: string): Promise<ProtocolTvlRecord | undefined>;
  yieldPools(): Promise<YieldPoolRecord[]>;
}
