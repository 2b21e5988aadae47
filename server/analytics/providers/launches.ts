/**
 * Launch feed role: pump.fun launches as PumpPortal streams them (`create`, trade and `migrate`
 * frames on one websocket, docs/upstreams.md §3.1), and the second launchpad, Raydium LaunchLab
 * (its pools, found through the program's logs, §3.3). A live adapter buffers the stream and serves
 * reads from the buffer. Amounts are UI units (tokens with 6 decimals applied, SOL); times are
 * epoch milliseconds.
 */
import type { LaunchLabPoolAccount } from "../markets/records.js";

/** A `create` frame, stamped with its arrival (the frame carries no time). */
export interface PumpCreateEvent {
  signature: string;
  mint: string;
  /** The creator wallet. */
  traderPublicKey: string;
  name: string;
  symbol: string;
  uri: string;
  /** Tokens of the creator's first buy. */
  initialBuy: number;
  /** SOL paid for the first buy. */
  solAmount: number;
  bondingCurveKey: string;
  vTokensInBondingCurve: number;
  vSolInBondingCurve: number;
  marketCapSol: number;
  receivedAt: number;
}

/**
 * The latest curve state of a pump.fun token the feed tracks (created within the last 72 hours),
 * from its last trade frame; name and symbol come from its `create` frame.
 */
export interface PumpCurveSnapshot {
  mint: string;
  name: string;
  symbol: string;
  bondingCurveKey: string;
  vTokensInBondingCurve: number;
  vSolInBondingCurve: number;
  marketCapSol: number;
  updatedAt: number;
  /** Arrival of the `migrate` frame; null while the token trades on its curve. */
  migratedAt: number | null;
}

/** A LaunchLab launch: its pool account as it reads now, with the creation facts of its logs and metadata. */
export interface LaunchLabLaunch extends LaunchLabPoolAccount {
  name: string;
  symbol: string;
  createdAt: number;
  /** SOL of the creator's first buy. */
  initialBuySol: number;
}

export interface LaunchProvider {
  /** Lowercase id of the pump.fun feed, reported in `sources`. */
  readonly source: string;
  /** Lowercase id of the LaunchLab reader, reported in `sources`. */
  readonly launchLabSource: string;
  /** Newest `create` frames first. */
  recentCreates(limit: number): Promise<PumpCreateEvent[]>;
  /** Every tracked pump.fun token's latest curve state. */
  trackedCurves(): Promise<PumpCurveSnapshot[]>;
  /** Newest LaunchLab launches first. */
  recentLaunchLabLaunches(limit: number): Promise<LaunchLabLaunch[]>;
}
