import net from "node:net";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it, vi } from "vitest";
import { describeCacheContract, loader } from "../../../test/contracts/cache.js";
import { capturedLogger } from "../../../test/support/logs.js";
import { partitionableProxy } from "../../../test/support/partition.js";
import { freePort } from "../../../test/support/processes.js";
import { dropKeys, hasRedis, TEST_REDIS_URL, uniqueName } from "../../../test/support/services.js";
import { createLogger } from "../../http/logger.js";
import { manualClock, systemClock } from "../clock.js";
import { codeFingerprint } from "./code-version.js";
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
    const answers = await Promise.all(
      [0, 1, 2, 3, 4, 5].map((i) => (i % 2 ? a : b).cache.wrap("tvl:chains:", 60_000, load)),
    );
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
    // No request uses the cache meanwhile: GET / alone finds out that Redis answers again.
    await vi.waitFor(() => expect(shared.status()).toEqual({ store: "redis", status: "ok" }), {
      timeout: 10_000,
      interval: 200,
    });
    expect(await shared.cache.wrap("c", 60_000, load)).toBe("v");
    expect(state.calls).toBe(3);
    await shared.close();
    await proxy.close();
  });

  it("refuses to start on a database the Redis does not have, naming CACHE_URL, rather than writing to database 0", async () => {
    const url = new URL(TEST_REDIS_URL);
    url.pathname = "/99";
    await expect(open(freshPrefix(), url.toString())).rejects.toThrow(
      /^CACHE_URL names a database this Redis does not have/,
    );
  });

  it("keeps deployments apart by prefix", async () => {
    const [a, b] = [await open(freshPrefix()), await open(freshPrefix())];
    const { state, load } = loader("v");
    await a.cache.wrap("k", 60_000, load);
    await b.cache.wrap("k", 60_000, load);
    expect(state.calls).toBe(2);
    await Promise.all([a.close(), b.close()]);
  });

  it("keeps the versions of a rolling deploy apart: keys carry the code's fingerprint, and another version's are not read", async () => {
    const prefix = freshPrefix();
    const current = await open(prefix);
    const { state, load } = loader({ shape: "new" });
    await current.cache.wrap("k", 60_000, load);
    const raw = new Redis(TEST_REDIS_URL);
    const keys = await raw.keys(`${prefix}*`);
    raw.disconnect();
    expect(keys).toEqual([`${prefix}${codeFingerprint()}:v:k`]);
    const older = await openRedisCache(
      { url: TEST_REDIS_URL, prefix },
      { clock: systemClock, logger, namespace: "0123456789abcdef" },
    );
    const oldLoad = loader({ shape: "old" });
    expect(await older.cache.wrap("k", 60_000, oldLoad.load)).toEqual({ shape: "old" });
    expect(await current.cache.wrap("k", 60_000, load)).toEqual({ shape: "new" });
    expect([state.calls, oldLoad.state.calls]).toEqual([1, 1]);
    await Promise.all([current.close(), older.close()]);
  });
});

/** One RESP command (an array of bulk strings) at the start of `buffer`, and the bytes it took. */
function parseCommand(buffer: Buffer): { args: string[]; length: number } | undefined {
  let at = 0;
  const line = () => {
    const end = buffer.indexOf("\r\n", at);
    if (end < 0) return undefined;
    const text = buffer.toString("utf8", at, end);
    at = end + 2;
    return text;
  };
  const head = line();
  if (head === undefined) return undefined;
  const args: string[] = [];
  for (let i = 0; i < Number(head.slice(1)); i++) {
    const size = Number(line()?.slice(1));
    if (Number.isNaN(size) || buffer.length < at + size + 2) return undefined;
    args.push(buffer.toString("utf8", at, at + size));
    at += size + 2;
  }
  return { args, length: at };
}

/** A Redis stand-in that has no key and refuses every write as out of memory (`maxmemory` with `noeviction`). */
async function outOfMemoryRedis() {
  const server = net.createServer((socket) => {
    let buffered = Buffer.alloc(0);
    socket.on("data", (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (let command = parseCommand(buffered); command; command = parseCommand(buffered)) {
        buffered = buffered.subarray(command.length);
        const name = command.args[0]?.toUpperCase();
        const info = "loading:0\r\n";
        // As a Redis before 6 answers: no HELLO (the client stays on RESP2).
        if (name === "HELLO") socket.write("-ERR unknown command 'HELLO'\r\n");
        else if (name === "CLIENT") socket.write("+OK\r\n");
        else if (name === "INFO") socket.write(`$${info.length}\r\n${info}\r\n`);
        else if (name === "GET") socket.write("$-1\r\n");
        else socket.write("-OOM command not allowed when used memory > 'maxmemory'.\r\n");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `redis://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("Redis out of reach", () => {
  it("counts an error reply (out of memory) as an answer: ok in GET /, and no log line per command", async () => {
    const redis = await outOfMemoryRedis();
    const log = capturedLogger();
    const shared = await openRedisCache({ url: redis.url, prefix: "oom:" }, { clock: systemClock, logger: log.logger });
    const { state, load } = loader("from upstream");
    for (let i = 0; i < 5; i++) expect(await shared.cache.wrap(`k${i}`, 60_000, load)).toBe("from upstream");
    expect(state.calls).toBe(5);
    expect(shared.status()).toEqual({ store: "redis", status: "ok" });
    expect(log.lines().filter((line) => /answering/.test(String(line.msg)))).toEqual([]);
    await shared.close();
    await redis.close();
  });

  it("answers from upstream and this process's memory, says so, and never fails a caller", async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const shared = await openRedisCache(
      { url, prefix: "nowhere:" },
      { clock: manualClock(0), logger, connectWaitMs: 300 },
    );
    expect(shared.status()).toEqual({ store: "redis", status: "unavailable" });
    const { state, load } = loader("from upstream", { delayMs: 10 });
    const answers = await Promise.all([shared.cache.wrap("k", 60_000, load), shared.cache.wrap("k", 60_000, load)]);
    expect(answers).toEqual(["from upstream", "from upstream"]);
    expect(await shared.cache.wrap("k", 60_000, load)).toBe("from upstream");
    expect(state.calls).toBe(1);
    await shared.close();
  });
});
