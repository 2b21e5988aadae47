/**
 * The upstream cache shared on Redis (`CACHE_URL`): the same keys and lifetimes as in memory, under
 * `CACHE_PREFIX` and the code's fingerprint (code-version.ts: the instances of two versions in a
 * rolling deploy never read each other's values), and single flight across instances through a short lock per key (`SET NX PX`,
 * released by its owner's token). Every value is also kept in this process's memory, which answers
 * while Redis is unreachable: the service then calls upstream and its own memory, says so in `GET /`
 * and in the logs, and never fails a request because of the cache.
 *
 * Client: ioredis rather than node-redis, the faster of the two on this store's commands, and with what
 * this store needs built in: a key prefix, failing fast without an offline queue, per-command timeouts
 * (docs/decisions/0007-pg-and-ioredis-clients.md).
 */
import { randomBytes } from "node:crypto";
import { Redis, ReplyError } from "ioredis";
import type { Logger } from "pino";
import { ConfigError } from "../../config/env.js";
import type { CacheSettings } from "../../config/store-settings.js";
import type { Clock } from "../clock.js";
import { codeFingerprint } from "./code-version.js";
import {
  type Cache,
  type CacheObserver,
  type CacheStore,
  createCache,
  memoryStore,
  singleFlight,
} from "./memory-cache.js";

/** What `GET /` says of the cache. */
export interface CacheStatus {
  store: "memory" | "redis";
  status: "ok" | "unavailable";
}

export interface UpstreamCache {
  cache: Cache;
  status(): CacheStatus;
  close(): Promise<void>;
}

/** Deletes the lock only when it is still ours (it may have expired and been taken by another instance). */
const RELEASE = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

/** A Redis command slower than this counts as Redis being unavailable: the request goes on without it. */
const COMMAND_TIMEOUT_MS = 500;

/** The embedded cache: this process's memory. */
export function memoryCache(clock: Clock, observer?: CacheObserver): UpstreamCache {
  return {
    cache: createCache(clock, { observer }),
    status: () => ({ store: "memory", status: "ok" }),
    close: async () => {},
  };
}

/** What the store tells of the link to Redis: whether it is connected, and how each command went. */
interface RedisLink {
  up(): boolean;
  answered(ok: boolean, error?: unknown): void;
}

/**
 * Entries in Redis, each also kept in `fallback`, which answers while Redis is down. A command is
 * sent only while Redis is connected; one that fails anyway is answered from `fallback` too. Only a
 * failure to answer (a timeout: a connected Redis paused or cut off) says Redis is not answering; an
 * error reply (out of memory, read-only after a failover) is an answer.
 */
function redisStore(redis: Redis, fallback: CacheStore, link: RedisLink): CacheStore {
  const shared = async <T>(command: () => Promise<T>): Promise<T | undefined> => {
    if (!link.up()) return undefined;
    try {
      const value = await command();
      link.answered(true);
      return value;
    } catch (error) {
      link.answered(error instanceof ReplyError, error);
      return undefined;
    }
  };
  return {
    async get(key) {
      const text = await shared(() => redis.get(`v:${key}`));
      if (text == null) return fallback.get(key);
      return { value: (JSON.parse(text) as { value?: unknown }).value };
    },
    async set(key, value, ttlMs) {
      await fallback.set(key, value, ttlMs);
      await shared(() => redis.set(`v:${key}`, JSON.stringify({ value }), "PX", Math.max(1, Math.round(ttlMs))));
    },
    async claim(key, ms) {
      // Without Redis each instance loads for itself (single flight within the process still holds).
      if (!link.up()) return { release: async () => {} };
      const token = randomBytes(8).toString("hex");
      const taken = await shared(() => redis.set(`lock:${key}`, token, "PX", ms, "NX"));
      if (taken === undefined) return { release: async () => {} };
      if (taken !== "OK") return undefined;
      return {
        release: async () => {
          await shared(() => redis.eval(RELEASE, 1, `lock:${key}`, token));
        },
      };
    },
  };
}

export interface RedisCacheOptions {
  clock: Clock;
  logger: Logger;
  observer?: CacheObserver;
  connectWaitMs?: number;
  /** Keys are `<CACHE_PREFIX><namespace>:…`; by default the code's fingerprint. */
  namespace?: string;
}

/** The cache on Redis at `settings.url`, with this process's memory beside it; waits briefly for the first connection. */
export async function openRedisCache(
  settings: CacheSettings,
  { clock, logger, observer, connectWaitMs = 2_000, namespace = codeFingerprint() }: RedisCacheOptions,
): Promise<UpstreamCache> {
  const redis = redisClient(settings, namespace);
  const state: LinkState = { wrongDatabase: false, available: false, answering: true, started: false };
  watchConnection(redis, logger, state);
  await firstConnection(redis, connectWaitMs);
  state.started = true;
  if (state.wrongDatabase) {
    redis.disconnect();
    throw new ConfigError(
      "CACHE_URL names a database this Redis does not have (0 to 15 unless its databases setting says more)",
    );
  }
  if (!state.available)
    logger.warn(
      { cache: "redis" },
      "shared cache unavailable at start: answering from upstream and this process's memory",
    );
  const link = linkOf(redis, logger, state);
  const store = redisStore(redis, memoryStore(clock), link);
  const probe = prober(redis, link, state);
  return {
    cache: singleFlight(store, { observer }),
    status() {
      probe();
      return { store: "redis", status: link.up() && state.answering ? "ok" : "unavailable" };
    },
    async close() {
      state.available = false;
      redis.disconnect();
    },
  };
}

function redisClient(settings: CacheSettings, namespace: string): Redis {
  return new Redis(settings.url, {
    keyPrefix: `${settings.prefix}${namespace}:`,
    // Fail at once while disconnected instead of queueing: the memory answers meanwhile.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: 2_000,
    // Reconnect forever, at most every 2 s, so that the shared cache comes back by itself.
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
  });
}

/** The link as the client's events and the commands' outcomes leave it. */
interface LinkState {
  /**
   * ioredis reports a database the server does not have as an error, then goes on in database 0, which may be
   * another deployment's: it is never used.
   */
  wrongDatabase: boolean;
  available: boolean;
  /** Connected is not answering: a paused or overloaded Redis keeps its connection and times every command out. */
  answering: boolean;
  /** Past the wait for the first connection. */
  started: boolean;
}

/** Keeps `state` up to date with the client's events, and logs each change of availability once. */
function watchConnection(redis: Redis, logger: Logger, state: LinkState): void {
  redis.on("ready", () => {
    if (!state.available && !state.wrongDatabase) logger.info({ cache: "redis" }, "shared cache available");
    state.available = true;
    state.answering = true;
  });
  const lost = (error?: Error) => {
    if (state.available)
      logger.warn(
        { cache: "redis", err: error },
        "shared cache unavailable: answering from upstream and this process's memory",
      );
    state.available = false;
  };
  redis.on("error", (error: Error) => {
    if (/DB index is out of range/i.test(error.message)) {
      // At start the service refuses to start (openRedisCache); found later (Redis first reachable after the start),
      // the shared cache stays off.
      if (state.started && !state.wrongDatabase)
        logger.error(
          { cache: "redis" },
          "CACHE_URL names a database this Redis does not have; the shared cache stays off",
        );
      state.wrongDatabase = true;
    }
    lost(error);
  });
  redis.on("close", () => lost());
}

/** Resolves at the first `ready`, or after `waitMs` without one. */
function firstConnection(redis: Redis, waitMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, waitMs);
    redis.once("ready", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function linkOf(redis: Redis, logger: Logger, state: LinkState): RedisLink {
  return {
    up: () => state.available && !state.wrongDatabase && redis.status === "ready",
    answered(ok, error) {
      if (ok && !state.answering) logger.info({ cache: "redis" }, "shared cache answering again");
      if (!ok && state.answering && state.available)
        logger.warn(
          { cache: "redis", err: error },
          "shared cache not answering: answering from upstream and this process's memory",
        );
      state.answering = ok;
    },
  };
}

/**
 * Connected but not answering: asked in the background, so that an idle instance's `GET /` does not say
 * unavailable long after Redis is back (one PING at a time; the answer shows from the next `GET /` on).
 */
function prober(redis: Redis, link: RedisLink, state: LinkState): () => void {
  let probing = false;
  return () => {
    if (probing || state.answering || !link.up()) return;
    probing = true;
    redis
      .ping()
      .then(
        () => link.answered(true),
        (error) => link.answered(error instanceof ReplyError, error),
      )
      .finally(() => {
        probing = false;
      });
  };
}
