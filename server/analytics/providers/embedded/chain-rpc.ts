/** Embedded, deterministic stand-in for the chain-rpc role. */
import type { Clock } from "../../clock.js";
import type { ChainRpcProvider } from "../chain-rpc.js";

export function createEmbeddedChainRpc(_options: { seed: string; clock: Clock }): ChainRpcProvider {
  return { source: "embedded-chain" };
}
