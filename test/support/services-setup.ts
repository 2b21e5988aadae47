/**
 * Vitest global setup: finds the PostgreSQL and Redis of the store suites. Missing on a laptop, the
 * suites that need them are skipped and one line says which and how to enable them; with `CI=true`
 * a missing service fails the run instead.
 */
import { Redis } from "ioredis";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { TEST_DATABASE_URL, TEST_REDIS_URL } from "./services.js";

declare module "vitest" {
  export interface ProvidedContext {
    postgres: boolean;
    redis: boolean;
  }
}

async function reachable(probe: () => Promise<unknown>): Promise<boolean> {
  try {
    await probe();
    return true;
  } catch {
    return false;
  }
}

const postgresUp = () =>
  reachable(async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 3_000 });
    await client.connect();
    await client.query("SELECT 1").finally(() => client.end());
  });

const redisUp = () =>
  reachable(async () => {
    const redis = new Redis(TEST_REDIS_URL, {
      lazyConnect: true,
      connectTimeout: 3_000,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    redis.on("error", () => {});
    await redis.connect();
    await redis.ping().finally(() => redis.disconnect());
  });

/** A URL without its password, fit to print. */
function shown(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(an invalid URL)";
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const [postgres, redis] = await Promise.all([postgresUp(), redisUp()]);
  project.provide("postgres", postgres);
  project.provide("redis", redis);
  const missing = [
    ...(postgres
      ? []
      : [
          `the PostgreSQL suites (database, ledger, registry, multi-instance): none at ${shown(TEST_DATABASE_URL)}, set TEST_DATABASE_URL`,
        ]),
    ...(redis
      ? []
      : [`the Redis suites (cache, multi-instance): none at ${shown(TEST_REDIS_URL)}, set TEST_REDIS_URL`]),
  ];
  if (!missing.length) return;
  if (process.env.CI === "true") throw new Error(`CI=true needs every store service: ${missing.join("; ")}`);
  console.log(`skipped ${missing.join("; ")}`);
}
