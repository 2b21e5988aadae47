/** Every upstream data role the analytics service reads, each behind its own interface, named as `GET /` names it. */
import type { ChainRpcProvider } from "./chain-rpc.js";
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
