// The client's network table against the generated contract, and the integer USD arithmetic.
import { describe, expect, it } from "vitest";
import { loadAnalyticsContract } from "../server/analytics/contract/analytics-contract.js";
import { formatUsdc, microAmount, usdToMicro } from "./amounts.js";
import { NETWORKS } from "./networks.js";

describe("NETWORKS", () => {
  it("lists exactly the prefix, family, network names and USDC assets of the contract", () => {
    const contract = loadAnalyticsContract();
    for (const info of Object.values(NETWORKS)) {
      const routes = contract.paid.filter((r) => r.payment.network.prefix === info.prefix);
      expect(routes.length).toBeGreaterThan(0);
      for (const { payment } of routes) {
        const { family, mainnet, testnet } = payment.network;
        expect({
          family,
          networks: [mainnet.network, testnet.network],
          assets: [mainnet.asset, testnet.asset],
        }).toEqual({
          family: info.family,
          networks: info.networks,
          assets: info.assets,
        });
      }
    }
  });
});

describe("amounts", () => {
  it("converts USD to micro-USDC with integer arithmetic and refuses what is not exact", () => {
    expect(usdToMicro("0.05")).toBe(50_000n);
    expect(usdToMicro(0.001)).toBe(1000n);
    expect(usdToMicro("12")).toBe(12_000_000n);
    for (const bad of ["-1", "0.0000001", "1e-3", "abc", 0.1 + 0.2]) expect(() => usdToMicro(bad)).toThrow(RangeError);
    expect(microAmount("1000")).toBe(1000n);
    expect(() => microAmount("10.5")).toThrow(RangeError);
    expect([formatUsdc(1000n), formatUsdc(2_500_000n), formatUsdc(0n)]).toEqual(["0.001", "2.5", "0"]);
  });
});
