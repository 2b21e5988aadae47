/**
 * Where the analytics service keeps its state, as configured: the ledger on PostgreSQL when a
 * database is configured (shared by every instance), else on its SQLite file, and the A2A tasks
 * beside it in the same database; the upstream cache on Redis when `CACHE_URL` is set, else in this
 * process's memory.
 */
import type { Logger } from "pino";
import { openNamedFile } from "../config/env.js";
import type { StoreSettings } from "../config/store-settings.js";
import { warnOfClockSkew } from "../db/clock-skew.js";
import { type Database, openDatabase } from "../db/database.js";
import type { CacheObserver } from "./cache/memory-cache.js";
import { memoryCache, openRedisCache, type UpstreamCache } from "./cache/redis-cache.js";
import { type Clock, systemClock } from "./clock.js";
import { openPostgresLedger } from "./payments/ledger/postgres-ledger.js";
import { openSqliteLedger, type SqliteLedgerOptions } from "./payments/ledger/sqlite-ledger.js";
import type { LedgerStore } from "./payments/ledger/store.js";
import type { TaskStore } from "./tasks/task-store.js";

export interface AnalyticsStores {
  ledger: LedgerStore;
  /** The A2A tasks, in the ledger's database (its writes commit with the ledger's); closed with the ledger. */
  tasks: TaskStore;
  cache: UpstreamCache;
  /** Closes the ledger, the cache, and the database when it was opened here. */
  close(): Promise<void>;
}

export interface StoreOptions {
  /** The SQLite ledger, when no database is configured. */
  sqlite: { file: string; synchronous: SqliteLedgerOptions["synchronous"] };
  /** A database the caller opened (and closes); otherwise one is opened from `settings` when configured. */
  database?: Database;
  clock: Clock;
  logger: Logger;
  /** Told of every cache lookup (metrics). */
  cacheObserver?: CacheObserver;
}

export async function openAnalyticsStores(
  settings: StoreSettings,
  { sqlite, database, clock, logger, cacheObserver }: StoreOptions,
): Promise<AnalyticsStores> {
  const owned = !database && settings.database ? openDatabase(settings.database, logger) : undefined;
  const shared = database ?? owned;
  const now = () => clock.now();
  try {
    // the database's clock tells the same time as the system's, not as a test's
    const databaseClock = clock === systemClock;
    if (shared && databaseClock) await warnOfClockSkew(shared.query, logger);
    const ledger = shared
      ? await openPostgresLedger(shared, { now, databaseClock })
      : await openNamedFile("LEDGER_DB", sqlite.file, "ledger", () =>
          openSqliteLedger(sqlite.file, {
            now,
            synchronous: sqlite.synchronous,
            warn: (message) => logger.warn(message),
          }),
        );
    const cache = settings.cache
      ? await openRedisCache(settings.cache, { clock, logger, observer: cacheObserver })
      : memoryCache(clock, cacheObserver);
    return {
      ledger,
      tasks: ledger.tasks,
      cache,
      async close() {
        await ledger.close();
        await cache.close();
        await owned?.close();
      },
    };
  } catch (error) {
    await owned?.close();
    throw error;
  }
}
