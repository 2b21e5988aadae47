/**
 * Embedded swap-bridge aggregator: the real addresses of the common tokens on the six chains, and
 * routes through the bridges that serve them (mayan and allbridge to and from Solana, across and
 * stargate between EVM chains, cctp for USDC everywhere), with Jupiter or 1inch for same-chain swaps.
 * Each tool has its own fee, depth and duration; gas on the source chain drifts by the hour and
 * token prices by the UTC day, deterministically from the seed. The quote is the best route the way
 * an aggregator's recommended order weighs it: the most value received, net of source gas and of
 * the time the funds spend in flight (`TIME_COST`).
 */
import type { Clock } from "../../clock.js";
import {
  fromBaseUnits,
  type QuoteCost,
  type QuoteRecord,
  type QuoteStepRecord,
  type SwapBridgeProvider,
  type SwapChain,
  type SwapTokenRecord,
  toBaseUnits,
} from "../swap-bridge.js";
import { rng } from "./random.js";

const NATIVE = "0x0000000000000000000000000000000000000000";

const TOKENS: Record<SwapChain, [symbol: string, address: string, decimals: number][]> = {
  ethereum: [
    ["ETH", NATIVE, 18],
    ["WETH", "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2", 18],
    ["USDC", "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", 6],
    ["USDT", "0xdAC17F958D2ee523a2206206994597C13D831ec7", 6],
  ],
  base: [
    ["ETH", NATIVE, 18],
    ["WETH", "0x4200000000000000000000000000000000000006", 18],
    ["USDC", "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", 6],
    ["USDT", "0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2", 6],
  ],
  arbitrum: [
    ["ETH", NATIVE, 18],
    ["WETH", "0x82aF49447D8a07e3bd95BD0d56f35241523fBab1", 18],
    ["USDC", "0xaf88d065e77c8cC2239327C5EDb3A432268e5831", 6],
    ["USDT", "0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9", 6],
    ["ARB", "0x912CE59144191C1204E64559FE8253a0e49E6548", 18],
  ],
  optimism: [
    ["ETH", NATIVE, 18],
    ["WETH", "0x4200000000000000000000000000000000000006", 18],
    ["USDC", "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85", 6],
    ["USDT", "0x94b008aA00579c1307B0EF2c499aD98a8ce58e58", 6],
    ["OP", "0x4200000000000000000000000000000000000042", 18],
  ],
  polygon: [
    ["POL", NATIVE, 18],
    ["WETH", "0x7ceB23fD6bC0adD59E62ac25578270cFf1b9f619", 18],
    ["USDC", "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359", 6],
    ["USDT", "0xc2132D05D31c914a87C6611C10748AEb04B58e8F", 6],
  ],
  solana: [
    ["SOL", "So11111111111111111111111111111111111111112", 9],
    ["USDC", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", 6],
    ["USDT", "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB", 6],
    ["JitoSOL", "J1toso1uCk3RLmjorhTtrVwY9HJ7X8V9yYac6Y7kGCPn", 9],
    ["JUP", "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN", 6],
    ["BONK", "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263", 5],
    ["WIF", "EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm", 6],
  ],
};

/** Reference USD price, daily price swing, swap liquidity depth (USD) and DEX fee (percent) per token. */
const MARKET: Record<string, { price: number; swing: number; depth: number; dexFeePct: number }> = {
  USDC: { price: 1, swing: 0, depth: 200e6, dexFeePct: 0.01 },
  USDT: { price: 1, swing: 0.0003, depth: 120e6, dexFeePct: 0.01 },
  ETH: { price: 3180, swing: 0.03, depth: 90e6, dexFeePct: 0.05 },
  WETH: { price: 3180, swing: 0.03, depth: 90e6, dexFeePct: 0.05 },
  SOL: { price: 142.4, swing: 0.04, depth: 60e6, dexFeePct: 0.05 },
  JitoSOL: { price: 176.2, swing: 0.04, depth: 20e6, dexFeePct: 0.05 },
  POL: { price: 0.21, swing: 0.05, depth: 4e6, dexFeePct: 0.3 },
  ARB: { price: 0.31, swing: 0.05, depth: 6e6, dexFeePct: 0.3 },
  OP: { price: 0.52, swing: 0.05, depth: 4e6, dexFeePct: 0.3 },
  JUP: { price: 0.52, swing: 0.05, depth: 5e6, dexFeePct: 0.25 },
  BONK: { price: 0.0000141, swing: 0.09, depth: 3e6, dexFeePct: 0.25 },
  WIF: { price: 0.71, swing: 0.09, depth: 2e6, dexFeePct: 0.25 },
};

/** Typical gas of one source-chain transaction, USD; it drifts by the hour. */
const GAS_USD: Record<SwapChain, number> = {
  ethereum: 2.8,
  arbitrum: 0.04,
  base: 0.02,
  optimism: 0.02,
  polygon: 0.01,
  solana: 0.002,
};

interface Bridge {
  tool: string;
  /** Tokens it carries; other tokens are swapped into its first one on the way in and out. `*`: any (it swaps inside). */
  tokens: string[];
  /** Whether it serves Solana routes, EVM-to-EVM routes. */
  solana: boolean;
  evm: boolean;
  feePct: number;
  feeUsd: number;
  /** Liquidity behind it, USD (price impact = amount / (amount + depth)); burn-and-mint has none. */
  depth: number;
  /** Seconds to arrival by source chain (finality waits dominate). */
  duration: (from: SwapChain) => number;
}

const BRIDGES: Bridge[] = [
  {
    tool: "mayan",
    tokens: ["*"],
    solana: true,
    evm: false,
    feePct: 0.1,
    feeUsd: 0.3,
    depth: 4e6,
    duration: (f) => (f === "ethereum" ? 75 : 42),
  },
  {
    tool: "allbridge",
    tokens: ["USDC", "USDT"],
    solana: true,
    evm: true,
    feePct: 0.15,
    feeUsd: 0.5,
    depth: 2.5e6,
    duration: (f) => (f === "ethereum" ? 300 : 180),
  },
  {
    tool: "cctp",
    tokens: ["USDC"],
    solana: true,
    evm: true,
    feePct: 0,
    feeUsd: 0.2,
    depth: Number.POSITIVE_INFINITY,
    duration: (f) => (f === "solana" ? 25 : f === "polygon" ? 480 : 1140),
  },
  {
    tool: "across",
    tokens: ["USDC", "USDT", "ETH", "WETH"],
    solana: false,
    evm: true,
    feePct: 0.04,
    feeUsd: 0.08,
    depth: 6e6,
    duration: (f) => (f === "ethereum" ? 120 : 12),
  },
  {
    tool: "stargate",
    tokens: ["USDC", "USDT", "ETH"],
    solana: false,
    evm: true,
    feePct: 0.06,
    feeUsd: 0,
    depth: 25e6,
    duration: (f) => (f === "ethereum" ? 180 : 60),
  },
];

/** What a minute in flight costs: a flat $0.02 plus 0.001 % of the amount (so size favours cheap, slow routes). */
const TIME_COST = { usdPerMinute: 0.02, sharePerMinute: 0.00001 };

const dexOf = (chain: SwapChain) => (chain === "solana" ? "jupiter" : "1inch");
const swapSeconds = (chain: SwapChain) => (chain === "solana" ? 5 : 20);
const impactOf = (usd: number, depth: number) => usd / (usd + depth);
const r4 = (v: number) => Math.round(v * 10_000) / 10_000;

/** A route being priced: USD carried, costs and impact so far. */
interface Leg {
  steps: QuoteStepRecord[];
  fees: QuoteCost[];
  keep: number;
  seconds: number;
  sourceTxs: number;
}

/** The day's token prices and the hour's source-chain gas, drawn from the seed at the clock's time. */
interface Drift {
  priceOf(symbol: string): number;
  gasOf(chain: SwapChain): number;
}

function driftOf(seed: string, clock: Clock): Drift {
  return {
    priceOf(symbol) {
      const m = MARKET[symbol] as (typeof MARKET)[string];
      return (
        m.price *
        (1 + m.swing * (rng(`${seed}:swap-price:${symbol}:${Math.floor(clock.now() / 86_400_000)}`).next() * 2 - 1))
      );
    },
    gasOf: (chain) =>
      GAS_USD[chain] *
      Math.exp(0.35 * (rng(`${seed}:gas:${chain}:${Math.floor(clock.now() / 3_600_000)}`).next() * 2 - 1)),
  };
}

function tokenOf(drift: Drift, chain: SwapChain, wanted: string): SwapTokenRecord | undefined {
  const key = wanted.trim().toLowerCase();
  const row = TOKENS[chain].find(([symbol, address]) => symbol.toLowerCase() === key || address.toLowerCase() === key);
  return row && { chain, symbol: row[0], address: row[1], decimals: row[2], priceUsd: drift.priceOf(row[0]) };
}

/** A same-chain swap leg: the DEX fee and the thinner side's depth. */
function swapLeg(
  drift: Drift,
  leg: Leg,
  { chain, from, to, usd, onSource }: { chain: SwapChain; from: string; to: string; usd: number; onSource: boolean },
): void {
  const a = MARKET[from] as (typeof MARKET)[string];
  const b = MARKET[to] as (typeof MARKET)[string];
  const fee = (usd * Math.max(a.dexFeePct, b.dexFeePct)) / 100 + (onSource ? 0 : drift.gasOf(chain));
  leg.steps.push({ type: "swap", tool: dexOf(chain), fromChain: chain, toChain: chain });
  leg.fees.push({ name: `${dexOf(chain)} swap`, amountUsd: r4(fee) });
  leg.keep *= 1 - impactOf(usd, Math.min(a.depth, b.depth));
  leg.seconds += swapSeconds(chain);
  if (onSource) leg.sourceTxs += 1;
}

/** The route through one bridge, or undefined when the bridge cannot serve it. */
function viaBridge(
  drift: Drift,
  bridge: Bridge,
  from: SwapTokenRecord,
  to: SwapTokenRecord,
  usd: number,
): Leg | undefined {
  const touchesSolana = from.chain === "solana" || to.chain === "solana";
  if (touchesSolana ? !bridge.solana : !bridge.evm) return undefined;
  const leg: Leg = { steps: [], fees: [], keep: 1, seconds: 0, sourceTxs: 1 };
  const any = bridge.tokens[0] === "*";
  const carried = any || bridge.tokens.includes(from.symbol) ? from.symbol : (bridge.tokens[0] as string);
  if (!any && !tokenOf(drift, to.chain, carried)) return undefined;
  if (carried !== from.symbol)
    swapLeg(drift, leg, { chain: from.chain, from: from.symbol, to: carried, usd, onSource: true });
  leg.steps.push({ type: "cross", tool: bridge.tool, fromChain: from.chain, toChain: to.chain });
  leg.fees.push({ name: `${bridge.tool} bridge fee`, amountUsd: r4((usd * bridge.feePct) / 100 + bridge.feeUsd) });
  const depth = any
    ? Math.min(bridge.depth, (MARKET[from.symbol]?.depth ?? 0) / 10, (MARKET[to.symbol]?.depth ?? 0) / 10)
    : bridge.depth;
  leg.keep *= 1 - impactOf(usd, depth);
  leg.seconds += bridge.duration(from.chain);
  if (!any && carried !== to.symbol)
    swapLeg(drift, leg, { chain: to.chain, from: carried, to: to.symbol, usd, onSource: false });
  return leg;
}

/** Every route from one token to the other: a DEX swap on one chain, else one route per bridge that serves the pair. */
function routesOf(drift: Drift, from: SwapTokenRecord, to: SwapTokenRecord, usd: number): (Leg & { tool: string })[] {
  if (from.chain === to.chain) {
    const leg: Leg = { steps: [], fees: [], keep: 1, seconds: 0, sourceTxs: 0 };
    swapLeg(drift, leg, { chain: from.chain, from: from.symbol, to: to.symbol, usd, onSource: true });
    return [{ ...leg, tool: dexOf(from.chain) }];
  }
  return BRIDGES.flatMap((bridge) => {
    const leg = viaBridge(drift, bridge, from, to, usd);
    return leg ? [{ ...leg, tool: bridge.tool }] : [];
  });
}

/** The route worth the most once source gas and time in flight are paid, with what it delivers in USD. */
function bestRoute(drift: Drift, legs: (Leg & { tool: string })[], fromChain: SwapChain, fromUsd: number) {
  return legs
    .map((leg) => {
      const feesUsd = leg.fees.reduce((a, f) => a + f.amountUsd, 0);
      const gasUsd = r4(drift.gasOf(fromChain) * (1 + 0.5 * (leg.sourceTxs - 1)));
      const toUsd = (fromUsd - feesUsd) * leg.keep;
      const waitUsd = (leg.seconds / 60) * (TIME_COST.usdPerMinute + TIME_COST.sharePerMinute * fromUsd);
      return { leg, gasUsd, toUsd, worth: toUsd - gasUsd - waitUsd };
    })
    .filter((p) => p.toUsd > 0)
    .sort((a, b) => b.worth - a.worth)[0];
}

export function createEmbeddedSwapBridge({ seed, clock }: { seed: string; clock: Clock }): SwapBridgeProvider {
  const drift = driftOf(seed, clock);
  return {
    source: "embedded-swap",
    async token(chain, symbolOrAddress) {
      return tokenOf(drift, chain, symbolOrAddress);
    },
    async quote({ fromChain, toChain, fromToken, toToken, fromAmount, slippage }) {
      const from = tokenOf(drift, fromChain, fromToken.address);
      const to = tokenOf(drift, toChain, toToken.address);
      if (!from || !to || (fromChain === toChain && from.symbol === to.symbol)) return undefined;
      const fromUsd = fromBaseUnits(fromAmount, from.decimals) * from.priceUsd;
      const best = bestRoute(drift, routesOf(drift, from, to, fromUsd), fromChain, fromUsd);
      if (!best) return undefined;
      const toAmount = toBaseUnits(best.toUsd / to.priceUsd, to.decimals);
      return {
        tool: best.leg.tool,
        fromToken: from,
        toToken: to,
        fromAmount,
        toAmount,
        toAmountMin: (toAmount * BigInt(Math.round((1 - slippage) * 1e6))) / 1_000_000n,
        fromAmountUsd: r4(fromUsd),
        toAmountUsd: r4(best.toUsd),
        feeCosts: best.leg.fees,
        gasCosts: [{ name: `${fromChain} gas`, amountUsd: best.gasUsd }],
        executionDurationS: best.leg.seconds,
        steps: best.leg.steps,
      } satisfies QuoteRecord;
    },
  };
}
