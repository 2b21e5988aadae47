/**
 * The three payment networks a client can choose, as URL prefixes of the analytics service: Solana
 * at the root, Base under `/base`, SKALE under `/skale`. Each accepts the x402 v1 names of its
 * mainnet and testnet, and only the USDC assets the contract lists for them (checked against the
 * generated document by `networks.test.ts`).
 */
import type { components } from "../generated/types/analytics.js";

export type X402Network = components["schemas"]["X402.Network"];
export type NetworkChoice = "solana" | "base" | "skale";
export type Family = "svm" | "evm";

export interface NetworkInfo {
  prefix: "" | "/base" | "/skale";
  family: Family;
  /** x402 v1 names accepted from a challenge: mainnet, then testnet. */
  networks: readonly X402Network[];
  /** USDC mint (Solana) or contract (EVM) of each of those networks. */
  assets: readonly string[];
}

export const NETWORKS: Readonly<Record<NetworkChoice, NetworkInfo>> = {
  solana: {
    prefix: "",
    family: "svm",
    networks: ["solana", "solana-devnet"],
    assets: ["EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU"],
  },
  base: {
    prefix: "/base",
    family: "evm",
    networks: ["base", "base-sepolia"],
    assets: ["0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", "0x036CbD53842c5426634e7929541eC2318f3dCF7e"],
  },
  skale: {
    prefix: "/skale",
    family: "evm",
    networks: ["skale-base", "skale-base-sepolia"],
    assets: ["0x85889c8c714505E0c94b30fcfcF64fE3Ac8FCb20", "0x2e08028E3C4c2356572E096d8EF835cD5C6030bD"],
  },
};

export function isNetworkChoice(value: string): value is NetworkChoice {
  return Object.hasOwn(NETWORKS, value);
}

/** EVM addresses compare case-insensitively (checksum casing); Solana base58 addresses exactly. */
export function sameAddress(family: Family, a: string, b: string): boolean {
  return family === "evm" ? a.toLowerCase() === b.toLowerCase() : a === b;
}
