import { describe, expect, it } from "vitest";
import { ConfigError } from "./env.js";
import { storeSettings } from "./store-settings.js";

describe("store settings", () => {
  it("keeps everything embedded and in one process when nothing is set", () => {
    expect(storeSettings({})).toEqual({ workers: 1 });
  });

  it("reads the database, the cache and the workers, with their defaults", () => {
    const settings = storeSettings({
      DATABASE_URL: "postgres://app@db:5432/intel",
      CACHE_URL: "redis://cache:6379/2",
      WORKERS: "4",
    });
    expect(settings).toEqual({
      database: {
        url: "postgres://app@db:5432/intel",
        schema: "public",
        poolSize: 10,
        statementTimeoutMs: 5000,
        connectTimeoutMs: 3000,
      },
      cache: { url: "redis://cache:6379/2", prefix: "defi-intel:" },
      workers: 4,
    });
    expect(storeSettings({ WORKERS: "auto" }).workers).toBeGreaterThanOrEqual(1);
    expect(
      storeSettings({ DATABASE_URL: "postgresql://db/x", DATABASE_SCHEMA: "blue_2", DATABASE_POOL_SIZE: "3" }).database,
    ).toMatchObject({
      schema: "blue_2",
      poolSize: 3,
    });
  });

  it.each([
    [{ DATABASE_URL: "mysql://db/x" }, /DATABASE_URL must be a postgres: or postgresql: URL/],
    [
      { DATABASE_URL: "postgres://u:secret@db/x", DATABASE_SCHEMA: "Blue; DROP" },
      /DATABASE_SCHEMA must be a lower-case SQL identifier/,
    ],
    [{ DATABASE_URL: "postgres://db/x", DATABASE_POOL_SIZE: "0" }, /DATABASE_POOL_SIZE must be a positive integer/],
    [{ CACHE_URL: "http://cache" }, /CACHE_URL must be a redis: or rediss: URL/],
    [
      { DATABASE_SCHEMA: "blue" },
      "DATABASE_SCHEMA is set but DATABASE_URL is not; set DATABASE_URL, or unset DATABASE_SCHEMA to keep the SQLite files",
    ],
    [{ DATABASE_POOL_SIZE: "4" }, /^DATABASE_POOL_SIZE is set but DATABASE_URL is not/],
    [
      { DATABASE_URL: "postgres://db/x?options=-c%20search_path%3Dother" },
      /^DATABASE_URL sets search_path in its options; name the schema/,
    ],
    [
      { DATABASE_URL: "postgres://db/x?options=-c%20a%3D1&options=--search-path%3Dother" },
      /^DATABASE_URL sets search_path/,
    ],
    [{ WORKERS: "many" }, /WORKERS must be a positive integer or auto/],
  ])("refuses %o", (env, message) => {
    expect(() => storeSettings(env)).toThrow(ConfigError);
    expect(() => storeSettings(env)).toThrow(message);
  });

  it("never echoes a URL, which may carry a password", () => {
    expect(() => storeSettings({ DATABASE_URL: "mysql://u:hunter2@db/x" })).toThrow(/^(?!.*hunter2)/);
  });
});
