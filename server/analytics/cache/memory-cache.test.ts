import { describe, expect, it } from "vitest";
import { describeCacheContract, loader } from "../../../test/contracts/cache.js";
import { jsonStore } from "../../../test/support/cache.js";
import { manualClock } from "../clock.js";
import { createCache, memoryStore, singleFlight } from "./memory-cache.js";

describeCacheContract("memory", async () => {
  const clock = manualClock(0);
  return {
    cache: createCache(clock),
    pass: async (ms) => clock.advance(ms),
    close: async () => {},
  };
});

describeCacheContract("JSON store", async () => {
  const clock = manualClock(0);
  return {
    cache: singleFlight(jsonStore(clock)),
    pass: async (ms) => clock.advance(ms),
    close: async () => {},
  };
});

describe("the memory cache", () => {
  it("drops the oldest entry beyond its size", async () => {
    const clock = manualClock(0);
    const cache = singleFlight(memoryStore(clock, { maxEntries: 2 }));
    const { state, load } = loader("v");
    for (const key of ["a", "b", "c", "b", "c"]) await cache.wrap(key, 1_000, load);
    expect(state.calls).toBe(3);
    await cache.wrap("a", 1_000, load);
    expect(state.calls).toBe(4);
  });

  it("tells its observer of every lookup: hit, miss, or shared with a load under way", async () => {
    const results: string[] = [];
    const cache = createCache(manualClock(0), { observer: { lookup: (result) => results.push(result) } });
    const { load } = loader(1);
    await Promise.all([cache.wrap("a", 1_000, load), cache.wrap("a", 1_000, load)]);
    await cache.wrap("a", 1_000, load);
    expect(results).toEqual(["miss", "shared", "hit"]);
  });
});
