import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  eventually,
  fixture,
  fixtureLines,
  type LocalServer,
  type LocalWsServer,
  reply,
  startServer,
  startWsServer,
  testHttp,
} from "../../../../test/support/upstreams.js";
import { manualClock } from "../../clock.js";
import { openFeedSocket } from "./feed-socket.js";
import { createJsonRpc } from "./json-rpc.js";
import { createLiveLaunches } from "./launch-feed.js";
import { launchLabSignature, mapLaunchLabCreation } from "./launchlab.js";
import { LaunchWindow, parseFrame } from "./pumpportal.js";
import { launchLabVaultAuthority } from "./solana-accounts.js";
import { transactionSchema } from "./solana-schemas.js";

const FRAMES = fixtureLines("pumpportal-frames.jsonl");
const UNICORN = "9BB6NFEcjBCtnNLFko2FqVQBq8HHM13kCyYcdQbgpump";
const HELP = "HeLp6NuQkmYB4pYWo2zYs22mESHXPQYzXbB8n4V98jwC";
const HOUR = 3_600_000;

describe("parseFrame", () => {
  it("reads create, trade and migrate frames, with integer and string amounts", () => {
    const frames = FRAMES.map(parseFrame);
    expect(frames[2]).toMatchObject({
      txType: "create",
      mint: UNICORN,
      solAmount: 2.962962961,
      marketCapSol: 33.75448670917235,
    });
    expect(frames[3]).toMatchObject({ txType: "create", mint: HELP, solAmount: 2, uri: null });
    expect(frames[4]).toMatchObject({ txType: "buy", vSolInBondingCurve: 33.65 });
    expect(frames[5]).toEqual({ txType: "migrate", mint: UNICORN });
  });

  it("ignores control messages, incomplete frames and text that is not JSON", () => {
    expect([0, 1, 7, 8].map((i) => parseFrame(FRAMES[i] as string))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe("LaunchWindow", () => {
  const apply = (window: LaunchWindow, lines: string[], at: number) =>
    lines.flatMap((l) => window.apply(parseFrame(l) ?? { txType: "migrate", mint: "-" }, at));

  it("keeps creates newest first, updates curves from trades and marks migrations", () => {
    const window = new LaunchWindow({ maxCreates: 10, maxTracked: 10 });
    apply(window, FRAMES, 1_000);
    expect(window.recentCreates(5).map((c) => [c.mint, c.receivedAt, c.uri])).toEqual([
      [HELP, 1_000, ""],
      [UNICORN, 1_000, "https://ipfs.io/ipfs/QmUnicorn/metadata.json"],
    ]);
    expect(window.trackedCurves().find((c) => c.mint === UNICORN)).toMatchObject({
      name: "The Unicorn",
      vTokensInBondingCurve: 956550561.855907,
      marketCapSol: 35.18,
      migratedAt: 1_000,
    });
    // A repeated create frame changes nothing.
    apply(window, [FRAMES[2] as string], 2_000);
    expect(window.recentCreates(5)).toHaveLength(2);
  });

  it("is bounded: by count, and to the tokens of the last 72 hours", () => {
    const window = new LaunchWindow({ maxCreates: 1, maxTracked: 1 });
    expect(apply(window, [FRAMES[2] as string], 0)).toEqual([]);
    expect(apply(window, [FRAMES[3] as string], HOUR)).toEqual([UNICORN]);
    expect(window.recentCreates(5).map((c) => c.mint)).toEqual([HELP]);
    expect(window.evict(HOUR + 72 * HOUR + 1)).toEqual([HELP]);
    expect(window.trackedCurves()).toEqual([]);
  });
});

describe("LaunchLab logs and creations", () => {
  it("keeps successful Initialize notifications only", () => {
    expect(fixtureLines("rpc-launchlab-logs.jsonl").map(launchLabSignature)).toEqual([
      undefined,
      "llCreate",
      undefined,
      undefined,
    ]);
    expect(launchLabSignature("{")).toBeUndefined();
  });

  it("reads the token, the first buy and the creator from the creation transaction", () => {
    const tx = transactionSchema.parse(fixture("rpc-launchlab-create.json"));
    expect(tx && mapLaunchLabCreation(tx, launchLabVaultAuthority())).toEqual({
      mint: UNICORN,
      pool: "9Sm7bGBZ3qEwxGgnZ4tpnoD4jm3V3QHe1fPjXXNzYNPv",
      creator: "7dGbd2QZcCKcTndnHcTL8q7SMVXAkp688NTQYwrRCrar",
      createdAt: 1763730000000,
      initialBuySol: 1.05,
    });
    expect(tx && mapLaunchLabCreation(tx, "SomeoneElse1111111111111111111111111111111")).toBeUndefined();
  });
});

describe("openFeedSocket against a server that drops the connection", () => {
  let server: LocalWsServer;
  beforeAll(async () => {
    server = await startWsServer();
  });
  afterAll(() => server.close());

  it("reconnects with backoff, resubscribes, and reports how long it was down", async () => {
    const clock = manualClock(0);
    const messages: string[] = [];
    const feed = openFeedSocket({
      url: server.url,
      clock,
      subscribe: () => [{ method: "subscribeNewToken" }],
      onMessage: (text) => messages.push(text),
      backoff: { baseMs: 5, maxMs: 20 },
      random: () => 0,
    });
    try {
      await eventually(() => expect(server.received).toHaveLength(1));
      expect(feed.downFor()).toBeUndefined();
      server.broadcast({ message: "hello" });
      await eventually(() => expect(messages).toEqual(['{"message":"hello"}']));
      clock.advance(1_000);
      server.dropAll();
      await eventually(() => expect(feed.downFor()).toBe(0));
      await server.waitForConnections(2);
      await eventually(() =>
        expect(server.received).toEqual([{ method: "subscribeNewToken" }, { method: "subscribeNewToken" }]),
      );
      expect(feed.downFor()).toBeUndefined();
    } finally {
      feed.close();
    }
  });

  it("replaces a connection that goes silent", async () => {
    const before = server.connections;
    const feed = openFeedSocket({
      url: server.url,
      clock: manualClock(0),
      subscribe: () => [],
      onMessage: () => {},
      idleMs: 30,
      backoff: { baseMs: 5, maxMs: 5 },
    });
    try {
      await server.waitForConnections(before + 2);
    } finally {
      feed.close();
    }
  });
});

describe("createLiveLaunches against local feeds and RPC", () => {
  let pumpPortal: LocalWsServer;
  let rpcWs: LocalWsServer;
  let rpcHttp: LocalServer;
  let launches: ReturnType<typeof createLiveLaunches> | undefined;
  beforeAll(async () => {
    [pumpPortal, rpcWs] = await Promise.all([startWsServer(), startWsServer()]);
    rpcHttp = await startServer((req, res) => {
      const { method, params } = req.body as { method: string; params: [string | string[]] };
      if (method === "getTransaction")
        return reply(res, 200, {
          jsonrpc: "2.0",
          id: 1,
          result: params[0] === "llCreate" ? fixture("rpc-launchlab-create.json") : null,
        });
      const keys = params[0] as string[];
      const pool = fixture<{ result: { value: unknown } }>("rpc-launchlab-pool.json").result.value;
      const metadata = fixture<{ result: { value: unknown[] } }>("rpc-metadata.json").result.value[0];
      reply(res, 200, {
        jsonrpc: "2.0",
        id: 1,
        result: {
          context: { slot: 1 },
          value: keys.map((k) => (k === "9Sm7bGBZ3qEwxGgnZ4tpnoD4jm3V3QHe1fPjXXNzYNPv" ? pool : metadata)),
        },
      });
    });
  });
  afterEach(() => launches?.close());
  afterAll(() => Promise.all([pumpPortal.close(), rpcWs.close(), rpcHttp.close()]));
  const start = (clock = manualClock(1_000), key?: string) => {
    launches = createLiveLaunches({
      clock,
      rpc: createJsonRpc(testHttp("launchlab"), rpcHttp.url),
      rpcWsUrl: rpcWs.url,
      pumpPortalUrl: pumpPortal.url,
      pumpPortalKey: key,
      socket: { backoff: { baseMs: 5, maxMs: 20 } },
    });
    return launches;
  };

  it("subscribes once per connection and serves the window", async () => {
    const feed = start();
    await eventually(() =>
      expect(pumpPortal.received).toEqual([{ method: "subscribeNewToken" }, { method: "subscribeMigration" }]),
    );
    for (const frame of FRAMES) pumpPortal.broadcast(frame);
    await eventually(async () => expect(await feed.recentCreates(10)).toHaveLength(2));
    expect((await feed.trackedCurves()).map((c) => [c.mint, c.migratedAt])).toEqual([
      [UNICORN, 1_000],
      [HELP, null],
    ]);
  });

  it("with a PumpPortal key, follows each new token's trades and resubscribes them after a drop", async () => {
    pumpPortal.received.length = 0;
    const feed = start(manualClock(1_000), "pp-key");
    await eventually(() => expect(pumpPortal.received).toHaveLength(2));
    pumpPortal.broadcast(FRAMES[2] as string);
    await eventually(() =>
      expect(pumpPortal.received.at(-1)).toEqual({ method: "subscribeTokenTrade", keys: [UNICORN] }),
    );
    pumpPortal.dropAll();
    await eventually(() =>
      expect(pumpPortal.received.at(-1)).toEqual({ method: "subscribeTokenTrade", keys: [UNICORN] }),
    );
    expect(pumpPortal.received.slice(-3, -1)).toEqual([
      { method: "subscribeNewToken" },
      { method: "subscribeMigration" },
    ]);
    expect(await feed.recentCreates(1)).toHaveLength(1);
  });

  it("reads LaunchLab launches from the program's logs over RPC", async () => {
    const before = rpcWs.received.length;
    const feed = start();
    await eventually(() => expect(rpcWs.received).toHaveLength(before + 1));
    expect(rpcWs.received.at(-1)).toMatchObject({
      method: "logsSubscribe",
      params: [{ mentions: ["LanMV9sAd7wArD4vJFi2qDdfnVhFxYSUg6eADduJ3uj"] }, { commitment: "confirmed" }],
    });
    for (const line of fixtureLines("rpc-launchlab-logs.jsonl")) rpcWs.broadcast(line);
    await eventually(async () => expect(await feed.recentLaunchLabLaunches(5)).toHaveLength(1));
    expect((await feed.recentLaunchLabLaunches(5))[0]).toMatchObject({
      kind: "launchlab",
      address: "9Sm7bGBZ3qEwxGgnZ4tpnoD4jm3V3QHe1fPjXXNzYNPv",
      mint: UNICORN,
      name: "Fartcoin",
      symbol: "FARTCOIN",
      createdAt: 1763730000000,
      initialBuySol: 1.05,
      realB: 42.5,
    });
  });

  it("fails reads with an upstream error once a feed has been down too long", async () => {
    const clock = manualClock(1_000);
    const feed = createLiveLaunches({
      clock,
      rpc: createJsonRpc(testHttp("launchlab"), rpcHttp.url),
      rpcWsUrl: "ws://127.0.0.1:9",
      pumpPortalUrl: "ws://127.0.0.1:9",
      staleAfterMs: 60_000,
      socket: { backoff: { baseMs: 5, maxMs: 20 } },
    });
    launches = feed;
    expect(await feed.recentCreates(5)).toEqual([]);
    clock.advance(60_001);
    await expect(feed.recentCreates(5)).rejects.toMatchObject({ status: 502, details: { provider: "pumpportal" } });
    await expect(feed.recentLaunchLabLaunches(5)).rejects.toMatchObject({
      status: 502,
      details: { provider: "launchlab" },
    });
  });
});
