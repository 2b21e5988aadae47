/**
 * A wallet's swaps as positions: exits (sells, liquidity withdrawals) matched first-in first-out
 * against the entries (buys, deposits) of the same mint before them, into closed trades with their
 * cost, PnL and holding time, and the lots still open.
 */
import type { WalletTrade } from "./records.js";

const HOUR = 3_600_000;

export interface ClosedTrade {
  mint: string;
  symbol: string;
  time: number;
  costUsd: number;
  pnlUsd: number;
  returnPct: number;
  holdHours: number;
}

export interface OpenLot {
  time: number;
  amount: number;
  costUsd: number;
}

export const isEntry = (t: WalletTrade) => t.type === "buy" || t.type === "deposit";

/**
 * Matches exits against earlier entries of the same mint, oldest first. The part of an exit with no
 * entry before it (tokens received by transfer, or bought before the history) has no cost basis and
 * is left out.
 */
export function ledger(trades: readonly WalletTrade[]): { closed: ClosedTrade[]; open: Map<string, OpenLot[]> } {
  const open = new Map<string, OpenLot[]>();
  const closed: ClosedTrade[] = [];
  for (const t of [...trades].sort((a, b) => a.blockTime - b.blockTime)) {
    const lots = open.get(t.mint) ?? [];
    open.set(t.mint, lots);
    if (isEntry(t)) {
      lots.push({ time: t.blockTime, amount: t.amount, costUsd: t.valueUsd });
      continue;
    }
    let left = t.amount;
    let cost = 0;
    let heldMs = 0;
    while (left > t.amount * 1e-9 && lots.length) {
      const lot = lots[0] as OpenLot;
      const take = Math.min(lot.amount, left);
      const part = lot.costUsd * (take / lot.amount);
      cost += part;
      heldMs += take * (t.blockTime - lot.time);
      lot.amount -= take;
      lot.costUsd -= part;
      left -= take;
      if (lot.amount <= take * 1e-9) lots.shift();
    }
    const matched = t.amount - left;
    if (matched <= 0) continue;
    const pnl = t.valueUsd * (matched / t.amount) - cost;
    closed.push({
      mint: t.mint,
      symbol: t.symbol,
      time: t.blockTime,
      costUsd: cost,
      pnlUsd: pnl,
      returnPct: cost > 0 ? (pnl / cost) * 100 : 0,
      holdHours: heldMs / matched / HOUR,
    });
  }
  return { closed, open };
}
