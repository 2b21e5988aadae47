/**
 * Where the shared state lives, from the environment: the PostgreSQL database of the ledger and the
 * registry (`DATABASE_URL`; unset, both stay on their SQLite files), the Redis of the upstream cache
 * (`CACHE_URL`; unset, each process caches in its memory) and the number of worker processes.
 */
import { availableParallelism } from "node:os";
import { ConfigError, type Env, identifier, MAX_TIMER_MS, positiveInt, present, url, workers } from "./env.js";

export interface DatabaseSettings {
  url: string;
  /** `DATABASE_SCHEMA`: the schema every table lives in (created by the migrations), default `public`. */
  schema: string;
  /** `DATABASE_POOL_SIZE`: connections per process, default 10. */
  poolSize: number;
  /** `DATABASE_STATEMENT_TIMEOUT_MS`: the server cancels a statement running longer, default 5000. */
  statementTimeoutMs: number;
  /** `DATABASE_CONNECT_TIMEOUT_MS`: a connection not made by then fails the request as unavailable, default 3000. */
  connectTimeoutMs: number;
}

export interface CacheSettings {
  url: string;
  /** `CACHE_PREFIX`: every key's namespace, so that deployments (and test runs) sharing a Redis never collide. */
  prefix: string;
}

export interface StoreSettings {
  database?: DatabaseSettings;
  cache?: CacheSettings;
  /** `WORKERS`: processes of both services on this machine (`auto` = one per core). */
  workers: number;
}

/** Settings of the database that mean nothing without `DATABASE_URL`. */
const DATABASE_SETTINGS = [
  "DATABASE_SCHEMA",
  "DATABASE_POOL_SIZE",
  "DATABASE_STATEMENT_TIMEOUT_MS",
  "DATABASE_CONNECT_TIMEOUT_MS",
];

export function storeSettings(env: Env): StoreSettings {
  const databaseUrl = url(env, "DATABASE_URL", undefined, ["postgres:", "postgresql:"]);
  // Set without the URL, they say a shared database was meant; the service would run on its own SQLite files instead,
  // and instances that each keep their own ledger cannot see each other's payments.
  const orphan = databaseUrl ? undefined : DATABASE_SETTINGS.find((name) => present(env, name) !== undefined);
  if (orphan)
    throw new ConfigError(
      `${orphan} is set but DATABASE_URL is not; set DATABASE_URL, or unset ${orphan} to keep the SQLite files`,
    );
  const cacheUrl = url(env, "CACHE_URL", undefined, ["redis:", "rediss:"]);
  // PostgreSQL reads `search-path` as `search_path`, and `--search_path=` as `-c search_path=`.
  if (
    databaseUrl &&
    new URL(databaseUrl).searchParams.getAll("options").some((options) => /search[_-]path/i.test(options))
  )
    throw new ConfigError("DATABASE_URL sets search_path in its options; name the schema with DATABASE_SCHEMA instead");
  return {
    ...(databaseUrl && {
      database: {
        url: databaseUrl,
        schema: identifier(env, "DATABASE_SCHEMA", "public"),
        poolSize: positiveInt(env, "DATABASE_POOL_SIZE", 10),
        // PostgreSQL takes at most 2^31 - 1 ms, and the idle-in-transaction timeout is twice this one
        statementTimeoutMs: positiveInt(env, "DATABASE_STATEMENT_TIMEOUT_MS", 5_000, Math.floor(MAX_TIMER_MS / 2)),
        connectTimeoutMs: positiveInt(env, "DATABASE_CONNECT_TIMEOUT_MS", 3_000),
      },
    }),
    ...(cacheUrl && { cache: { url: cacheUrl, prefix: present(env, "CACHE_PREFIX") ?? "defi-intel:" } }),
    workers: workers(env, availableParallelism()),
  };
}
