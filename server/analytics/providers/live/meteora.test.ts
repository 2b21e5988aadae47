import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  describeUpstreamFailures,
  fixture,
  type LocalServer,
  reply,
  type SeenRequest,
  startServer,
  testHttp,
} from "../../../../test/support/upstreams.js";
import { manualClock } from "../../clock.js";
import { createJsonRpc } from "./json-rpc.js";
import {
  createMeteoraPools,
  datapiPageSchema,
  datapiPoolSchema,
  legacyPairSchema,
  mapDatapiPool,
  mapLegacyPair,
  mapPositions,
  mapVolumeHistory,
  positionsPnlSchema,
  volumeHistorySchema,
} from "./meteora.js";

const SOL_USDC = "BGm1tav58oGcsQJehL9WXBFXF7D27vZsKefj4xJKD5Y";
const LEGACY_SOL_USDC = "5rCf1DM8LjKTw4YqhnoLcngyZYeNnQqztScTogYHAS6";
const WALLET = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
/** 2025-11-21 13:00 UTC. */
const NOW_S = 1763730000;

describe("mapDatapiPool", () => {
  const [solUsdc, bonkSol, unpriced] = datapiPageSchema.parse(fixture("meteora-pools.json")).data;

  it("maps the documented pool, deriving the active bin from the price", () => {
    expect(mapDatapiPool(datapiPoolSchema.parse(fixture("meteora-pool.json")))).toEqual({
      address: SOL_USDC,
      name: "SOL-USDC",
      tokenX: { mint: "So11111111111111111111111111111111111111112", symbol: "SOL", decimals: 9, priceUsd: 170.12 },
      tokenY: { mint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", symbol: "USDC", decimals: 6, priceUsd: 1 },
      binStep: 10,
      baseFeePct: 0.1,
      currentPrice: 170.12,
      activeBinId: -1772,
      reserveX: 23419.6,
      reserveY: 873286.1,
      tvlUsd: 3689212.07,
      volume24hUsd: 110673622.8,
      fees24hUsd: 57078,
      openPositions: 0,
      createdAt: 1700000000,
    });
    expect(solUsdc && mapDatapiPool(solUsdc)?.address).toBe(SOL_USDC);
  });

  it("reads string numbers, ISO creation times and hour_24 windows, and prices a side from the other", () => {
    const pool = bonkSol && mapDatapiPool(bonkSol);
    expect(pool).toMatchObject({
      currentPrice: 0.0000000985,
      baseFeePct: 1,
      reserveX: 15300000000.5,
      tvlUsd: 2120000,
      volume24hUsd: 860000,
      fees24hUsd: 8600,
      activeBinId: -696,
      createdAt: Date.parse("2024-01-05T12:00:00Z") / 1000,
    });
    expect(pool?.tokenX.priceUsd).toBeCloseTo(0.0000000985 * 142.4, 12);
  });

  it("leaves out a pool with no USD price on either side", () => {
    expect(unpriced && mapDatapiPool(unpriced)).toBeUndefined();
  });
});

describe("mapLegacyPair", () => {
  it("applies the decimals to raw reserves and prices both sides from the TVL", () => {
    const pool = mapLegacyPair(legacyPairSchema.parse(fixture("meteora-legacy-pair.json")), { x: 9, y: 6 });
    expect(pool).toMatchObject({
      address: LEGACY_SOL_USDC,
      tokenX: { symbol: "SOL", decimals: 9 },
      tokenY: { symbol: "USDC", decimals: 6 },
      binStep: 4,
      baseFeePct: 0.04,
      reserveX: 23419.597481996,
      reserveY: 873286.117842,
      tvlUsd: 3689212.0760550606,
      volume24hUsd: 110673622.848341,
      fees24hUsd: 57078.0262906779,
      activeBinId: -5297,
      createdAt: 0,
    });
    expect(pool.tokenY.priceUsd).toBeCloseTo(1, 3);
    expect(pool.reserveX * pool.tokenX.priceUsd + pool.reserveY * pool.tokenY.priceUsd).toBeCloseTo(pool.tvlUsd, 2);
  });
});

describe("mapVolumeHistory", () => {
  it("returns one bucket per UTC day, oldest first, zero where the API has none", () => {
    const body = volumeHistorySchema.parse(fixture("meteora-volume-history.json"));
    expect(mapVolumeHistory(body, 5, NOW_S)).toEqual([
      { timestamp: 1763337600, volumeUsd: 0, feesUsd: 0 },
      { timestamp: 1763424000, volumeUsd: 0, feesUsd: 0 },
      { timestamp: 1763510400, volumeUsd: 41200000.5, feesUsd: 16480.2 },
      { timestamp: 1763596800, volumeUsd: 38900000, feesUsd: 15560 },
      { timestamp: 1763683200, volumeUsd: 12000000, feesUsd: 4800 },
    ]);
  });
});

describe("mapPositions", () => {
  it("keeps open positions with their amounts in token units; missing fees are zero", () => {
    const rows = mapPositions(positionsPnlSchema.parse(fixture("meteora-positions-pnl.json")), SOL_USDC, WALLET);
    expect(rows).toEqual([
      {
        address: "Pos1111111111111111111111111111111111111111",
        pool: SOL_USDC,
        owner: WALLET,
        lowerBinId: -1869,
        upperBinId: -1800,
        amountX: 11.42,
        amountY: 568.65,
        unclaimedFeeX: 0.0123,
        unclaimedFeeY: 1.05,
        createdAt: 1763337600,
      },
      expect.objectContaining({
        address: "Pos2222222222222222222222222222222222222222",
        amountY: 401.13,
        unclaimedFeeX: 0,
        createdAt: undefined,
      }),
    ]);
  });
});

describe("createMeteoraPools against a local server", () => {
  let server: LocalServer;
  let datapiDown = false;
  const routes: Record<string, unknown> = {
    [`/datapi/pools/${SOL_USDC}`]: fixture("meteora-pool.json"),
    [`/datapi/pools/${SOL_USDC}/volume/history`]: fixture("meteora-volume-history.json"),
    "/datapi/pools": fixture("meteora-pools.json"),
    "/datapi/portfolio/open": fixture("meteora-portfolio.json"),
    [`/datapi/positions/${SOL_USDC}/pnl`]: fixture("meteora-positions-pnl.json"),
    [`/legacy/pair/${LEGACY_SOL_USDC}`]: fixture("meteora-legacy-pair.json"),
    "/legacy/pair/all_with_pagination": fixture("meteora-legacy-pairs.json"),
    "/legacy/position_v2/Pos2222222222222222222222222222222222222222": fixture("meteora-legacy-position.json"),
  };
  const rpcAnswer = (req: SeenRequest) => {
    const { method } = req.body as { method: string };
    if (method === "getMultipleAccounts") return fixture("rpc-mints.json");
    return { jsonrpc: "2.0", id: 1, result: [{ pubkey: "a" }, { pubkey: "b" }, { pubkey: "c" }] };
  };
  beforeAll(async () => {
    server = await startServer((req, res) => {
      if (req.url === "/rpc") return reply(res, 200, rpcAnswer(req));
      const path = req.url.split("?")[0] as string;
      if (datapiDown && path.startsWith("/datapi")) return reply(res, 503, {});
      if (path.startsWith("/datapi/pools/"))
        return reply(res, path in routes ? 200 : 400, routes[path] ?? { error: "invalid pool" });
      reply(res, path in routes ? 200 : 404, routes[path] ?? {});
    });
  });
  afterAll(() => server.close());
  const pools = () =>
    createMeteoraPools({
      http: testHttp("meteora", { retries: 0 }),
      rpc: createJsonRpc(testHttp("solana-rpc"), `${server.url}/rpc`),
      clock: manualClock(NOW_S * 1000),
      datapiUrl: `${server.url}/datapi`,
      legacyUrl: `${server.url}/legacy`,
    });

  it("lists pools from the datapi with its sort and query", async () => {
    datapiDown = false;
    const list = await pools().listPools({ query: "SOL", sortBy: "volume", pageSize: 3 });
    expect(list.total).toBe(4821);
    expect(list.pools.map((p) => p.name)).toEqual(["SOL-USDC", "BONK-SOL"]);
    const sent = new URL(server.seen.at(-1)?.url ?? "", server.url).searchParams;
    expect(Object.fromEntries(sent)).toEqual({ page: "1", page_size: "3", sort_by: "volume_24h:desc", query: "SOL" });
  });

  it("reads one pool with its open positions counted on chain, and misses unknown pools", async () => {
    expect(await pools().pool(SOL_USDC)).toMatchObject({ name: "SOL-USDC", openPositions: 3 });
    const count = server.seen.find((r) => (r.body as { method?: string })?.method === "getProgramAccounts");
    expect(count?.body).toMatchObject({
      params: [
        "LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo",
        {
          dataSlice: { offset: 0, length: 0 },
          filters: [{ memcmp: { offset: 0 } }, { memcmp: { offset: 8, bytes: SOL_USDC } }],
        },
      ],
    });
    const scans = () =>
      server.seen.filter((r) => (r.body as { method?: string })?.method === "getProgramAccounts").length;
    const before = scans();
    expect(await pools().pool("Unknown1111111111111111111111111111111111111")).toBeUndefined();
    // an unknown pool (a free 404) costs no scan of the program's accounts
    expect(scans()).toBe(before);
    expect(await pools().volumeHistory("Unknown1111111111111111111111111111111111111", 7)).toEqual([]);
  });

  it("falls back to the legacy host when the datapi fails, reading decimals over RPC", async () => {
    datapiDown = true;
    try {
      const pool = await pools().pool(LEGACY_SOL_USDC);
      expect(pool).toMatchObject({ address: LEGACY_SOL_USDC, reserveX: 23419.597481996, openPositions: 3 });
      const list = await pools().listPools({ sortBy: "apr", pageSize: 2 });
      // The pair whose mint the RPC does not know is left out.
      expect(list.pools.map((p) => p.name)).toEqual(["SOL-USDC"]);
      expect(server.seen.at(-2)?.url).toBe(
        "/legacy/pair/all_with_pagination?page=0&limit=2&sort_key=feetvlratio&order_by=desc",
      );
    } finally {
      datapiDown = false;
    }
  });

  it("reads daily volume history for the requested days", async () => {
    const buckets = await pools().volumeHistory(SOL_USDC, 3);
    expect(buckets.map((b) => b.volumeUsd)).toEqual([41200000.5, 38900000, 12000000]);
    expect(server.seen.at(-1)?.url).toBe(
      `/datapi/pools/${SOL_USDC}/volume/history?timeframe=24h&start_time=1763510400&end_time=${NOW_S}`,
    );
  });

  it("reads a wallet's open positions, and one position by address", async () => {
    const positions = await pools().positionsByOwner(WALLET);
    expect(positions.map((p) => [p.address, p.createdAt])).toEqual([
      ["Pos1111111111111111111111111111111111111111", 1763337600],
      ["Pos2222222222222222222222222222222222222222", Date.parse("2024-04-26T04:36:28Z") / 1000],
    ]);
    const one = await pools().position("Pos2222222222222222222222222222222222222222");
    expect(one).toMatchObject({ pool: SOL_USDC, owner: WALLET, lowerBinId: -1900, amountY: 401.13 });
    expect(await pools().position("Missing111111111111111111111111111111111111")).toBeUndefined();
  });
});

describeUpstreamFailures("createMeteoraPools.volumeHistory", {
  provider: "meteora",
  call: (url, http) =>
    createMeteoraPools({
      http,
      rpc: createJsonRpc(http, url),
      clock: manualClock(NOW_S * 1000),
      datapiUrl: url,
    }).volumeHistory(SOL_USDC, 3),
  valid: (_req, res) => reply(res, 200, fixture("meteora-volume-history.json")),
});
