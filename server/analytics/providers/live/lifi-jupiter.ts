/**
 * Live swap-bridge aggregator (docs/upstreams.md §6): LI.FI for token lookups (`GET /v1/token`) and for
 * every route that leaves a chain or stays on an EVM chain (`GET /v1/quote`, its recommended
 * order), Jupiter for same-chain Solana swaps (`GET /swap/v1/quote` on `api.jup.ag`). Amounts stay
 * raw integers (bigint); USD values are LI.FI's, or token amount × LI.FI's token price for Jupiter,
 * which quotes no prices.
 */
import { z } from "zod";
import type {
  QuoteCost,
  QuoteRecord,
  QuoteRequest,
  QuoteStepRecord,
  SwapBridgeProvider,
  SwapChain,
  SwapTokenRecord,
} from "../swap-bridge.js";
import { fromBaseUnits } from "../swap-bridge.js";
import { numeric, rawAmount, type UpstreamHttp, urlOf } from "./http.js";

export const LIFI_URL = "https://li.quest/v1";
export const JUPITER_URL = "https://api.jup.ag";

/** LI.FI chain ids (Solana has its own large id). */
const LIFI_CHAIN: Record<SwapChain, number> = {
  ethereum: 1,
  optimism: 10,
  polygon: 137,
  base: 8453,
  arbitrum: 42161,
  solana: 1151111081099710,
};
const CHAIN_OF = new Map(Object.entries(LIFI_CHAIN).map(([chain, id]) => [id, chain as SwapChain]));

/**
 * LI.FI requires a sender, and a receiver when the route changes chain family. Without a wallet,
 * the route is priced for an example wallet: LI.FI's documentation wallet on EVM, the contract's
 * example wallet on Solana. The route does not depend on who sends.
 */
const EXAMPLE_WALLET = {
  evm: "0x552008c0f6870c2f77e5cC1d2eb9bdff03e30Ea0",
  solana: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
};
const walletFamily = (chain: SwapChain) => (chain === "solana" ? "solana" : "evm");

/** Jupiter estimates no duration: a swap is final after 32 slots of about 400 ms. */
const SOLANA_FINALITY_S = 13;

const lifiChain = z.number().transform((id, ctx) => {
  const chain = CHAIN_OF.get(id);
  if (!chain) {
    ctx.addIssue({ code: "custom", message: `unexpected chain id ${id}` });
    return z.NEVER;
  }
  return chain;
});

export const lifiTokenSchema = z.object({
  address: z.string(),
  symbol: z.string(),
  decimals: z.number().int().nonnegative(),
  chainId: lifiChain,
  priceUSD: numeric.nullish(),
});

const cost = z.object({ amount: rawAmount, amountUSD: numeric.nullish(), token: lifiTokenSchema });
const step = z.object({
  type: z.string(),
  tool: z.string(),
  action: z.object({ fromChainId: lifiChain, toChainId: lifiChain }),
});

export const lifiQuoteSchema = step.extend({
  action: step.shape.action.extend({ fromToken: lifiTokenSchema, toToken: lifiTokenSchema }),
  estimate: z.object({
    fromAmount: rawAmount,
    toAmount: rawAmount,
    toAmountMin: rawAmount,
    fromAmountUSD: numeric.nullish(),
    toAmountUSD: numeric.nullish(),
    executionDuration: numeric,
    feeCosts: z.array(cost.extend({ name: z.string() })).nullish(),
    gasCosts: z.array(cost.extend({ type: z.string() })).nullish(),
  }),
  includedSteps: z.array(step).nullish(),
});

export const jupiterQuoteSchema = z.object({
  inputMint: z.string(),
  outputMint: z.string(),
  inAmount: rawAmount,
  outAmount: rawAmount,
  otherAmountThreshold: rawAmount,
  routePlan: z.array(
    z.object({
      swapInfo: z.object({
        label: z.string().nullish(),
        feeAmount: rawAmount.nullish(),
        feeMint: z.string().nullish(),
      }),
    }),
  ),
});

export function mapLifiToken(token: z.infer<typeof lifiTokenSchema>): SwapTokenRecord {
  // LI.FI lists some tokens without a price; they are valued at 0.
  return {
    chain: token.chainId,
    address: token.address,
    symbol: token.symbol,
    decimals: token.decimals,
    priceUsd: token.priceUSD ?? 0,
  };
}

const usdOf = (amount: bigint, token: SwapTokenRecord) => fromBaseUnits(amount, token.decimals) * token.priceUsd;

function costOf(name: string, c: z.infer<typeof cost>): QuoteCost {
  return { name, amountUsd: c.amountUSD ?? usdOf(c.amount, mapLifiToken(c.token)) };
}

/** A LI.FI quote. Protocol steps (fee collection) are not route steps; a single-step quote is its own step. */
export function mapLifiQuote(quote: z.infer<typeof lifiQuoteSchema>): QuoteRecord {
  const fromToken = mapLifiToken(quote.action.fromToken);
  const toToken = mapLifiToken(quote.action.toToken);
  const { estimate } = quote;
  const steps: QuoteStepRecord[] = (quote.includedSteps ?? [quote]).flatMap((s) =>
    s.type === "swap" || s.type === "cross"
      ? [{ type: s.type, tool: s.tool, fromChain: s.action.fromChainId, toChain: s.action.toChainId }]
      : [],
  );
  return {
    tool: quote.tool,
    fromToken,
    toToken,
    fromAmount: estimate.fromAmount,
    toAmount: estimate.toAmount,
    toAmountMin: estimate.toAmountMin,
    fromAmountUsd: estimate.fromAmountUSD ?? usdOf(estimate.fromAmount, fromToken),
    toAmountUsd: estimate.toAmountUSD ?? usdOf(estimate.toAmount, toToken),
    feeCosts: (estimate.feeCosts ?? []).map((c) => costOf(c.name, c)),
    gasCosts: (estimate.gasCosts ?? []).map((c) => costOf(`${c.type.toLowerCase()} gas`, c)),
    executionDurationS: estimate.executionDuration,
    steps,
  };
}

/**
 * A Jupiter quote for tokens already looked up. Route fees are valued when charged in the input or
 * output token (others have no known price); Jupiter quotes no network fee.
 */
export function mapJupiterQuote(
  quote: z.infer<typeof jupiterQuoteSchema>,
  fromToken: SwapTokenRecord,
  toToken: SwapTokenRecord,
): QuoteRecord {
  const known = new Map([fromToken, toToken].map((t) => [t.address, t]));
  const feeCosts = quote.routePlan.flatMap(({ swapInfo }): QuoteCost[] => {
    const token = swapInfo.feeMint ? known.get(swapInfo.feeMint) : undefined;
    return token && swapInfo.feeAmount
      ? [{ name: `${swapInfo.label ?? "jupiter"} swap fee`, amountUsd: usdOf(swapInfo.feeAmount, token) }]
      : [];
  });
  return {
    tool: "jupiter",
    fromToken,
    toToken,
    fromAmount: quote.inAmount,
    toAmount: quote.outAmount,
    toAmountMin: quote.otherAmountThreshold,
    fromAmountUsd: usdOf(quote.inAmount, fromToken),
    toAmountUsd: usdOf(quote.outAmount, toToken),
    feeCosts,
    gasCosts: [],
    executionDurationS: SOLANA_FINALITY_S,
    steps: quote.routePlan.map(({ swapInfo }) => ({
      type: "swap",
      tool: swapInfo.label ?? "jupiter",
      fromChain: "solana",
      toChain: "solana",
    })),
  };
}

export interface LifiJupiterOptions {
  lifi: UpstreamHttp;
  jupiter: UpstreamHttp;
  lifiUrl?: string;
  jupiterUrl?: string;
  /** Sent as `x-lifi-api-key` / `x-api-key` when set. */
  lifiKey?: string;
  jupiterKey?: string;
}

export function createLifiJupiter({
  lifi,
  jupiter,
  lifiUrl = LIFI_URL,
  jupiterUrl = JUPITER_URL,
  lifiKey,
  jupiterKey,
}: LifiJupiterOptions): SwapBridgeProvider {
  const lifiHeaders: Record<string, string> = lifiKey ? { "x-lifi-api-key": lifiKey } : {};
  const jupiterHeaders: Record<string, string> = jupiterKey ? { "x-api-key": jupiterKey } : {};

  async function jupiterQuote(request: QuoteRequest): Promise<QuoteRecord | undefined> {
    const url = urlOf(jupiterUrl, "/swap/v1/quote", {
      inputMint: request.fromToken.address,
      outputMint: request.toToken.address,
      amount: request.fromAmount.toString(),
      slippageBps: Math.round(request.slippage * 10_000),
      swapMode: "ExactIn",
    });
    // Jupiter answers 400 when no route exists (for instance an amount too small to route).
    const quote = await jupiter.jsonOrMissing({ url, headers: jupiterHeaders }, jupiterQuoteSchema, [400, 404]);
    return quote && mapJupiterQuote(quote, request.fromToken, request.toToken);
  }

  async function lifiQuote(request: QuoteRequest): Promise<QuoteRecord | undefined> {
    const fromAddress = request.fromAddress ?? EXAMPLE_WALLET[walletFamily(request.fromChain)];
    const crossFamily = walletFamily(request.fromChain) !== walletFamily(request.toChain);
    const url = urlOf(lifiUrl, "/quote", {
      fromChain: LIFI_CHAIN[request.fromChain],
      toChain: LIFI_CHAIN[request.toChain],
      fromToken: request.fromToken.address,
      toToken: request.toToken.address,
      fromAmount: request.fromAmount.toString(),
      fromAddress,
      toAddress: crossFamily ? EXAMPLE_WALLET[walletFamily(request.toChain)] : undefined,
      slippage: request.slippage,
    });
    // LI.FI answers 404 when it finds no route.
    const quote = await lifi.jsonOrMissing({ url, headers: lifiHeaders }, lifiQuoteSchema);
    return quote && mapLifiQuote(quote);
  }

  return {
    source: "lifi",
    async token(chain, symbolOrAddress) {
      const url = urlOf(lifiUrl, "/token", { chain: LIFI_CHAIN[chain], token: symbolOrAddress.trim() });
      // An unknown token is a 404 (or a 400 for a malformed address).
      const token = await lifi.jsonOrMissing({ url, headers: lifiHeaders }, lifiTokenSchema, [400, 404]);
      return token && mapLifiToken(token);
    },
    quote: (request) =>
      request.fromChain === "solana" && request.toChain === "solana" ? jupiterQuote(request) : lifiQuote(request),
  };
}
