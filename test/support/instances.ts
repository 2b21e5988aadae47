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
import { databaseSettings } from "./services.js";

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
export function spread(urls: string[], calls: PaidCall[], options: { retry?: boolean } = {}): Promise<(Answer | undefined)[]> {
  return Promise.all(calls.map((call, i) => send(urls[i % urls.length] as string, call, options)));
}
