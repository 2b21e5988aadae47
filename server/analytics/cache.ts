/**
 * The TTL cache for upstream data, in two parts: a store that keeps values for a lifetime (this
 * process's memory by default; any store with the same two calls can share entries between
 * instances) and single flight on top of it (concurrent misses on one key share one upstream
 * call, and a failed call is not cached, so the next caller retries).
 */
import type { Clock } from "./clock.js";

export interface Cache {
  /** The value under `key` if younger than `ttlMs`, else the result of `load` (shared by concurrent callers). */
  wrap<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T>;
}

/**
 * Where cached values live. Values are JSON-safe (they survive `JSON.stringify` then `JSON.parse`
 * unchanged) except that the whole value may be `undefined` (an absent record), which is why a hit
 * is wrapped: a store that serializes writes `{ value }`.
 */
export interface CacheStore {
  /** The entry under `key`, or undefined when there is none or it expired. */
  get(key: string): Promise<{ value: unknown } | undefined>;
  set(key: string, value: unknown, ttlMs: number): Promise<void>;
}

/** Entries in this process's memory, the oldest dropped first beyond `maxEntries`. */
export function memoryStore(clock: Clock, { maxEntries = 10_000 } = {}): CacheStore {
  const entries = new Map<string, { value: unknown; expires: number }>();
  return {
    async get(key) {
      const entry = entries.get(key);
      return entry && entry.expires > clock.now() ? entry : undefined;
    },
    async set(key, value, ttlMs) {
      entries.delete(key);
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(key, { value, expires: clock.now() + ttlMs });
    },
  };
}

/** Single flight over a store: one load per key at a time in this process; only successes are stored. */
export function singleFlight(store: CacheStore): Cache {
  const inflight = new Map<string, Promise<unknown>>();
  return {
    async wrap<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
      const pending = inflight.get(key);
      if (pending) return pending as Promise<T>;
      const hit = await store.get(key);
      if (hit) return hit.value as T;
      // Another caller may have missed during the read above and started the load already.
      const started = inflight.get(key);
      if (started) return started as Promise<T>;
      const promise = load()
        .then(async (value) => {
          await store.set(key, value, ttlMs);
          return value;
        })
        .finally(() => inflight.delete(key));
      inflight.set(key, promise);
      return promise;
    },
  };
}

/** The default cache: single flight over this process's memory. */
export function createCache(clock: Clock, options: { maxEntries?: number } = {}): Cache {
  return singleFlight(memoryStore(clock, options));
}
