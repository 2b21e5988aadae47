/**
 * The upstream cache's contract, run against every store: lifetimes, values that come back as they
 * went in, single flight, failures not kept. `open` gives an empty cache and a way to let time pass
 * (a clock moved for memory, real time for a store whose lifetimes its server keeps).
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Cache } from "../../server/analytics/cache/memory-cache.js";

export interface CacheFixture {
  cache: Cache;
  /** Lets `ms` pass for the store's lifetimes. */
  pass(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** A load that counts its calls and answers `value`, or fails while `fail` is set. */
export function loader<T>(value: T, { delayMs = 0 } = {}) {
  const state = { calls: 0, fail: false };
  const load = async () => {
    state.calls++;
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (state.fail) throw new Error("upstream down");
    return value;
  };
  return { state, load };
}

export function describeCacheContract(name: string, open: () => Promise<CacheFixture>): void {
  describe(`${name} cache`, () => {
    const opened: CacheFixture[] = [];
    const fresh = async () => {
      const fixture = await open();
      opened.push(fixture);
      return fixture;
    };
    afterEach(async () => {
      for (const fixture of opened.splice(0)) await fixture.close();
    });

    it("answers from the entry until its lifetime ends, then loads again", async () => {
      const { cache, pass } = await fresh();
      const { state, load } = loader("fresh");
      expect(await cache.wrap("k", 300, load)).toBe("fresh");
      expect(await cache.wrap("k", 300, load)).toBe("fresh");
      expect(state.calls).toBe(1);
      await pass(400);
      expect(await cache.wrap("k", 300, load)).toBe("fresh");
      expect(state.calls).toBe(2);
    });

    it("gives values back as they were stored, an absent record (undefined) included", async () => {
      const { cache } = await fresh();
      const values = [undefined, null, 0, "", [1, "two", { three: [3] }], { nested: { list: [true, false], n: 1.5 } }];
      for (const [i, value] of values.entries()) {
        const { state, load } = loader(value);
        expect(await cache.wrap(`v${i}`, 60_000, load)).toEqual(value);
        expect(await cache.wrap(`v${i}`, 60_000, load)).toEqual(value);
        expect(state.calls).toBe(1);
      }
    });

    it("shares one load between concurrent misses of one key, and keeps keys apart", async () => {
      const { cache } = await fresh();
      const { state, load } = loader(42, { delayMs: 20 });
      const answers = await Promise.all([
        cache.wrap("a", 60_000, load),
        cache.wrap("a", 60_000, load),
        cache.wrap("b", 60_000, load),
      ]);
      expect(answers).toEqual([42, 42, 42]);
      expect(state.calls).toBe(2);
    });

    it("does not keep a failure: every waiting caller sees it, and the next caller loads again", async () => {
      const { cache } = await fresh();
      const { state, load } = loader("back", { delayMs: 20 });
      state.fail = true;
      const failed = await Promise.allSettled([cache.wrap("k", 60_000, load), cache.wrap("k", 60_000, load)]);
      expect(failed.map((r) => r.status)).toEqual(["rejected", "rejected"]);
      expect(state.calls).toBe(1);
      state.fail = false;
      expect(await cache.wrap("k", 60_000, load)).toBe("back");
      expect(state.calls).toBe(2);
    });
  });
}
