/**
 * The PostgreSQL and Redis the store suites run against: `TEST_DATABASE_URL` and `TEST_REDIS_URL`,
 * defaulting to this project's machines (both on loopback, PostgreSQL with trust authentication and
 * a database `test`). Each suite takes its own schema or key prefix and removes it afterwards.
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, inject } from "vitest";
import type { DatabaseSettings } from "../../server/config/store-settings.js";
import { type Database, openDatabase } from "../../server/db/database.js";

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || "redis://127.0.0.1:6379";

/** Whether the global setup reached each service (skipped suites are named once, at the start of the run). */
export const hasPostgres = () => inject("postgres");
export const hasRedis = () => inject("redis");

/** A name no other run uses: `<what>_<random>`. */
export const uniqueName = (what: string) => `${what}_${randomBytes(5).toString("hex")}`;

export function databaseSettings(schema: string, overrides: Partial<DatabaseSettings> = {}): DatabaseSettings {
  return {
    url: TEST_DATABASE_URL,
    schema,
    poolSize: 10,
    statementTimeoutMs: 5_000,
    connectTimeoutMs: 3_000,
    ...overrides,
  };
}

/** Runs one statement on its own connection to `url`. */
export async function adminQuery(sql: string, url = TEST_DATABASE_URL): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

export const dropSchema = (schema: string, url = TEST_DATABASE_URL) =>
  adminQuery(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`, url);

/** Opens a database in a schema of its own at each call; the schemas are removed once the calling file's tests ran. */
export function databasePerTest(what: string): (overrides?: Partial<DatabaseSettings>) => Database {
  const schemas: string[] = [];
  afterAll(async () => {
    for (const schema of schemas) await dropSchema(schema);
  });
  return (overrides) => {
    const schema = uniqueName(what);
    schemas.push(schema);
    return openDatabase(databaseSettings(schema, overrides));
  };
}

/** Deletes every key under `prefix`. */
export async function dropKeys(prefix: string, url = TEST_REDIS_URL): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}
