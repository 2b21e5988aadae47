/**
 * Solana chain role: JSON-RPC reads (docs/upstreams.md §4, a Helius-class RPC in production) plus the
 * indexer reads an RPC provider sells beside it (parsed swaps, active traders, prices and candles).
 * Records keep the upstream's meaning with typed numbers: token amounts in UI units (decimals
 * applied), SOL rather than lamports, times in epoch milliseconds. Absent accounts are `undefined`.
 */
import type { CurveAccount, WalletTrade } from "../markets/records.js";

/** `getAccountInfo(mint, jsonParsed)` of an SPL mint. */
export interface MintAccount {
  mint: string;
  program: "spl-token" | "spl-token-2022";
  decimals: number;
  /** Total supply, UI units. */
  supply: number;
  /** Null when revoked. */
  mintAuthority: string | null;
  /** Null when revoked. */
  freezeAuthority: string | null;
}

/** The Metaplex metadata account of a mint. */
export interface TokenMetadata {
  mint: string;
  name: string;
  symbol: string;
  uri: string;
}

/** One entry of `getTokenLargestAccounts`, its owner resolved with `getMultipleAccounts`. */
export interface TokenHolder {
  tokenAccount: string;
  owner: string;
  /** `wallet` when the owner is a System-owned account; `program` for curve and pool vaults. */
  ownerKind: "wallet" | "program";
  amount: number;
}

/** The mint's first transaction: where its history starts. */
export interface MintCreation {
  signature: string;
  slot: number;
  blockTime: number;
  /** Fee payer of the creation: the token's creator. */
  creator: string;
}

/** A parsed buy or sell of one token, on its curve or pool. */
export interface TokenTrade {
  signature: string;
  slot: number;
  blockTime: number;
  wallet: string;
  side: "buy" | "sell";
  tokenAmount: number;
  solAmount: number;
}

/** A `getTokenAccountsByOwner` entry. */
export interface TokenBalance {
  mint: string;
  symbol: string;
  amount: number;
}

export type CandleInterval = "1m" | "5m" | "15m" | "1h" | "4h" | "1d";

/** One OHLCV candle in USD. */
export interface PriceCandle {
  /** Open time. */
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volumeUsd: number;
}

export interface ChainRpcProvider {
  /** Lowercase id reported in `sources`. */
  readonly source: string;
  /** The launch accounts a mint would have: pump.fun `["bonding-curve", mint]` and its LaunchLab pool. Derived, no call. */
  curveAddresses(mint: string): { pump: string; launchLab: string };
  /** `getAccountInfo(address, base64)`, decoded when it is a bonding curve or a LaunchLab pool. */
  curveAccount(address: string): Promise<CurveAccount | undefined>;
  /** `getAccountInfo(mint, jsonParsed)`; undefined when absent or not a mint. */
  mintAccount(mint: string): Promise<MintAccount | undefined>;
  tokenMetadata(mint: string): Promise<TokenMetadata | undefined>;
  /** The 20 largest token accounts of a mint, largest first. */
  largestHolders(mint: string): Promise<TokenHolder[]>;
  /** Token accounts of the mint holding a balance (`getProgramAccounts` with a mint filter, counted). */
  holderCount(mint: string): Promise<number>;
  /** `getSignaturesForAddress(mint)` paged to the oldest; undefined when the history is not available. */
  mintCreation(mint: string): Promise<MintCreation | undefined>;
  /** Trades of a token in a slot range or since a time, oldest first (signatures of its curve or pool, then `getTransaction`). */
  tokenTrades(mint: string, window: { fromSlot: number; toSlot: number } | { since: number }): Promise<TokenTrade[]>;
  /** Swaps and liquidity moves of a wallet since a time, newest first. */
  walletTrades(address: string, since: number): Promise<WalletTrade[]>;
  /** `getBalance`, in SOL. */
  solBalance(address: string): Promise<number>;
  /** `getTokenAccountsByOwner` over both token programs, non-zero balances; optionally one mint. */
  tokenAccounts(owner: string, mint?: string): Promise<TokenBalance[]>;
  /** Wallets with DEX activity since a time, most active first. */
  activeTraders(since: number, limit: number): Promise<string[]>;
  /** USD prices by mint; unknown mints are left out. Wrapped SOL prices native SOL. */
  prices(mints: readonly string[]): Promise<Map<string, number>>;
  /** The latest `limit` candles, oldest first, the last one still open; fewer when the token is younger. */
  candles(mint: string, interval: CandleInterval, limit: number): Promise<PriceCandle[]>;
}

/** Wrapped SOL: the mint that prices native SOL. */
export const WSOL_MINT = "So11111111111111111111111111111111111111112";
