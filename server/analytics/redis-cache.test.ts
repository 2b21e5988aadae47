import { afterAll, describe, expect, it, vi } from "vitest";
import { describeCacheContract, loader } from "../../test/contracts/cache.js";
import { partitionableProxy } from "../../test/support/partition.js";
import { freePort } from "../../test/support/processes.js";
import { dropKeys, hasRedis, TEST_REDIS_URL, uniqueName } from "../../test/support/services.js";
import { createLogger } from "../http/logger.js";
import { manualClock, systemClock } from "./clock.js";
import { openRedisCache } from "./redis-cache.js";

const logger = createLogger("silent");
const prefixes: string[] = [];
afterAll(async () => {
  if (hasRedis()) for (const prefix of prefixes) await dropKeys(prefix);
});
const freshPrefix = () => {
  const prefix = `${uniqueName("test")}:`;
  prefixes.push(prefix);
  return prefix;
};
const open = (prefix: string, url = TEST_REDIS_URL) => openRedisCache({ url, prefix }, { clock: systemClock, logger });

describe.skipIf(!hasRedis())("Redis", () => {
  describeCacheContract("Redis", async () => {
    const shared = await open(freshPrefix());
    return {
      cache: shared.cache,
      pass: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      close: () => shared.close(),
    };
  });

  it("shares entries and single flight between instances: concurrent misses on two make one load", async () => {
    const prefix = freshPrefix();
    const [a, b] = [await open(prefix), await open(prefix)];
    expect(a.status()).toEqual({ store: "redis", status: "ok" });
    const { state, load } = loader({ tvl: 1 }, { delayMs: 150 });
    const answers = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => (i % 2 ? a : b).cache.wrap("tvl:chains:", 60_000, load)));
    expect(answers).toEqual(Array(6).fill({ tvl: 1 }));
    expect(state.calls).toBe(1);
    // a third instance started later finds it stored
    const c = await open(prefix);
    expect(await c.cache.wrap("tvl:chains:", 60_000, load)).toEqual({ tvl: 1 });
    expect(state.calls).toBe(1);
    await Promise.all([a.close(), b.close(), c.close()]);
  });

  it("lets a waiting instance load when the one that held the key failed", async () => {
    const prefix = freshPrefix();
    const [a, b] = [await open(prefix), await open(prefix)];
    const failing = loader("never", { delayMs: 100 });
    failing.state.fail = true;
    const working = loader("from b");
    const holding = a.cache.wrap("k", 60_000, failing.load);
    await new Promise((resolve) => setTimeout(resolve, 40)); // a claims the key first
    const [first, second] = await Promise.allSettled([holding, b.cache.wrap("k", 60_000, working.load)]);
    expect(first.status).toBe("rejected");
    expect(second).toEqual({ status: "fulfilled", value: "from b" });
    expect(working.state.calls).toBe(1);
    await Promise.all([a.close(), b.close()]);
  });

  it("says it is unavailable while a connected Redis does not answer (paused, cut off), and ok once it answers again", async () => {
    const proxy = await partitionableProxy(TEST_REDIS_URL, 6379);
    const shared = await open(freshPrefix(), proxy.url);
    const { state, load } = loader("v");
    expect(await shared.cache.wrap("a", 60_000, load)).toBe("v");
    expect(shared.status()).toEqual({ store: "redis", status: "ok" });
    proxy.partition();
    // The connection stays open; the commands time out, and the caller is answered from upstream all the same.
    expect(await shared.cache.wrap("b", 60_000, load)).toBe("v");
    expect(state.calls).toBe(2);
    expect(shared.status()).toEqual({ store: "redis", status: "unavailable" });
    proxy.heal();
    await vi.waitFor(
      async () => {
        await shared.cache.wrap("c", 60_000, load);
        expect(shared.status()).toEqual({ store: "redis", status: "ok" });
      },
      { timeout: 10_000, interval: 200 },
    );
    await shared.close();
    await proxy.close();
  });

  it("refuses to start on a database the Redis does not have, naming CACHE_URL, rather than writing to database 0", async () => {
    const url = new URL(TEST_REDIS_URL);
    url.pathname = "/99";
    await expect(open(freshPrefix(), url.toString())).rejects.toThrow(/^CACHE_URL names a database this Redis does not have/);
  });

  it("keeps deployments apart by prefix", async () => {
    const [a, b] = [await open(freshPrefix()), await open(freshPrefix())];
    const { state, load } = loader("v");
    await a.cache.wrap("k", 60_000, load);
    await b.cache.wrap("k", 60_000, load);
    expect(state.calls).toBe(2);
    await Promise.all([a.close(), b.close()]);
  });
});

describe("Redis out of reach", () => {
  it("answers from upstream and this process's memory, says so, and never fails a caller", async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const shared = await openRedisCache({ url, prefix: "nowhere:" }, { clock: manualClock(0), logger, connectWaitMs: 300 });
    expect(shared.status()).toEqual({ store: "redis", status: "unavailable" });
    const { state, load } = loader("from upstream", { delayMs: 10 });
    const answers = await Promise.all([shared.cache.wrap("k", 60_000, load), shared.cache.wrap("k", 60_000, load)]);
    expect(answers).toEqual(["from upstream", "from upstream"]);
    expect(await shared.cache.wrap("k", 60_000, load)).toBe("from upstream");
    expect(state.calls).toBe(1);
    await shared.close();
  });
});
