import { describe, expect, it } from "vitest";
import { countCalls, expectValidOutcome, testContext } from "../../../test/support/segments.js";
import { bridgeHandlers } from "./bridge.js";

const quoteRequest = {
  from_chain: "base",
  to_chain: "solana",
  from_token: "USDC",
  to_token: "USDC",
  amount: 250,
  slippage_pct: 0.5,
} as const;

describe("bridgeQuote", () => {
  it("quotes the best route with amounts in token units and costs in USD", async () => {
    const out = expectValidOutcome("bridgeQuote", await bridgeHandlers.bridgeQuote(quoteRequest, testContext()));
    const d = out.data;
    expect(d.from_token).toEqual({
      symbol: "USDC",
      address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      decimals: 6,
    });
    expect(d.to_token.address).toBe("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
    expect(d.from_amount).toBe(250);
    expect(d.to_amount).toBeLessThan(250 - d.fees_usd + 0.01);
    expect(d.to_amount_min).toBeCloseTo(d.to_amount * 0.995, 5);
    expect(d.steps.some((s) => s.type === "bridge" && s.tool === d.tool)).toBe(true);
    expect(out.baseline.signal).toBe("execute");
    expect(out.brief).toContain(
      `250 USDC on base arrives as ${d.to_amount.toPrecision(6)} USDC on solana via ${d.tool}`,
    );
  });

  it("takes token addresses as well as symbols", async () => {
    const out = await bridgeHandlers.bridgeQuote(
      { ...quoteRequest, from_token: "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913" },
      testContext(),
    );
    expect(out.data.from_token.symbol).toBe("USDC");
  });

  it("avoids a transfer whose source gas eats the amount", async () => {
    const out = expectValidOutcome(
      "bridgeQuote",
      await bridgeHandlers.bridgeQuote({ ...quoteRequest, from_chain: "ethereum", amount: 20 }, testContext()),
    );
    expect(out.baseline.signal).toBe("avoid");
  });

  it("rejects unknown tokens, a no-op swap and an amount too small to route", async () => {
    const ctx = testContext();
    const field = (e: unknown) => (e as { details: { errors: { field: string }[] } }).details.errors[0]?.field;
    const rejected = async (body: Parameters<typeof bridgeHandlers.bridgeQuote>[0]) =>
      field(
        await bridgeHandlers.bridgeQuote(body, ctx).then(
          () => undefined,
          (e: unknown) => e,
        ),
      );
    expect(await rejected({ ...quoteRequest, from_token: "NOPE" })).toBe("from_token");
    expect(await rejected({ ...quoteRequest, to_token: "WETH" })).toBe("to_token");
    expect(await rejected({ ...quoteRequest, to_chain: "base" })).toBe("to_token");
    expect(await rejected({ ...quoteRequest, amount: 0.1, from_chain: "ethereum" })).toBe("amount");
    // below one base unit (USDC has 6 decimals): nothing to send, never a quote of zero (which LI.FI answers with a 400)
    await expect(bridgeHandlers.bridgeQuote({ ...quoteRequest, amount: 1e-12 }, ctx)).rejects.toMatchObject({
      details: { errors: [{ field: "amount", message: "is less than one unit of USDC's smallest denomination" }] },
    });
    await expect(
      bridgeHandlers.bridgeQuote({ ...quoteRequest, from_address: "0x5520000000000000000000000000000000000Ea0" }, ctx),
    ).resolves.toBeDefined();
  });

  it("holds a quote for 30 seconds, sharing one upstream call between concurrent requests", async () => {
    const ctx = testContext();
    const calls = countCalls(ctx.upstream.swap_bridge, "quote");
    await Promise.all([bridgeHandlers.bridgeQuote(quoteRequest, ctx), bridgeHandlers.bridgeQuote(quoteRequest, ctx)]);
    expect(calls.count).toBe(1);
    ctx.clock.advance(29_999);
    await bridgeHandlers.bridgeQuote(quoteRequest, ctx);
    expect(calls.count).toBe(1);
    ctx.clock.advance(1);
    await bridgeHandlers.bridgeQuote(quoteRequest, ctx);
    expect(calls.count).toBe(2);
    await bridgeHandlers.bridgeQuote({ ...quoteRequest, amount: 251 }, ctx);
    expect(calls.count).toBe(3);
  });
});

describe("bridgeYieldMigrate", () => {
  const migrate = { token: "USDC", amount_usd: 20_000, from_chain: "ethereum" } as const;

  it("compares the stated yield with the best one elsewhere and prices the bridge", async () => {
    const out = expectValidOutcome(
      "bridgeYieldMigrate",
      await bridgeHandlers.bridgeYieldMigrate({ ...migrate, current_apy_pct: 4.1 }, testContext()),
    );
    const d = out.data;
    expect(d.current).toMatchObject({ chain: "Ethereum", project: "aave-v3", pool: "USDC", apy_pct: 4.1 });
    expect(d.best.chain).not.toBe("Ethereum");
    expect(d.apy_gain_pct).toBeCloseTo(d.best.apy_pct - 4.1, 2);
    expect(d.bridge_cost_usd).toBeGreaterThan(0);
    expect(d.break_even_days).toBeCloseTo(d.bridge_cost_usd / ((20_000 * d.apy_gain_pct) / 100 / 365), 1);
    expect(d.annual_gain_usd).toBeCloseTo((20_000 * d.apy_gain_pct) / 100 - d.bridge_cost_usd, 1);
    expect(out.baseline.signal).toBe("migrate");
    expect(out.sources).toEqual(["embedded-tvl", "embedded-swap"]);
  });

  it("assumes the best pool on the chain when no APY is given, and stays when nothing elsewhere beats it", async () => {
    const out = expectValidOutcome(
      "bridgeYieldMigrate",
      await bridgeHandlers.bridgeYieldMigrate({ ...migrate, from_chain: "solana" }, testContext()),
    );
    expect(out.data.current.chain).toBe("Solana");
    expect(out.data.apy_gain_pct).toBeLessThanOrEqual(0);
    expect(out.data.break_even_days).toBeNull();
    expect(out.baseline.signal).toBe("stay");
  });

  it("waits when a gain repays the bridge in over a month, and stays when it takes over a year", async () => {
    const slow = await bridgeHandlers.bridgeYieldMigrate(
      { ...migrate, amount_usd: 500, from_chain: "base" },
      testContext(),
    );
    expect(slow.data.break_even_days).toBeGreaterThan(30);
    expect(slow.data.break_even_days).toBeLessThan(365);
    expect(slow.baseline.signal).toBe("wait");
    const never = await bridgeHandlers.bridgeYieldMigrate(
      { ...migrate, amount_usd: 20, current_apy_pct: 8 },
      testContext(),
    );
    expect(never.data.break_even_days).toBeGreaterThan(365);
    expect(never.data.annual_gain_usd).toBeLessThan(0);
    expect(never.baseline.signal).toBe("stay");
  });

  it("takes a stated APY on a chain without a listed pool, and needs one when it cannot assume it", async () => {
    const out = expectValidOutcome(
      "bridgeYieldMigrate",
      await bridgeHandlers.bridgeYieldMigrate(
        { ...migrate, from_chain: "optimism", current_apy_pct: 3 },
        testContext(),
      ),
    );
    expect(out.data.current).toEqual({
      chain: "Optimism",
      project: "unspecified",
      pool: "USDC",
      apy_pct: 3,
      tvl_usd: 0,
    });
    await expect(
      bridgeHandlers.bridgeYieldMigrate({ ...migrate, from_chain: "optimism" }, testContext()),
    ).rejects.toMatchObject({
      status: 400,
    });
  });

  it("refuses a token the aggregator lists without a price, and an amount below one unit of it, naming the field", async () => {
    const ctx = testContext();
    const listed = ctx.upstream.swap_bridge.token.bind(ctx.upstream.swap_bridge);
    ctx.upstream.swap_bridge.token = async (chain, symbol) => {
      const token = await listed(chain, symbol);
      return token && { ...token, priceUsd: 0 };
    };
    await expect(bridgeHandlers.bridgeYieldMigrate({ ...migrate, current_apy_pct: 4.1 }, ctx)).rejects.toMatchObject({
      status: 400,
      details: { errors: [{ field: "token", message: "has no USD price at the aggregator on ethereum" }] },
    });
    await expect(
      bridgeHandlers.bridgeYieldMigrate({ ...migrate, amount_usd: 1e-9, current_apy_pct: 4.1 }, testContext()),
    ).rejects.toMatchObject({ status: 400, details: { errors: [{ field: "amount_usd" }] } });
  });

  it("404s a token with no yield pool on another chain the bridge reaches", async () => {
    await expect(
      bridgeHandlers.bridgeYieldMigrate({ ...migrate, token: "WETH", current_apy_pct: 2 }, testContext()),
    ).rejects.toMatchObject({ status: 404 });
  });
});
