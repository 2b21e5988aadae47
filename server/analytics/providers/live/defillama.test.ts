import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  describeUpstreamFailures,
  fixture,
  type LocalServer,
  reply,
  startServer,
  testHttp,
} from "../../../../test/support/upstreams.js";
import { manualClock } from "../../clock.js";
import {
  chainsSchema,
  createDefiLlamaTvl,
  mapChains,
  mapProtocol,
  mapYieldPools,
  protocolsSchema,
  yieldsSchema,
} from "./defillama.js";

const chains = chainsSchema.parse(fixture("defillama-chains.json"));
const protocols = protocolsSchema.parse(fixture("defillama-protocols.json"));
const yields = yieldsSchema.parse(fixture("defillama-yields.json"));

describe("mapChains", () => {
  it("keeps name, TVL and gas token, with null and missing symbols and string TVLs", () => {
    expect(mapChains(chains)).toEqual([
      { name: "Ethereum", tvlUsd: 52875523609.47606, tokenSymbol: "ETH" },
      // a rollup paying gas in ETH, whatever the aggregator names (here nothing)
      { name: "Arbitrum", tvlUsd: 990422914.845172, tokenSymbol: "ETH" },
      { name: "Solana", tvlUsd: 9200000000, tokenSymbol: "SOL" },
      { name: "SKALE", tvlUsd: 6100000.5, tokenSymbol: null },
    ]);
  });
});

describe("mapProtocol", () => {
  it("finds by slug or name and keeps only plain chain TVLs", () => {
    const aave = {
      slug: "aave-v3",
      name: "Aave V3",
      chains: [
        { name: "Ethereum", tvlUsd: 21400000000 },
        { name: "Arbitrum", tvlUsd: 710000000 },
        { name: "Base", tvlUsd: 620000000 },
      ],
    };
    expect(mapProtocol(protocols, "aave-v3")).toEqual(aave);
    expect(mapProtocol(protocols, " AAVE V3 ")).toEqual(aave);
  });

  it("reads string TVLs, tolerates a missing chainTvls, and misses unknown protocols", () => {
    expect(mapProtocol(protocols, "jito")?.chains).toEqual([{ name: "Solana", tvlUsd: 2410000000.25 }]);
    expect(mapProtocol(protocols, "brand-new")?.chains).toEqual([]);
    expect(mapProtocol(protocols, "nope")).toBeUndefined();
  });
});

describe("mapYieldPools", () => {
  const pools = mapYieldPools(yields);

  it("maps a documented pool, with null reward tokens as none", () => {
    expect(pools[0]).toEqual({
      id: "747c1d2a-c668-4682-b9f9-296708a3dd90",
      symbol: "STETH",
      project: "lido",
      chain: "Ethereum",
      apy: 2.84,
      apyBase: 2.84,
      apyReward: null,
      tvlUsd: 32493036117,
      stablecoin: false,
      ilRisk: "no",
      exposure: "single",
      rewardTokens: [],
    });
    expect(pools[1]?.rewardTokens).toEqual(["0x940181a94A35A4569E4529A3CDfB74e38FD98631"]);
  });

  it("sums a null APY from its parts and derives missing flags", () => {
    expect(pools[2]).toMatchObject({ apy: 6.2, tvlUsd: 41700000.5, exposure: "multi", ilRisk: "no", stablecoin: true });
  });

  it("leaves out pools without any APY figure", () => {
    expect(pools.map((p) => p.id)).not.toContain("no-apy-pool");
    expect(pools).toHaveLength(3);
  });
});

describe("createDefiLlamaTvl against a local server", () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startServer((req, res) => {
      const body: Record<string, unknown> = {
        "/api/v2/chains": fixture("defillama-chains.json"),
        "/api/protocols": fixture("defillama-protocols.json"),
        "/yields/pools": fixture("defillama-yields.json"),
      };
      reply(res, req.url in body ? 200 : 404, body[req.url] ?? {});
    });
  });
  afterAll(() => server.close());

  it("serves every method from its host, downloading the protocol list once per ten minutes", async () => {
    const clock = manualClock(0);
    const tvl = createDefiLlamaTvl({
      http: testHttp("defillama"),
      clock,
      apiUrl: `${server.url}/api`,
      yieldsUrl: `${server.url}/yields`,
    });
    expect(tvl.source).toBe("defillama");
    expect(await tvl.chains()).toHaveLength(4);
    expect((await tvl.protocol("lido"))?.chains).toEqual([{ name: "Ethereum", tvlUsd: 19800000000 }]);
    expect(await tvl.protocol("jito")).toBeDefined();
    expect(await tvl.yieldPools()).toHaveLength(3);
    expect(server.seen.filter((r) => r.url === "/api/protocols")).toHaveLength(1);
    clock.advance(10 * 60_000);
    await tvl.protocol("lido");
    expect(server.seen.filter((r) => r.url === "/api/protocols")).toHaveLength(2);
  });
});

describeUpstreamFailures("createDefiLlamaTvl.chains", {
  provider: "defillama",
  call: (url, http) => createDefiLlamaTvl({ http, clock: manualClock(0), apiUrl: url }).chains(),
  valid: (_req, res) => reply(res, 200, fixture("defillama-chains.json")),
});

describeUpstreamFailures("createDefiLlamaTvl.yieldPools", {
  provider: "defillama",
  call: (url, http) => createDefiLlamaTvl({ http, clock: manualClock(0), yieldsUrl: url }).yieldPools(),
  valid: (_req, res) => reply(res, 200, fixture("defillama-yields.json")),
});
