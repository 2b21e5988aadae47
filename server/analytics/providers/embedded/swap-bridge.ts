/** Embedded, deterministic stand-in for the swap-bridge role. */
import type { Clock } from "../../clock.js";
import type { SwapBridgeProvider } from "../swap-bridge.js";

export function createEmbeddedSwapBridge(_options: { seed: string; clock: Clock }): SwapBridgeProvider {
  return { source: "embedded-swap" };
}
