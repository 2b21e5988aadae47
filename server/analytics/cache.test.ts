import { describe, expect, it } from "vitest";
import { jsonStore } from "../../test/support/cache.js";
import { createCache, memoryStore, singleFlight } from "./cache.js";
import { manualClock } from "./clock.js";

/** A load that counts its calls and answers `value`, or fails while `fail` is set. */
function loader<T>(value: T) {
  const state = { calls: 0, fail: false };
  const load = async () => {
    state.calls++;
    if (state.fail) throw new Error("upstream down");
    return value;
  };
  return { state, load };
}

describe("the cache", () => {
  it("answers from the entry until its lifetime ends, then loads again", async () => {
    const clock = manualClock(0);
    const cache = createCache(clock);
    const { state, load } = loader("fresh");
    expect(await cache.wrap("k", 1_000, load)).toBe("fresh");
    clock.advance(999);
    expect(await cache.wrap("k", 1_000, load)).toBe("fresh");
    expect(state.calls).toBe(1);
    clock.advance(1);
    await cache.wrap("k", 1_000, load);
    expect(state.calls).toBe(2);
  });

  it("shares one load between concurrent misses of one key, and keeps keys apart", async () => {
    const cache = createCache(manualClock(0));
    const { state, load } = loader(42);
    const answers = await Promise.all([cache.wrap("a", 1_000, load), cache.wrap("a", 1_000, load), cache.wrap("b", 1_000, load)]);
    expect(answers).toEqual([42, 42, 42]);
    expect(state.calls).toBe(2);
  });

  it("does not keep a failure: every waiting caller sees it, and the next caller loads again", async () => {
    const cache = createCache(manualClock(0));
    const { state, load } = loader("back");
    state.fail = true;
    const failed = await Promise.allSettled([cache.wrap("k", 1_000, load), cache.wrap("k", 1_000, load)]);
    expect(failed.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(state.calls).toBe(1);
    state.fail = false;
    expect(await cache.wrap("k", 1_000, load)).toBe("back");
    expect(state.calls).toBe(2);
  });

  it("keeps an absent record (undefined) like any value", async () => {
    const clock = manualClock(0);
    const cache = singleFlight(jsonStore(clock));
    const { state, load } = loader(undefined);
    expect(await cache.wrap("missing", 1_000, load)).toBeUndefined();
    expect(await cache.wrap("missing", 1_000, load)).toBeUndefined();
    expect(state.calls).toBe(1);
  });

  it("drops the oldest entry beyond its size", async () => {
    const clock = manualClock(0);
    const cache = singleFlight(memoryStore(clock, { maxEntries: 2 }));
    const { state, load } = loader("v");
    for (const key of ["a", "b", "c", "b", "c"]) await cache.wrap(key, 1_000, load);
    expect(state.calls).toBe(3);
    await cache.wrap("a", 1_000, load);
    expect(state.calls).toBe(4);
  });
});
