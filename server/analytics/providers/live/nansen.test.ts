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
  balancesSchema,
  createNansenLabels,
  flowIntelSchema,
  labelsSchema,
  leaderboardSchema,
  mapBalances,
  mapFlowIntel,
  mapLabels,
  mapLeaderboard,
  mapPnlSummary,
  mapScreener,
  mapTrades,
  netflowSchema,
  pnlRowsSchema,
  pnlSummarySchema,
  roleLabel,
  screenerSchema,
  transactionsSchema,
} from "./nansen.js";

const WALLET = { chain: "solana" as const, address: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM" };
const JUP = "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN";
const NOW = Date.parse("2025-11-21T13:00:00Z");
const pnlRows = pnlRowsSchema.parse(fixture("nansen-pnl.json"));

describe("roleLabel and mapLabels", () => {
  it("names every smart-trader label Smart Money, strips emoji, keeps other names and categories", () => {
    expect(roleLabel("🤓 Smart Trader [4Be9Cv]")).toBe("Smart Money");
    expect(mapLabels(labelsSchema.parse(fixture("nansen-labels.json")))).toEqual([
      { label: "Smart Money", category: "smart_money" },
      { label: "Fund", category: "fund" },
      { label: "Whale", category: "behavioral" },
      { label: "DEX Trader", category: "behavioral" },
      { label: "Binance Hot Wallet", category: "others" },
    ]);
    expect(mapLabels(labelsSchema.parse({ data: [] }))).toEqual([]);
  });
});

describe("mapPnlSummary", () => {
  it("takes realized PnL, trades and win rate from the summary, unrealized PnL and capital from the token rows", () => {
    const summary = pnlSummarySchema.parse(fixture("nansen-pnl-summary.json"));
    expect(mapPnlSummary(summary, pnlRows)).toEqual({
      realizedPnlUsd: 48210.75,
      unrealizedPnlUsd: 2400,
      roiPct: ((48210.75 + 2400) / (50000 + 42000 + 8000)) * 100,
      tradedTimes: 212,
      winRate: 0.63,
    });
    expect(mapPnlSummary(pnlSummarySchema.parse({ realized_pnl_usd: 0 }), { data: [] })).toEqual({
      realizedPnlUsd: 0,
      unrealizedPnlUsd: 0,
      roiPct: 0,
      tradedTimes: 0,
      winRate: 0,
    });
  });
});

describe("mapTrades", () => {
  it("reads swaps as buys or sells of their non-quote side and prices their PnL; transfers are left out", () => {
    expect(mapTrades(transactionsSchema.parse(fixture("nansen-transactions.json")), pnlRows)).toEqual([
      {
        tokenSymbol: "JUP",
        tokenAddress: JUP,
        side: "buy",
        valueUsd: 6200,
        timestamp: Date.parse("2025-11-21T12:00:00Z"),
        pnlUsd: 0,
      },
      // Sold 5000 JUP for 3500 USD against an average buy price of 0.5.
      {
        tokenSymbol: "JUP",
        tokenAddress: JUP,
        side: "sell",
        valueUsd: 3500,
        timestamp: Date.parse("2025-11-20T08:30:00Z"),
        pnlUsd: 1000,
      },
      {
        tokenSymbol: "WIF",
        tokenAddress: "EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm",
        side: "buy",
        valueUsd: 900,
        timestamp: Date.parse("2025-11-18T00:00:00Z"),
        pnlUsd: 0,
      },
    ]);
  });
});

describe("mapBalances", () => {
  it("maps amounts, with string amounts and null values", () => {
    expect(mapBalances(balancesSchema.parse(fixture("nansen-balances.json")))).toEqual([
      { tokenSymbol: "JUP", tokenAddress: JUP, amount: 40000, valueUsd: 24800 },
      { tokenSymbol: "SOL", tokenAddress: "So11111111111111111111111111111111111111112", amount: 12.5, valueUsd: 0 },
    ]);
  });
});

describe("mapFlowIntel", () => {
  it("splits each category's net flow by its sign and keeps wallet counts", () => {
    expect(mapFlowIntel(flowIntelSchema.parse(fixture("nansen-flow-intel.json")))).toEqual({
      smartTrader: { netFlowUsd: 48200.3, buyVolumeUsd: 48200.3, sellVolumeUsd: 0, walletCount: 10 },
      whale: { netFlowUsd: 250000, buyVolumeUsd: 250000, sellVolumeUsd: 0, walletCount: 2 },
      publicFigure: { netFlowUsd: -1200.5, buyVolumeUsd: 0, sellVolumeUsd: 1200.5, walletCount: 2 },
    });
    expect(mapFlowIntel({ data: [] })).toBeUndefined();
  });
});

describe("mapScreener", () => {
  const netflow = netflowSchema.parse(fixture("nansen-netflow.json"));
  const screener = screenerSchema.parse(fixture("nansen-screener.json"));

  it("joins smart-money flows with screener prices, for the role's chains only", () => {
    expect(mapScreener(netflow, screener, "7d")).toEqual([
      {
        chain: "solana",
        tokenAddress: JUP,
        tokenSymbol: "JUP",
        priceUsd: 0.62,
        marketCapUsd: 1891000000,
        tokenAgeDays: 661,
        smartMoneyNetflowUsd: 182000.5,
        smartMoneyTraders: 34,
        whaleTraders: 0,
      },
      {
        chain: "ethereum",
        tokenAddress: "0x6982508145454Ce325dDbE47a25d4ec3d2311933",
        tokenSymbol: "PEPE",
        priceUsd: 0.0000094,
        marketCapUsd: 0,
        tokenAgeDays: 953.5,
        smartMoneyNetflowUsd: 0,
        smartMoneyTraders: 0,
        whaleTraders: 0,
      },
    ]);
    expect(mapScreener(netflow, screener, "1d")[1]?.smartMoneyNetflowUsd).toBe(-8000);
  });
});

describe("mapLeaderboard", () => {
  it("sums each trader's per-token rows", () => {
    const board = leaderboardSchema.parse(fixture("nansen-leaderboard.json"));
    const second = leaderboardSchema.parse({
      data: [
        {
          trader_address: "4Be9CvxqHW6BYiRAxW9Q3xu1ycTMWaL5z8NX4HR3ha7t",
          pnl_usd_realised: -2000,
          bought_usd: 10000,
          nof_buys: 5,
        },
      ],
    });
    const [smart, plain] = mapLeaderboard([board, second]);
    expect(smart).toEqual({
      traderAddress: "4Be9CvxqHW6BYiRAxW9Q3xu1ycTMWaL5z8NX4HR3ha7t",
      labels: ["Smart Money"],
      realizedPnlUsd: 50000,
      unrealizedPnlUsd: 8000,
      roiPct: (58000 / 230000) * 100,
      tradedTimes: 60,
      winRate: 0.5,
    });
    expect(plain).toMatchObject({ labels: [], realizedPnlUsd: -1500, winRate: 0 });
  });
});

describe("createNansenLabels against a local server", () => {
  let server: LocalServer;
  const routes: Record<string, string> = {
    "/api/beta/profiler/address/labels": "nansen-labels.json",
    "/api/v1/profiler/address/pnl-summary": "nansen-pnl-summary.json",
    "/api/v1/profiler/address/pnl": "nansen-pnl.json",
    "/api/v1/profiler/address/transactions": "nansen-transactions.json",
    "/api/v1/profiler/address/current-balance": "nansen-balances.json",
    "/api/v1/tgm/flow-intelligence": "nansen-flow-intel.json",
    "/api/v1/smart-money/netflow": "nansen-netflow.json",
    "/api/v1/token-screener": "nansen-screener.json",
    "/api/v1/tgm/pnl-leaderboard": "nansen-leaderboard.json",
  };
  beforeAll(async () => {
    server = await startServer((req, res) => {
      const name = routes[req.url];
      if ((req.body as { token_address?: string })?.token_address === "unknown")
        return reply(res, 404, { message: "Token not found" });
      reply(res, name ? 200 : 404, name ? fixture(name) : {});
    });
  });
  afterAll(() => server.close());
  const nansen = () =>
    createNansenLabels({
      http: testHttp("nansen"),
      clock: manualClock(NOW),
      apiKey: "nansen-secret",
      baseUrl: server.url,
    });
  const last = () => server.seen.at(-1);

  it("posts the wallet with the apiKey header and maps every profiler call", async () => {
    const p = nansen();
    expect(await p.labels(WALLET)).toHaveLength(5);
    expect(last()?.headers.apikey).toBe("nansen-secret");
    expect(last()?.body).toEqual({ parameters: WALLET, pagination: { page: 1, per_page: 100 } });
    expect((await p.pnlSummary(WALLET, "30d")).realizedPnlUsd).toBe(48210.75);
    expect(server.seen.find((r) => r.url.endsWith("/pnl-summary"))?.body).toEqual({
      ...WALLET,
      date: { from: "2025-10-22T13:00:00.000Z", to: "2025-11-21T13:00:00.000Z" },
    });
    expect(await p.trades(WALLET, 2)).toHaveLength(2);
    expect(await p.balances(WALLET)).toHaveLength(2);
    expect(await p.firstTransactionAt(WALLET)).toBe(Date.parse("2025-11-21T12:00:00Z"));
    expect(last()?.body).toMatchObject({
      order_by: [{ field: "block_timestamp", direction: "ASC" }],
      pagination: { per_page: 1 },
    });
  });

  it("reads flows, the screener and the leaderboard; an unknown token has no flows", async () => {
    const p = nansen();
    expect((await p.flowIntelligence({ chain: "solana", tokenAddress: JUP }, "1h"))?.whale.walletCount).toBe(2);
    expect(last()?.body).toEqual({ token_address: JUP, chain: "solana", timeframe: "1h" });
    expect(await p.flowIntelligence({ chain: "solana", tokenAddress: "unknown" }, "1h")).toBeUndefined();
    expect(await p.tokenScreener(["solana", "ethereum"], "7d")).toHaveLength(2);
    const board = await p.pnlLeaderboard("solana", "30d");
    // The netflow fixture names three tokens: three per-token boards of the same two traders.
    expect(server.seen.filter((r) => r.url === "/api/v1/tgm/pnl-leaderboard")).toHaveLength(3);
    expect(board.map((r) => r.tradedTimes)).toEqual([165, 15]);
  });

  it("answers a trade whose time it cannot read as Nansen's failure (502), not a 500", async () => {
    const odd = await startServer((_req, res) =>
      reply(res, 200, { data: [{ block_timestamp: "yesterday", tokens_sent: [], tokens_received: [] }] }),
    );
    try {
      const p = createNansenLabels({
        http: testHttp("nansen"),
        clock: manualClock(NOW),
        apiKey: "k",
        baseUrl: odd.url,
      });
      await expect(p.firstTransactionAt(WALLET)).rejects.toMatchObject({
        status: 502,
        details: { provider: "nansen" },
      });
    } finally {
      await odd.close();
    }
  });

  it("refuses windows Nansen's netflow does not serve", async () => {
    await expect(nansen().tokenScreener(["solana"], "12h")).rejects.toMatchObject({
      status: 502,
      details: { provider: "nansen" },
    });
  });
});

describeUpstreamFailures("createNansenLabels.balances", {
  provider: "nansen",
  call: (url, http) =>
    createNansenLabels({ http, clock: manualClock(NOW), apiKey: "k", baseUrl: url }).balances(WALLET),
  valid: (_req, res) => reply(res, 200, fixture("nansen-balances.json")),
});
