/** Embedded, deterministic stand-in for the wallet-labels role. */
import type { Clock } from "../../clock.js";
import type { WalletLabelsProvider } from "../wallet-labels.js";

export function createEmbeddedWalletLabels(_options: { seed: string; clock: Clock }): WalletLabelsProvider {
  return { source: "embedded-labels" };
}
