/**
 * The payment networks of the contract, read from the network table the spec declares
 * (spec/analytics/x402.tsp, written to generated/networks.json): per URL prefix its name, family
 * and gas policy, and per profile the x402 v1 name, the CAIP-2 id, the chain id, the USDC asset,
 * its EIP-712 domain and a public RPC endpoint. The server, the clients, the conformance suite and
 * the scripts all ask this module; none keeps a list of its own.
 */
import { readFileSync } from "node:fs";
import type { components } from "../generated/types/analytics.js";

export type Family = "svm" | "evm";
export type Profile = "testnet" | "mainnet";
export type NetworkName = components["schemas"]["PrefixName"];
export type X402Network = components["schemas"]["X402.Network"];

export interface NetworkDetails {
  /** x402 v1 name. */
  network: X402Network;
  /** CAIP-2 id (x402 v2). */
  caip2: string;
  chainId?: number;
  /** USDC contract (EVM) or mint (Solana). */
  asset: string;
  eip712?: { name: string; version: string };
  rpc: string;
}

/** One URL prefix and the network it settles on, in both profiles. */
export interface PaymentNetwork {
  name: NetworkName;
  /** How people write it, e.g. `SKALE`. */
  title: string;
  prefix: string;
  family: Family;
  gas: "sponsored" | "free" | "payer";
  mainnet: NetworkDetails;
  testnet: NetworkDetails;
}

export const NETWORKS: readonly PaymentNetwork[] = Object.freeze(
  JSON.parse(readFileSync(new URL("../generated/networks.json", import.meta.url), "utf8")).networks as PaymentNetwork[],
);

/** The network of a prefix name (`solana`, `base`, `skale`). */
export function networkNamed(name: string): PaymentNetwork | undefined {
  return NETWORKS.find((network) => network.name === name);
}

type FoundNetwork = { network: PaymentNetwork; profile: Profile; details: NetworkDetails };

/** Every v1 name and CAIP-2 id of the table, looked up once per payment or more. */
const BY_ID: ReadonlyMap<string, FoundNetwork> = new Map(
  NETWORKS.flatMap((network) =>
    (["mainnet", "testnet"] as const).flatMap((profile) => {
      const found = Object.freeze({ network, profile, details: network[profile] });
      return [[network[profile].network, found] as const, [network[profile].caip2, found] as const];
    }),
  ),
);

/** A network and profile by its v1 name or CAIP-2 id, e.g. `base-sepolia` or `eip155:84532`. */
export function findNetwork(id: string): FoundNetwork | undefined {
  return BY_ID.get(id);
}

/** The chain family of a v1 network name or CAIP-2 id; throws for a network the contract does not name. */
export function familyOf(id: string): Family {
  const found = findNetwork(id);
  if (!found) throw new Error(`the contract names no network ${id}`);
  return found.network.family;
}
