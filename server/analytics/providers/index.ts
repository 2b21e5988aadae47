/** Every upstream data role the analytics service reads, each behind its own interface. */
import type { Clock } from "../clock.js";
import type { ChainRpcProvider } from "./chain-rpc.js";
import { createEmbeddedChainRpc } from "./embedded/chain-rpc.js";
import { createEmbeddedLaunches } from "./embedded/launches.js";
import { createEmbeddedPools } from "./embedded/pools.js";
import { createEmbeddedSwapBridge } from "./embedded/swap-bridge.js";
import { createEmbeddedTvl } from "./embedded/tvl.js";
import { createEmbeddedWalletLabels } from "./embedded/wallet-labels.js";
import type { LaunchProvider } from "./launches.js";
import type { PoolProvider } from "./pools.js";
import type { SwapBridgeProvider } from "./swap-bridge.js";
import type { TvlProvider } from "./tvl.js";
import type { WalletLabelsProvider } from "./wallet-labels.js";

export interface Providers {
  tvl: TvlProvider;
  pools: PoolProvider;
  launches: LaunchProvider;
  chain_rpc: ChainRpcProvider;
  wallet_labels: WalletLabelsProvider;
  swap_bridge: SwapBridgeProvider;
}

/** The offline dataset: every role embedded, reproducible from the seed and the clock. */
export function createEmbeddedProviders(options: { seed: string; clock: Clock }): Providers {
  return {
    tvl: createEmbeddedTvl(options),
    pools: createEmbeddedPools(options),
    launches: createEmbeddedLaunches(options),
    chain_rpc: createEmbeddedChainRpc(options),
    wallet_labels: createEmbeddedWalletLabels(options),
    swap_bridge: createEmbeddedSwapBridge(options),
  };
}
