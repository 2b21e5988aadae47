/** Wallet trades for ledger and rule tests: a builder of trades `hours` after a start, with fresh signatures. */
import type { WalletTrade } from "../../server/analytics/markets/records.js";

const HOUR = 3_600_000;

export function walletTrades(start: number) {
  let n = 0;
  return (
    type: WalletTrade["type"],
    hours: number,
    amount: number,
    valueUsd: number,
    over: Partial<WalletTrade> = {},
  ): WalletTrade => {
    n++;
    return {
      signature: `sig${n}`,
      blockTime: start + hours * HOUR,
      type,
      venue: "jupiter",
      mint: "JUP",
      symbol: "JUP",
      amount,
      valueUsd,
      ...over,
    };
  };
}
