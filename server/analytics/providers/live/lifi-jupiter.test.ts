import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  describeUpstreamFailures,
  fixture,
  type LocalServer,
  reply,
  startServer,
  testHttp,
} from "../../../../test/support/upstreams.js";
import type { QuoteRequest, SwapTokenRecord } from "../swap-bridge.js";
import {
  createLifiJupiter,
  jupiterQuoteSchema,
  lifiQuoteSchema,
  lifiTokenSchema,
  mapJupiterQuote,
  mapLifiQuote,
  mapLifiToken,
} from "./lifi-jupiter.js";

const SOL: SwapTokenRecord = {
  chain: "solana",
  address: "So11111111111111111111111111111111111111112",
  symbol: "SOL",
  decimals: 9,
  priceUsd: 170,
};
const USDC_SOL: SwapTokenRecord = {
  chain: "solana",
  address: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
  symbol: "USDC",
  decimals: 6,
  priceUsd: 1,
};
const USDC_ETH = mapLifiToken(lifiTokenSchema.parse(fixture("lifi-token.json")));
/** 250 USDC from Ethereum to Solana, or a variation of it. */
const request = (over: Partial<QuoteRequest> = {}): QuoteRequest => ({
  fromChain: "ethereum",
  toChain: "solana",
  fromToken: USDC_ETH,
  toToken: USDC_SOL,
  fromAmount: 250000000n,
  slippage: 0.005,
  ...over,
});
/** 0.1 SOL to USDC on Solana: a Jupiter quote. */
const solanaSwap = request({
  fromChain: "solana",
  fromToken: SOL,
  toToken: USDC_SOL,
  fromAmount: 100000000n,
  slippage: 0.01,
});

describe("mapLifiToken", () => {
  it("maps the chain id and the string price", () => {
    expect(USDC_ETH).toEqual({
      chain: "ethereum",
      address: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48",
      symbol: "USDC",
      decimals: 6,
      priceUsd: 0.9998,
    });
  });

  it("rejects a chain the role does not route", () => {
    expect(lifiTokenSchema.safeParse({ ...fixture<object>("lifi-token.json"), chainId: 56 }).success).toBe(false);
  });
});

describe("mapLifiQuote", () => {
  it("maps raw amounts, USD strings, fees, gas and route steps (protocol steps left out)", () => {
    expect(mapLifiQuote(lifiQuoteSchema.parse(fixture("lifi-quote.json")))).toEqual({
      tool: "mayan",
      fromToken: USDC_ETH,
      toToken: {
        chain: "solana",
        address: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
        symbol: "USDC",
        decimals: 6,
        priceUsd: 1,
      },
      fromAmount: 250000000n,
      toAmount: 249412000n,
      toAmountMin: 248164940n,
      fromAmountUsd: 249.95,
      toAmountUsd: 249.41,
      feeCosts: [
        { name: "LIFI Fixed Fee", amountUsd: 0.62 },
        { name: "Mayan relayer fee", amountUsd: expect.closeTo(0.29994, 8) },
      ],
      gasCosts: [{ name: "send gas", amountUsd: 8.01 }],
      executionDurationS: 42,
      steps: [{ type: "cross", tool: "mayan", fromChain: "ethereum", toChain: "solana" }],
    });
  });

  it("values amounts without USD figures from token prices, and takes a single-step quote as its own step", () => {
    const quote = mapLifiQuote(lifiQuoteSchema.parse(fixture("lifi-quote-minimal.json")));
    expect(quote).toMatchObject({
      tool: "1inch",
      toAmount: 3171000000n,
      fromAmountUsd: 3180,
      toAmountUsd: 0,
      feeCosts: [],
      gasCosts: [],
      executionDurationS: 20,
      steps: [{ type: "swap", tool: "1inch", fromChain: "base", toChain: "base" }],
    });
  });
});

describe("mapJupiterQuote", () => {
  it("maps amounts, values fees charged in known tokens, and lists the route's venues", () => {
    const quote = mapJupiterQuote(jupiterQuoteSchema.parse(fixture("jupiter-quote.json")), SOL, USDC_SOL);
    expect(quote).toMatchObject({
      tool: "jupiter",
      fromToken: SOL,
      toToken: USDC_SOL,
      toAmountMin: 16886885n,
      gasCosts: [],
      executionDurationS: 13,
    });
    expect([quote.fromAmount, quote.toAmount, quote.fromAmountUsd, quote.toAmountUsd]).toEqual([
      100000000n,
      17057460n,
      17,
      17.05746,
    ]);
    // The third venue charged its fee in a token without a known price.
    expect(quote.feeCosts.map((f) => [f.name, Math.round(f.amountUsd * 1e6) / 1e6])).toEqual([
      ["Meteora DLMM swap fee", 0.001285],
      ["Whirlpool swap fee", 0.0034],
    ]);
    expect(quote.steps.map((s) => s.tool)).toEqual(["Meteora DLMM", "Whirlpool", "Obscure"]);
  });
});

describe("createLifiJupiter against a local server", () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startServer((req, res) => {
      const path = req.url.split("?")[0];
      if (path === "/lifi/token")
        return req.url.includes("token=NOPE")
          ? reply(res, 404, { code: 1003 })
          : reply(res, 200, fixture("lifi-token.json"));
      if (path === "/lifi/quote")
        return req.url.includes("fromAmount=1&")
          ? reply(res, 404, { code: 1002 })
          : reply(res, 200, fixture("lifi-quote.json"));
      if (path === "/jup/swap/v1/quote") return reply(res, 200, fixture("jupiter-quote.json"));
      reply(res, 404, {});
    });
  });
  afterAll(() => server.close());
  const provider = (keys: { lifiKey?: string; jupiterKey?: string } = {}) =>
    createLifiJupiter({
      lifi: testHttp("lifi"),
      jupiter: testHttp("jupiter"),
      lifiUrl: `${server.url}/lifi`,
      jupiterUrl: `${server.url}/jup`,
      ...keys,
    });

  it("looks tokens up on LI.FI by chain id, with the key header when set", async () => {
    expect(await provider({ lifiKey: "lifi-secret" }).token("ethereum", " usdc ")).toEqual(USDC_ETH);
    expect(server.seen.at(-1)?.url).toBe("/lifi/token?chain=1&token=usdc");
    expect(server.seen.at(-1)?.headers["x-lifi-api-key"]).toBe("lifi-secret");
    expect(await provider().token("ethereum", "NOPE")).toBeUndefined();
  });

  it("quotes cross-chain routes on LI.FI, with example wallets when the caller gives none", async () => {
    expect((await provider().quote(request()))?.tool).toBe("mayan");
    const sent = Object.fromEntries(new URL(server.seen.at(-1)?.url ?? "", server.url).searchParams);
    expect(sent).toEqual({
      fromChain: "1",
      toChain: "1151111081099710",
      fromToken: USDC_ETH.address,
      toToken: USDC_SOL.address,
      fromAmount: "250000000",
      fromAddress: "0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0",
      toAddress: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
      slippage: "0.005",
    });
    expect(await provider().quote(request({ fromAmount: 1n }))).toBeUndefined();
  });

  it("quotes same-chain Solana swaps on Jupiter with its key header", async () => {
    const quote = await provider({ jupiterKey: "jup-secret" }).quote(solanaSwap);
    expect(quote?.tool).toBe("jupiter");
    expect(server.seen.at(-1)?.url).toBe(
      `/jup/swap/v1/quote?inputMint=${SOL.address}&outputMint=${USDC_SOL.address}&amount=100000000&slippageBps=100&swapMode=ExactIn`,
    );
    expect(server.seen.at(-1)?.headers["x-api-key"]).toBe("jup-secret");
  });
});

describeUpstreamFailures("createLifiJupiter.quote (LI.FI)", {
  provider: "lifi",
  call: (url, lifi) => createLifiJupiter({ lifi, jupiter: lifi, lifiUrl: url }).quote(request()),
  valid: (_req, res) => reply(res, 200, fixture("lifi-quote.json")),
});

describeUpstreamFailures("createLifiJupiter.quote (Jupiter)", {
  provider: "jupiter",
  call: (url, jupiter) => createLifiJupiter({ lifi: jupiter, jupiter, jupiterUrl: url }).quote(solanaSwap),
  valid: (_req, res) => reply(res, 200, fixture("jupiter-quote.json")),
});
