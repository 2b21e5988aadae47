/** A cache store for tests that keeps entries as JSON text, as a store shared between instances would. */
import { type CacheStore, memoryStore } from "../../server/analytics/cache/memory-cache.js";
import type { Clock } from "../../server/analytics/clock.js";

/** Every cached value goes through `JSON.stringify` and back: one JSON cannot carry fails or comes back changed. */
export function jsonStore(clock: Clock): CacheStore {
  const text = memoryStore(clock);
  return {
    async get(key) {
      const hit = await text.get(key);
      return hit && (JSON.parse(hit.value as string) as { value: unknown });
    },
    set: (key, value, ttlMs) => text.set(key, JSON.stringify({ value }), ttlMs),
  };
}
