/**
 * The three payment networks a client can choose, as URL prefixes of the analytics service: Solana
 * at the root, Base under `/base`, SKALE under `/skale`, read from the contract's network table
 * (lib/networks.ts). Each accepts its mainnet and testnet by their x402 v1 names and CAIP-2 ids
 * (x402 v2), and only the USDC assets the table lists for them.
 */
import { type Family, findNetwork, type NetworkName, NETWORKS as TABLE, type X402Network } from "../lib/networks.js";

export type { Family, X402Network };
export type NetworkChoice = NetworkName;

export interface NetworkInfo {
  prefix: string;
  family: Family;
  /** x402 v1 names accepted from a challenge: mainnet, then testnet. */
  networks: readonly X402Network[];
  /** Their CAIP-2 ids, the x402 v2 names: mainnet, then testnet. */
  caip2: readonly string[];
  /** USDC mint (Solana) or contract (EVM) of each of those networks. */
  assets: readonly string[];
}

const byName = {} as Record<NetworkChoice, NetworkInfo>;
for (const network of TABLE)
  byName[network.name] = {
    prefix: network.prefix,
    family: network.family,
    networks: [network.mainnet.network, network.testnet.network],
    caip2: [network.mainnet.caip2, network.testnet.caip2],
    assets: [network.mainnet.asset, network.testnet.asset],
  };
export const NETWORKS: Readonly<Record<NetworkChoice, NetworkInfo>> = byName;

export function isNetworkChoice(value: string): value is NetworkChoice {
  return Object.hasOwn(NETWORKS, value);
}

/** EVM addresses compare case-insensitively (checksum casing); Solana base58 addresses exactly. */
export function sameAddress(family: Family, a: string, b: string): boolean {
  return family === "evm" ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/** A network of either version by its x402 v1 name (`eip155:84532` → `base-sepolia`), for people; any other id as it is. */
export function networkLabel(id: string): string {
  return findNetwork(id)?.details.network ?? id;
}
