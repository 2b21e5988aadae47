/**
 * The PostgreSQL schema and Redis prefix a benchmark run uses (TEST_DATABASE_URL and TEST_REDIS_URL,
 * default this machine's), as service environment variables, and their removal after the run.
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import pg from "pg";

const DATABASE_URL = process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const REDIS_URL = process.env.TEST_REDIS_URL || "redis://127.0.0.1:6379";

export interface BenchStores {
  database?: Record<string, string>;
  cache?: Record<string, string>;
  /** What could not be reached, and why. */
  skipped: string[];
  drop(): Promise<void>;
}

export async function benchStores(): Promise<BenchStores> {
  const tag = `bench_${randomBytes(4).toString("hex")}`;
  const skipped: string[] = [];
  const client = new pg.Client({ connectionString: DATABASE_URL, connectionTimeoutMillis: 3_000 });
  const database = await client.connect().then(
    () => ({ DATABASE_URL, DATABASE_SCHEMA: tag }),
    (error: Error) => void skipped.push(`PostgreSQL: ${error.message}`),
  );
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on("error", () => {});
  const cache = await redis.connect().then(
    () => ({ CACHE_URL: REDIS_URL, CACHE_PREFIX: `${tag}:` }),
    (error: Error) => void skipped.push(`Redis: ${error.message}`),
  );
  return {
    ...(database && { database }),
    ...(cache && { cache }),
    skipped,
    async drop() {
      if (database) await client.query(`DROP SCHEMA IF EXISTS ${tag} CASCADE`);
      await client.end().catch(() => {});
      if (cache) {
        let cursor = "0";
        do {
          const [next, keys] = await redis.scan(cursor, "MATCH", `${tag}:*`, "COUNT", 500);
          if (keys.length) await redis.del(...keys);
          cursor = next;
        } while (cursor !== "0");
      }
      redis.disconnect();
    },
  };
}
