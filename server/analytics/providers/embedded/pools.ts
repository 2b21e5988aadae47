/** Embedded, deterministic stand-in for the pools role. */
import type { Clock } from "../../clock.js";
import type { PoolProvider } from "../pools.js";

export function createEmbeddedPools(_options: { seed: string; clock: Clock }): PoolProvider {
  return { source: "embedded-pools" };
}
