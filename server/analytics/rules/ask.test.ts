import { describe, expect, it } from "vitest";
import { MAX_ENDPOINTS, routeQuestion } from "./ask.js";

describe("routeQuestion", () => {
  it("sends yield questions to the yield endpoints first", () => {
    expect(routeQuestion("Where can I earn the best yield on my USDC?")[0]).toBe("/defi/yields");
  });

  it("sends launch and rug questions to the trenches", () => {
    const endpoints = routeQuestion("Is this new pump.fun memecoin a rug?");
    expect(endpoints).toContain("/trenches/token-verdict");
    expect(endpoints[0]).toBe("/trenches/token-verdict");
  });

  it("recognises wallets, whales, bridges and LP ranges", () => {
    expect(routeQuestion("Should I copy this trader's wallet?")[0]).toBe("/traders/wallet-intel");
    expect(routeQuestion("Are whales accumulating JUP?")[0]).toBe("/smartmoney/flow-intel");
    expect(routeQuestion("Cheapest way to bridge to Solana")[0]).toBe("/bridge/quote");
    expect(routeQuestion("My DLMM position is out of range, should I rebalance?")).toContain("/lp/position-rebalance");
  });

  it("falls back to the general DeFi endpoints and never lists more than five", () => {
    expect(routeQuestion("gm")).toEqual(["/defi/yields", "/defi/tvl", "/lp/pools"]);
    expect(routeQuestion("yield apr pools whales wallets bridge new tokens graduating price").length).toBe(
      MAX_ENDPOINTS,
    );
  });
});
