/**
 * How far the database's clock is from this process's. The PostgreSQL ledger checks a payment's
 * deadline against the later of the two clocks (a write a partition held back must not settle a
 * payment that expired meanwhile), so a database clock running ahead by S refuses, as late and
 * uncharged, every answer ready within S of its deadline. Measured once at start-up, to say so.
 */
import type { Query } from "./database.js";

export interface ClockSkew {
  /** The database's reading minus this process's at the round trip's midpoint: positive when the database runs ahead. */
  aheadMs: number;
  /** Half the round trip: the reading is exact to within it. */
  withinMs: number;
}

export async function measureClockSkew(query: Query, now: () => number = Date.now): Promise<ClockSkew> {
  const sent = now();
  const [row] = await query("SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS at");
  const received = now();
  return { aheadMs: Number(row?.at) - (sent + received) / 2, withinMs: (received - sent) / 2 };
}

/** Skew below this is the ordinary drift of synchronized clocks, and round trips' noise. */
export const TOLERATED_SKEW_MS = 1_000;

/** What to tell the operator about `skew`, when it matters: only a database clock that runs ahead changes what is charged. */
export function clockSkewWarning({ aheadMs, withinMs }: ClockSkew): string | undefined {
  const surelyAhead = aheadMs - withinMs;
  if (surelyAhead <= TOLERATED_SKEW_MS) return undefined;
  const seconds = (surelyAhead / 1000).toFixed(1);
  return `the database's clock runs at least ${seconds} s ahead of this machine's: an answer ready within ${seconds} s of its payment's deadline is refused as late (503, not charged); synchronize both clocks (NTP)`;
}
