/**
 * A TTL cache for upstream data with single flight: concurrent misses on one key share one
 * upstream call, and a failed call is not cached (the next caller retries).
 */
import type { Clock } from "./clock.js";

export interface Cache {
  /** The value under `key` if younger than `ttlMs`, else the result of `load` (shared by concurrent callers). */
  wrap<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T>;
}

export function createCache(clock: Clock, { maxEntries = 10_000 } = {}): Cache & { size(): number } {
  const entries = new Map<string, { value: unknown; expires: number }>();
  const inflight = new Map<string, Promise<unknown>>();
  return {
    size: () => entries.size,
    async wrap<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
      const hit = entries.get(key);
      if (hit && hit.expires > clock.now()) return hit.value as T;
      const pending = inflight.get(key);
      if (pending) return pending as Promise<T>;
      const promise = load()
        .then((value) => {
          if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
          entries.set(key, { value, expires: clock.now() + ttlMs });
          return value;
        })
        .finally(() => inflight.delete(key));
      inflight.set(key, promise);
      return promise;
    },
  };
}

export const MINUTE = 60_000;
