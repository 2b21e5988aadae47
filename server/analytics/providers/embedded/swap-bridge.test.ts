import { describe, expect, it } from "vitest";
import { TEST_NOW } from "../../../../test/support/segments.js";
import { manualClock } from "../../clock.js";
import { fromBaseUnits, type QuoteRecord, type SwapChain, type SwapTokenRecord, toBaseUnits } from "../swap-bridge.js";
import { createEmbeddedSwapBridge } from "./swap-bridge.js";

function aggregator(seed = "test-seed", now = TEST_NOW) {
  const clock = manualClock(now);
  return { clock, swap: createEmbeddedSwapBridge({ seed, clock }) };
}

async function quote(
  swap: ReturnType<typeof aggregator>["swap"],
  [fromChain, fromSymbol]: readonly [SwapChain, string],
  [toChain, toSymbol]: readonly [SwapChain, string],
  amount: number,
  slippage = 0.005,
) {
  const fromToken = (await swap.token(fromChain, fromSymbol)) as SwapTokenRecord;
  const toToken = (await swap.token(toChain, toSymbol)) as SwapTokenRecord;
  return swap.quote({
    fromChain,
    toChain,
    fromToken,
    toToken,
    fromAmount: toBaseUnits(amount, fromToken.decimals),
    slippage,
  });
}

describe("base units", () => {
  it("converts token units to raw integers without float error, and back", () => {
    expect(toBaseUnits(250.5, 6)).toBe(250_500_000n);
    expect(toBaseUnits(0.9999999999, 6)).toBe(1_000_000n);
    expect(toBaseUnits(1.5, 18)).toBe(1_500_000_000_000_000_000n);
    expect(toBaseUnits(2e21, 6)).toBe(2_000_000_000_000_000_000_000_000_000n);
    expect(fromBaseUnits(250_500_000n, 6)).toBe(250.5);
    expect(fromBaseUnits(123_456_789_012_345_678_901n, 18)).toBeCloseTo(123.45678901234568, 12);
  });
});

describe("embedded swap-bridge tokens", () => {
  it("resolves symbols (any case) and addresses to the chain's real token", async () => {
    const { swap } = aggregator();
    const usdc = await swap.token("base", "usdc");
    expect(usdc).toMatchObject({
      chain: "base",
      symbol: "USDC",
      address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      decimals: 6,
      priceUsd: 1,
    });
    expect(await swap.token("base", "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913")).toEqual(usdc);
    expect(await swap.token("solana", "So11111111111111111111111111111111111111112")).toMatchObject({
      symbol: "SOL",
      decimals: 9,
    });
    expect(await swap.token("polygon", "ETH")).toBeUndefined();
    expect(await swap.token("ethereum", "BONK")).toBeUndefined();
  });
});

describe("embedded swap-bridge quotes", () => {
  it("prices a route consistently: amounts match USD values, fees come off the amount, the minimum is the slippage allowance", async () => {
    const { swap } = aggregator();
    const q = (await quote(swap, ["base", "USDC"], ["solana", "USDC"], 250, 0.01)) as QuoteRecord;
    expect(q.fromAmount).toBe(250_000_000n);
    expect(q.fromAmountUsd).toBeCloseTo(250, 6);
    expect(fromBaseUnits(q.toAmount, 6) * q.toToken.priceUsd).toBeCloseTo(q.toAmountUsd, 4);
    expect(q.toAmountUsd).toBeLessThanOrEqual(q.fromAmountUsd - q.feeCosts.reduce((a, f) => a + f.amountUsd, 0));
    expect(q.toAmountMin).toBe((q.toAmount * 990_000n) / 1_000_000n);
    expect(q.steps.filter((s) => s.type === "cross")).toHaveLength(1);
    expect(q.gasCosts[0]?.amountUsd).toBeGreaterThan(0);
  });

  it("routes by chain pair: fast Solana bridges for small amounts, EVM bridges between EVM chains, Jupiter within Solana", async () => {
    const { swap } = aggregator();
    expect((await quote(swap, ["base", "USDC"], ["solana", "USDC"], 250))?.tool).toBe("mayan");
    expect(["across", "stargate", "cctp"]).toContain(
      (await quote(swap, ["arbitrum", "USDC"], ["base", "USDC"], 1000))?.tool,
    );
    const within = (await quote(swap, ["solana", "SOL"], ["solana", "JUP"], 10)) as QuoteRecord;
    expect(within.tool).toBe("jupiter");
    expect(within.steps).toEqual([{ type: "swap", tool: "jupiter", fromChain: "solana", toChain: "solana" }]);
    const toPol = (await quote(swap, ["base", "USDC"], ["polygon", "POL"], 500)) as QuoteRecord;
    expect(toPol.steps.at(-1)).toEqual({ type: "swap", tool: "1inch", fromChain: "polygon", toChain: "polygon" });
  });

  it("lets size favour cheap burn-and-mint routes and costs large trades more impact", async () => {
    const { swap } = aggregator();
    expect((await quote(swap, ["arbitrum", "USDC"], ["solana", "USDC"], 5e6))?.tool).toBe("cctp");
    const impact = (q: QuoteRecord) =>
      1 - q.toAmountUsd / (q.fromAmountUsd - q.feeCosts.reduce((a, f) => a + f.amountUsd, 0));
    const small = (await quote(swap, ["solana", "SOL"], ["solana", "WIF"], 1)) as QuoteRecord;
    const large = (await quote(swap, ["solana", "SOL"], ["solana", "WIF"], 5_000)) as QuoteRecord;
    expect(impact(large)).toBeGreaterThan(impact(small) * 100);
  });

  it("finds no route for the same token on the same chain, nor for an amount its fees eat", async () => {
    const { swap } = aggregator();
    expect(await quote(swap, ["base", "USDC"], ["base", "USDC"], 10)).toBeUndefined();
    expect(await quote(swap, ["ethereum", "USDC"], ["solana", "USDC"], 0.1)).toBeUndefined();
  });

  it("is reproducible, with gas moving by the hour and prices by the day", async () => {
    const a = aggregator("s1");
    const route = [["ethereum", "ETH"], ["arbitrum", "USDC"], 2] as const;
    const first = (await quote(a.swap, ...route)) as QuoteRecord;
    expect(await quote(aggregator("s1").swap, ...route)).toEqual(first);
    expect(await quote(aggregator("s2").swap, ...route)).not.toEqual(first);
    a.clock.advance(3_600_000);
    const nextHour = (await quote(a.swap, ...route)) as QuoteRecord;
    expect(nextHour.gasCosts).not.toEqual(first.gasCosts);
    expect(nextHour.fromAmountUsd).toBe(first.fromAmountUsd);
    a.clock.advance(86_400_000);
    expect(((await quote(a.swap, ...route)) as QuoteRecord).fromAmountUsd).not.toBe(first.fromAmountUsd);
  });
});
