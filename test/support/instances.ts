/**
 * Several instances of the service as real processes over one PostgreSQL schema and one Redis
 * prefix, as a deployment behind a load balancer runs them, and the ledger they share as a test
 * reads it.
 */
import { openPostgresLedger } from "../../server/analytics/payments/ledger/postgres-ledger.js";
import type { LedgerRow } from "../../server/analytics/payments/ledger/store.js";
import { openDatabase } from "../../server/db/database.js";
import { type Answer, type PaidCall, send } from "./paid-load.js";
import { type ServiceProcess, startService, until } from "./processes.js";
import { databaseSettings, TEST_REDIS_URL } from "./services.js";

/**
 * The environment of instances sharing the database at `url` (in `schema`) and, given a `prefix`, the test Redis
 * (under it; without one each instance caches in its memory); answers due within 3 s and recovery every 250 ms, so
 * that recovery releases what a killed or cut-off instance left within a test.
 */
export function sharedStoresEnv(url: string, schema: string, prefix?: string): Record<string, string> {
  return {
    DATABASE_URL: url,
    DATABASE_SCHEMA: schema,
    ...(prefix !== undefined && { CACHE_URL: TEST_REDIS_URL, CACHE_PREFIX: prefix }),
    PAID_ANSWER_TIMEOUT_MS: "3000",
    RECOVERY_INTERVAL_MS: "250",
    LOG_LEVEL: "silent",
  };
}

/** Starts `count` instances with `env` at once. */
export function startInstances(count: number, env: Record<string, string>): Promise<ServiceProcess[]> {
  return Promise.all(Array.from({ length: count }, () => startService(env, 120_000)));
}

/** The rows of the ledger in `schema` (at `url`), read on a connection of their own. */
export async function ledgerRows(schema: string, url?: string): Promise<LedgerRow[]> {
  const database = openDatabase(databaseSettings(schema, { poolSize: 1, ...(url ? { url } : {}) }));
  try {
    return await (await openPostgresLedger(database)).rows();
  } finally {
    await database.close();
  }
}

/** Waits until recovery has left no payment `verified` or `settling`. */
export function nothingLocked(schema: string, url?: string, timeoutMs = 30_000): Promise<void> {
  return until(async () => {
    const stuck = (await ledgerRows(schema, url)).filter((r) => r.status === "verified" || r.status === "settling");
    if (stuck.length) throw new Error(`${stuck.length} payments still verified or settling`);
  }, timeoutMs);
}

/** Sends `calls`, the i-th to `urls[i % urls.length]`, all at once. */
export function spread(
  urls: string[],
  calls: PaidCall[],
  options: { retry?: boolean } = {},
): Promise<(Answer | undefined)[]> {
  return Promise.all(calls.map((call, i) => send(urls[i % urls.length] as string, call, options)));
}
