/**
 * How far the database's clock is from this process's. The PostgreSQL ledger checks a payment's
 * deadline against the later of the two clocks (a write a partition held back must not settle a
 * payment that expired meanwhile), so a database clock running ahead by S refuses, as late and
 * uncharged, every answer ready within S of its deadline. Measured once at start-up, to say so.
 */
import type { Logger } from "pino";
import type { Query } from "./database.js";

/** The database's clock when a statement runs (not when its transaction began), in epoch ms. */
export const DATABASE_NOW_MS = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint";

export interface ClockSkew {
  /** The database's reading minus this process's at the round trip's midpoint: positive when the database runs ahead. */
  aheadMs: number;
  /** Half the round trip: the reading is exact to within it. */
  withinMs: number;
}

export async function measureClockSkew(query: Query, now: () => number = Date.now): Promise<ClockSkew> {
  const sent = now();
  const [row] = await query(`SELECT ${DATABASE_NOW_MS} AS at`);
  const received = now();
  return { aheadMs: Number(row?.at) - (sent + received) / 2, withinMs: (received - sent) / 2 };
}

/** Skew below this is the ordinary drift of synchronized clocks, and round trips' noise. */
export const TOLERATED_SKEW_MS = 1_000;

/** How far the database surely runs ahead (beyond the reading's uncertainty), when that is more than the tolerance. */
export function surelyAheadMs({ aheadMs, withinMs }: ClockSkew): number | undefined {
  const surely = aheadMs - withinMs;
  return surely > TOLERATED_SKEW_MS ? surely : undefined;
}

/** Tells the operator, once, when the database's clock runs ahead of this process's: only then does the skew change what is charged. */
export async function warnOfClockSkew(query: Query, logger: Logger, now: () => number = Date.now): Promise<void> {
  const ahead = surelyAheadMs(await measureClockSkew(query, now));
  if (ahead === undefined) return;
  const seconds = (ahead / 1000).toFixed(1);
  logger.warn(
    { databaseAheadMs: Math.round(ahead) },
    `the database's clock runs at least ${seconds} s ahead of this machine's: an answer ready within ${seconds} s of its payment's deadline is refused as late (503, not charged); synchronize both clocks (NTP)`,
  );
}
