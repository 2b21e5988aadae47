/**
 * How long each provider read is cached, and under which key: one entry for every method of every
 * role (a new method fails type-checking until it has one). A key is `<role>:<method>:<parameters>`,
 * the parameters normalized so that calls meaning the same read share an entry. Lifetimes follow
 * how fast the upstream figure moves and what a caller can live with.
 *
 * Stored values must survive a JSON round trip (a shared store serializes them): the two values
 * that would not, a Map of prices and a quote's bigint amounts, go through a codec.
 */
import { isAddress } from "@solana/addresses";
import { type Clock, HOUR, MINUTE, SECOND } from "../clock.js";
import type { Providers } from "./roles.js";
import type { QuoteRecord } from "./swap-bridge.js";
import type { FlowWindow } from "./wallet-labels.js";

export type AsyncMethodOf<T> = {
  [K in keyof T]: T[K] extends (...args: never[]) => Promise<unknown> ? K : never;
}[keyof T];

/** The stored form of a value JSON cannot carry as it is. */
export interface JsonCodec<V> {
  encode(value: V): unknown;
  decode(stored: unknown): V;
}

export interface MethodPolicy<A extends unknown[], V> {
  /** The call's parameters as a key part; absent for a method without parameters. */
  params?: (...args: A) => string;
  ttlMs: number | ((...args: A) => number);
  codec?: JsonCodec<V>;
}

export type RolePolicy<T> = {
  [K in AsyncMethodOf<T>]: T[K] extends (...args: infer A) => Promise<infer V> ? MethodPolicy<A, V> : never;
};

export type ProvidersPolicy = { [R in keyof Providers]: RolePolicy<Providers[R]> };

const pricesCodec: JsonCodec<Map<string, number>> = {
  encode: (prices) => Object.fromEntries(prices),
  decode: (stored) => new Map(Object.entries(stored as Record<string, number>)),
};

type StoredQuote = Omit<QuoteRecord, "fromAmount" | "toAmount" | "toAmountMin"> &
  Record<"fromAmount" | "toAmount" | "toAmountMin", string>;

const quoteCodec: JsonCodec<QuoteRecord | undefined> = {
  encode: (q) =>
    q && { ...q, fromAmount: String(q.fromAmount), toAmount: String(q.toAmount), toAmountMin: String(q.toAmountMin) },
  decode(stored) {
    const q = stored as StoredQuote | undefined;
    return (
      q && { ...q, fromAmount: BigInt(q.fromAmount), toAmount: BigInt(q.toAmount), toAmountMin: BigInt(q.toAmountMin) }
    );
  },
};

/** Flows over short windows turn over fast; over long ones they barely move within minutes. */
const FLOW_TTL: Record<FlowWindow, number> = {
  "5m": MINUTE,
  "1h": MINUTE,
  "6h": 3 * MINUTE,
  "12h": 3 * MINUTE,
  "1d": 5 * MINUTE,
  "7d": 5 * MINUTE,
};

const lower = (text: string) => text.trim().toLowerCase();
/** A symbol or an address as a key: symbols and EVM addresses compare case-insensitively, Solana addresses (base58) exactly. */
const tokenKey = (text: string) => (isAddress(text.trim()) ? text.trim() : lower(text));
const wallet = (w: { chain: string; address: string }) => `${w.chain}:${w.address}`;

/**
 * The policy of every provider read. Reads "since" a time are asked for as "the last hour", "the
 * last 60 days": their key holds the window's length in minutes (by the clock), so that it does not
 * move with the clock, and the entry answers for the window as it was when read.
 */
export function providerCachePolicy(clock: Clock): ProvidersPolicy {
  const windowMs = (since: number) => clock.now() - since;
  const last = (since: number) => `last-${Math.round(windowMs(since) / MINUTE)}m`;
  return {
    tvl: {
      // Chain and protocol TVL: the interface's figure.
      chains: { ttlMs: 15 * MINUTE },
      protocol: { params: lower, ttlMs: 15 * MINUTE },
      // The aggregator refreshes APYs about hourly; ten minutes keeps them current within a run.
      yieldPools: { ttlMs: 10 * MINUTE },
    },
    pools: {
      // 24 h volumes and fees move slowly; a list to browse may lag a little.
      listPools: { params: (q) => `${q.sortBy}:${q.pageSize}:${q.query ?? ""}`, ttlMs: 5 * MINUTE },
      // A pool's price and active bin move with every swap.
      pool: { params: (address) => address, ttlMs: MINUTE },
      // Daily buckets.
      volumeHistory: { params: (address, days) => `${address}:${days}`, ttlMs: 15 * MINUTE },
      // People check their positions right after acting.
      positionsByOwner: { params: (owner) => owner, ttlMs: MINUTE },
      position: { params: (address) => address, ttlMs: MINUTE },
    },
    launches: {
      // The feed is live: a token launches every few minutes.
      recentCreates: { params: String, ttlMs: 10 * SECOND },
      recentLaunchLabLaunches: { params: String, ttlMs: 10 * SECOND },
      // Every trade moves a curve.
      trackedCurves: { ttlMs: 15 * SECOND },
    },
    chain_rpc: {
      curveAccount: { params: (address) => address, ttlMs: 15 * SECOND },
      // Authorities are revoked rarely; names never change.
      mintAccount: { params: (mint) => mint, ttlMs: 5 * MINUTE },
      tokenMetadata: { params: (mint) => mint, ttlMs: 5 * MINUTE },
      largestHolders: { params: (mint) => mint, ttlMs: 2 * MINUTE },
      holderCount: { params: (mint) => mint, ttlMs: 2 * MINUTE },
      // A token's creation never changes.
      mintCreation: { params: (mint) => mint, ttlMs: HOUR },
      tokenTrades: {
        params: (mint, window) =>
          `${mint}:${"since" in window ? last(window.since) : `slots-${window.fromSlot}-${window.toSlot}`}`,
        // A slot range is settled history. The last hour gives a curve's velocity and moves with it;
        // a day of trades gives whale flows, as slow as the holders they change.
        ttlMs: (_mint, window) =>
          "since" in window ? (windowMs(window.since) <= HOUR ? 30 * SECOND : 2 * MINUTE) : HOUR,
      },
      // A history is the costliest read, and a profile does not change by the minute.
      walletTrades: { params: (address, since) => `${address}:${last(since)}`, ttlMs: 5 * MINUTE },
      // The candidates of a trader ranking, as long as the histories they are ranked on.
      activeTraders: { params: (since, limit) => `${last(since)}:${limit}`, ttlMs: 5 * MINUTE },
      solBalance: { params: (address) => address, ttlMs: 2 * MINUTE },
      // One mint's balance (a dev or a sniper still holding a fresh launch) moves faster than a portfolio.
      tokenAccounts: {
        params: (owner, mint) => `${owner}:${mint ?? "*"}`,
        ttlMs: (_owner, mint) => (mint ? MINUTE : 2 * MINUTE),
      },
      prices: { params: (mints) => [...new Set(mints)].sort().join(","), ttlMs: MINUTE, codec: pricesCodec },
      candles: { params: (mint, interval, limit) => `${mint}:${interval}:${limit}`, ttlMs: MINUTE },
    },
    wallet_labels: {
      // Labels are recomputed about daily; a wallet's first transaction is fixed.
      labels: { params: wallet, ttlMs: 30 * MINUTE },
      firstTransactionAt: { params: wallet, ttlMs: 30 * MINUTE },
      // PnL and balances move with trades and prices, slowly at profile scale.
      pnlSummary: { params: (w, window) => `${wallet(w)}:${window}`, ttlMs: 10 * MINUTE },
      balances: { params: wallet, ttlMs: 10 * MINUTE },
      // A follower wants the latest trades.
      trades: { params: (w, limit) => `${wallet(w)}:${limit}`, ttlMs: 2 * MINUTE },
      flowIntelligence: {
        params: (t, window) => `${t.chain}:${t.tokenAddress}:${window}`,
        ttlMs: (_t, window) => FLOW_TTL[window],
      },
      // Rankings over days: minute-level churn adds nothing.
      tokenScreener: { params: (chains, window) => `${[...chains].sort().join(",")}:${window}`, ttlMs: 5 * MINUTE },
      pnlLeaderboard: { params: (chain, window) => `${chain}:${window}`, ttlMs: 10 * MINUTE },
    },
    swap_bridge: {
      // Addresses are fixed; their USD prices move.
      token: { params: (chain, symbolOrAddress) => `${chain}:${tokenKey(symbolOrAddress)}`, ttlMs: 5 * MINUTE },
      // Routes reprice with gas and liquidity, and aggregators honour a quote for about a minute.
      quote: {
        params: (q) =>
          [
            q.fromChain,
            tokenKey(q.fromToken.address),
            q.toChain,
            tokenKey(q.toToken.address),
            q.fromAmount,
            q.slippage,
            tokenKey(q.fromAddress ?? ""),
          ].join(":"),
        ttlMs: 30 * SECOND,
        codec: quoteCodec,
      },
    },
  };
}
