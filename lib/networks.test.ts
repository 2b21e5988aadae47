// The network table against the contract it is read from: every paid route settles on its prefix's
// entry, and the entries are consistent with themselves (one name and prefix each, CAIP-2 ids that
// agree with the chain ids, an EIP-712 domain on every EVM network).
import { describe, expect, it } from "vitest";
import { loadAnalyticsContract } from "../server/analytics/contract/analytics-contract.js";
import { familyOf, findNetwork, NETWORKS, networkNamed } from "./networks.js";

describe("the network table", () => {
  it("is what every paid route's x-payment-info names for its prefix", () => {
    const contract = loadAnalyticsContract();
    for (const route of contract.paid)
      expect(route.payment.network, route.operationId).toEqual(networkNamed(route.payment.network.name));
    expect(new Set(contract.paid.map((r) => r.payment.network.name))).toEqual(new Set(NETWORKS.map((n) => n.name)));
  });

  it("gives each network one name and prefix, an eip155 CAIP-2 id matching its chain id on EVM, a domain on EVM", () => {
    expect(new Set(NETWORKS.map((n) => n.name)).size).toBe(NETWORKS.length);
    expect(new Set(NETWORKS.map((n) => n.prefix)).size).toBe(NETWORKS.length);
    for (const network of NETWORKS)
      for (const details of [network.mainnet, network.testnet]) {
        if (network.family === "evm") {
          expect(details.caip2).toBe(`eip155:${details.chainId}`);
          expect(details.eip712).toMatchObject({ name: expect.any(String), version: expect.any(String) });
        } else expect(details.caip2).toMatch(/^solana:[1-9A-HJ-NP-Za-km-z]{32}$/);
        expect(findNetwork(details.network)).toEqual(findNetwork(details.caip2));
      }
  });

  it("names in the contract's network unions exactly its networks: v1 names in X402.Network, CAIP-2 ids in X402.Caip2Network", () => {
    const { schemas } = loadAnalyticsContract().document.components as { schemas: Record<string, { enum?: string[] }> };
    const values = (name: string) => new Set(schemas[name]?.enum);
    const profiles = NETWORKS.flatMap((n) => [n.mainnet, n.testnet]);
    expect(values("X402.Network")).toEqual(new Set(profiles.map((d) => d.network)));
    expect(values("X402.Caip2Network")).toEqual(new Set(profiles.map((d) => d.caip2)));
  });

  it("answers the family of a v1 name or a CAIP-2 id, and refuses a network the contract does not name", () => {
    expect([familyOf("solana-devnet"), familyOf("eip155:84532"), familyOf("skale-base")]).toEqual([
      "svm",
      "evm",
      "evm",
    ]);
    expect(findNetwork("eip155:324705682")).toMatchObject({ profile: "testnet", network: { name: "skale" } });
    expect(() => familyOf("ethereum")).toThrow(/no network ethereum/);
  });
});
