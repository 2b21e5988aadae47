/**
 * Market records that the chain and launch providers produce and the rules judge: launchpad curve
 * accounts and wallet trades. Amounts are UI units (decimals applied), SOL rather than lamports,
 * times epoch milliseconds.
 */

/** A pump.fun `BondingCurve` account (docs/upstreams.md §3.2). */
export interface PumpCurveAccount {
  kind: "pump";
  address: string;
  virtualTokenReserves: number;
  virtualSolReserves: number;
  realTokenReserves: number;
  realSolReserves: number;
  tokenTotalSupply: number;
  /** True once `real_token_reserves` reached 0; the token may then migrate. */
  complete: boolean;
  creator: string;
}

/** A Raydium LaunchLab `LaunchpadPool` account (docs/upstreams.md §3.3). */
export interface LaunchLabPoolAccount {
  kind: "launchlab";
  address: string;
  /** `mintA`, the launched token. */
  mint: string;
  creator: string;
  /** The pool's `status` byte, decoded. */
  status: "trading" | "migrated";
  supply: number;
  /** Tokens offered on the curve. */
  totalSellA: number;
  virtualA: number;
  virtualB: number;
  /** Tokens sold so far. */
  realA: number;
  /** SOL raised so far. */
  realB: number;
  /** SOL that completes the curve. */
  totalFundRaisingB: number;
}

export type CurveAccount = PumpCurveAccount | LaunchLabPoolAccount;

/** A parsed swap or liquidity move of one wallet (an enhanced-transactions record). */
export interface WalletTrade {
  signature: string;
  blockTime: number;
  /** `deposit`/`withdraw` move liquidity; the mint is then the position's LP token. */
  type: "buy" | "sell" | "deposit" | "withdraw";
  /** Program the trade went through, as the indexer names it: `pump`, `launchlab`, `jupiter`, `meteora`. */
  venue: string;
  mint: string;
  symbol: string;
  amount: number;
  /** USD value at execution. */
  valueUsd: number;
}
