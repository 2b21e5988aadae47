/**
 * The TTL cache for upstream data, in two parts: a store that keeps values for a lifetime (this
 * process's memory by default; any store with the same two calls can share entries between
 * instances, see redis-cache.ts) and single flight on top of it (concurrent misses on one key share
 * one upstream call, and a failed call is not cached, so the next caller retries). Over a shared
 * store that can claim a key, single flight also spans instances: the one that claims it loads, the
 * others wait for the value it stores, up to a bound after which they load themselves.
 */
import type { Clock } from "../clock.js";

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
  /**
   * A shared store's claim on loading `key` for at most `ms`, across instances; undefined while
   * another instance holds it. Released once the value is stored or the load failed.
   */
  claim?(key: string, ms: number): Promise<{ release(): Promise<void> } | undefined>;
}

export interface SingleFlightOptions {
  /** How long an instance may hold its claim on a key (a load that dies keeps it no longer). */
  claimMs?: number;
  /** How long the other instances wait for the value before loading it themselves. */
  waitMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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

/**
 * Told of every lookup: `hit` (the store had it), `miss` (this caller loads it, or waits for another
 * instance's load) or `shared` (a load another caller of this process started answers it).
 */
export interface CacheObserver {
  lookup(result: "hit" | "miss" | "shared"): void;
}

const unobserved: CacheObserver = { lookup() {} };

/**
 * Single flight over a store: one load per key at a time in this process (and across instances when
 * the store can claim keys); only successes are stored.
 */
export function singleFlight(
  store: CacheStore,
  { claimMs = 10_000, waitMs = 10_000, observer = unobserved }: SingleFlightOptions & { observer?: CacheObserver } = {},
): Cache {
  const inflight = new Map<string, Promise<unknown>>();
  const shared = <T>(pending: Promise<unknown>) => {
    observer.lookup("shared");
    return pending as Promise<T>;
  };

  async function loadAndStore<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
    const value = await load();
    await store.set(key, value, ttlMs);
    return value;
  }

  /** Claims the key, or waits (polling, ever less often) for the instance that holds it to store the value. */
  async function acrossInstances<T>(
    key: string,
    ttlMs: number,
    load: () => Promise<T>,
    claim: NonNullable<CacheStore["claim"]>,
  ) {
    const giveUpAt = Date.now() + waitMs;
    for (let pause = 10; Date.now() < giveUpAt; pause = Math.min(pause * 2, 200)) {
      const held = await claim(key, claimMs);
      if (held) {
        try {
          // The holder before us may have stored it between our miss and our claim.
          const hit = await store.get(key);
          return hit ? (hit.value as T) : await loadAndStore(key, ttlMs, load);
        } finally {
          await held.release();
        }
      }
      await sleep(pause);
      const hit = await store.get(key);
      if (hit) return hit.value as T;
    }
    return loadAndStore(key, ttlMs, load);
  }

  return {
    async wrap<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
      const pending = inflight.get(key);
      if (pending) return shared(pending);
      const hit = await store.get(key);
      if (hit) {
        observer.lookup("hit");
        return hit.value as T;
      }
      // Another caller may have missed during the read above and started the load already.
      const started = inflight.get(key);
      if (started) return shared(started);
      observer.lookup("miss");
      const claim = store.claim?.bind(store);
      const promise = (claim ? acrossInstances(key, ttlMs, load, claim) : loadAndStore(key, ttlMs, load)).finally(() =>
        inflight.delete(key),
      );
      inflight.set(key, promise);
      return promise;
    },
  };
}

/** The default cache: single flight over this process's memory. */
export function createCache(
  clock: Clock,
  { observer, ...options }: { maxEntries?: number; observer?: CacheObserver } = {},
): Cache {
  return singleFlight(memoryStore(clock, options), { observer });
}
