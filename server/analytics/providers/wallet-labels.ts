/**
 * Wallet-labels and smart-money role (Nansen in production). One method per upstream call: the
 * profiler's labels, PnL summary, DEX trades, balances and first transaction of one wallet; flow
 * intelligence of one token; the token screener; the PnL leaderboard. Records keep the provider's
 * meaning and categories (smart traders, whales, public figures); the segment maps them into the
 * contract's shapes.
 */

/** Chains the provider labels wallets on. */
export type LabeledChain = "ethereum" | "solana" | "base" | "arbitrum";

/** Windows of flow and screener figures, ending now. */
export type FlowWindow = "5m" | "1h" | "6h" | "12h" | "1d" | "7d";

/** Windows of PnL figures, ending now. */
export type PnlWindow = "1d" | "7d" | "30d";

/** A wallet on one chain. EVM addresses are passed lowercase. */
export interface WalletRef {
  chain: LabeledChain;
  address: string;
}

/** A token on one chain. EVM addresses are passed lowercase. */
export interface TokenRef {
  chain: LabeledChain;
  tokenAddress: string;
}

/** One label of a wallet (profiler labels). */
export interface WalletLabelRecord {
  /** The label as the provider spells it, e.g. `Smart Money`, `Fund`, `DEX Trader`. */
  label: string;
  category: "smart_money" | "fund" | "social" | "behavioral" | "others";
}

/** A wallet's PnL over a window (profiler PnL summary). */
export interface PnlSummaryRecord {
  realizedPnlUsd: number;
  /** Mark-to-market PnL of the positions opened in the window and still held. */
  unrealizedPnlUsd: number;
  /** Total PnL over the capital traded in the window, percent. */
  roiPct: number;
  /** Trades in the window. */
  tradedTimes: number;
  /** Share of those trades in profit, 0 to 1. */
  winRate: number;
}

/** One DEX trade of a wallet (profiler transactions). */
export interface TradeRecord {
  tokenSymbol: string;
  tokenAddress: string;
  side: "buy" | "sell";
  valueUsd: number;
  /** Epoch milliseconds. */
  timestamp: number;
  /** Realized PnL of a sell; PnL of a buy since it was made. */
  pnlUsd: number;
}

/** One token balance of a wallet (profiler current balance). */
export interface HoldingRecord {
  tokenSymbol: string;
  tokenAddress: string;
  amount: number;
  valueUsd: number;
}

/** Flows of one wallet category into a token over a window. */
export interface CategoryFlowRecord {
  /** Buy minus sell volume, USD. */
  netFlowUsd: number;
  buyVolumeUsd: number;
  sellVolumeUsd: number;
  walletCount: number;
}

/** Flow intelligence of one token, by the provider's wallet categories. */
export interface FlowIntelRecord {
  smartTrader: CategoryFlowRecord;
  whale: CategoryFlowRecord;
  /** Wallets tied to public figures (KOLs). */
  publicFigure: CategoryFlowRecord;
}

/** One token screener row. */
export interface ScreenerRecord {
  chain: LabeledChain;
  tokenAddress: string;
  tokenSymbol: string;
  priceUsd: number;
  marketCapUsd: number;
  /** Days since launch. */
  tokenAgeDays: number;
  /** Smart-trader net flow over the requested window, USD. */
  smartMoneyNetflowUsd: number;
  /** Smart traders and whales that traded the token in the window. */
  smartMoneyTraders: number;
  whaleTraders: number;
}

/** One PnL leaderboard row: a labeled trader's PnL summary over the window. */
export interface LeaderboardRecord extends PnlSummaryRecord {
  traderAddress: string;
  /** Label names as the provider spells them. */
  labels: string[];
}

export interface WalletLabelsProvider {
  /** Lowercase id reported in `sources`. */
  readonly source: string;
  /** Every label of the wallet; empty for an unlabeled wallet. */
  labels(wallet: WalletRef): Promise<WalletLabelRecord[]>;
  pnlSummary(wallet: WalletRef, window: PnlWindow): Promise<PnlSummaryRecord>;
  /** The latest DEX trades, newest first. */
  trades(wallet: WalletRef, limit: number): Promise<TradeRecord[]>;
  balances(wallet: WalletRef): Promise<HoldingRecord[]>;
  /** Epoch milliseconds of the wallet's first transaction; undefined when it has none. */
  firstTransactionAt(wallet: WalletRef): Promise<number | undefined>;
  /** Undefined when the provider does not know the token on that chain. */
  flowIntelligence(token: TokenRef, window: FlowWindow): Promise<FlowIntelRecord | undefined>;
  tokenScreener(chains: LabeledChain[], window: FlowWindow): Promise<ScreenerRecord[]>;
  /** The chain's labeled traders with their PnL over the window, in no particular order. */
  pnlLeaderboard(chain: LabeledChain, window: PnlWindow): Promise<LeaderboardRecord[]>;
}
