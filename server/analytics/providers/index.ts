/**
 * The providers assembled in one place: each role's adapter, live or embedded as the settings say,
 * behind the cache. The embedded dataset alone (every role embedded, no cache) is what tests and
 * the examples read.
 */
import type { Cache } from "../cache/memory-cache.js";
import type { Clock } from "../clock.js";
import { cachedProviders } from "./caching.js";
import { createEmbeddedChainRpc } from "./embedded/chain-rpc.js";
import { createEmbeddedLaunches } from "./embedded/launches.js";
import { createEmbeddedPools } from "./embedded/pools.js";
import { createEmbeddedSwapBridge } from "./embedded/swap-bridge.js";
import { createEmbeddedTvl } from "./embedded/tvl.js";
import { createEmbeddedWalletLabels } from "./embedded/wallet-labels.js";
import { createDefiLlamaTvl } from "./live/defillama.js";
import { createUpstreamHttp, type HttpDeps, type UpstreamObserver } from "./live/http.js";
import { createJsonRpc } from "./live/json-rpc.js";
import { createLiveLaunches } from "./live/launch-feed.js";
import { createLifiJupiter } from "./live/lifi-jupiter.js";
import { createMeteoraPools } from "./live/meteora.js";
import { createNansenLabels } from "./live/nansen.js";
import { createSolanaRpc } from "./live/solana-rpc.js";
import type { Providers } from "./roles.js";
import {
  type ProviderModes,
  type ProviderSettings,
  parseProviderSettings,
  redactor,
  secretsOf,
  type Upstream,
} from "./settings.js";

export type { Providers } from "./roles.js";

interface Options {
  /** The embedded dataset's seed. */
  seed: string;
  clock: Clock;
  /** The live adapters' network; tests pass a local one. */
  fetch?: typeof globalThis.fetch;
  /** Told of the live adapters' calls, failures and breakers. */
  observer?: UpstreamObserver;
}

/** Every role's adapter as the settings choose it, and what closes the live feeds. */
function upstreamProviders(
  settings: ProviderSettings,
  { seed, clock, fetch, observer }: Options,
): { providers: Providers; close(): void } {
  const deps: HttpDeps = { fetch, clock, redact: redactor(secretsOf(settings)), observer };
  const http = (source: string, upstream: Upstream) => createUpstreamHttp(source, upstream.policy, deps);
  const live = (role: keyof ProviderModes) => settings.modes[role] === "live";
  const { solana } = settings;
  // One RPC client for the chain and pool roles: one breaker and one concurrency limit for the endpoint.
  const rpc = createJsonRpc(http("solana-rpc", solana), solana.url);
  const embedded = { seed, clock };
  const launches = live("launches")
    ? createLiveLaunches({
        clock,
        rpc: createJsonRpc(http("launchlab", solana), solana.url),
        rpcWsUrl: solana.wsUrl,
        pumpPortalUrl: settings.pumpportal.url,
        pumpPortalKey: settings.pumpportal.key,
        staleAfterMs: settings.pumpportal.staleAfterMs,
      })
    : undefined;
  const { defillama, meteora, nansen, lifi, jupiter } = settings;
  const providers: Providers = {
    tvl: live("tvl")
      ? createDefiLlamaTvl({
          http: http("defillama", defillama),
          clock,
          apiUrl: defillama.url,
          yieldsUrl: defillama.yieldsUrl,
        })
      : createEmbeddedTvl(embedded),
    pools: live("pools")
      ? createMeteoraPools({
          http: http("meteora", meteora),
          rpc,
          clock,
          datapiUrl: meteora.url,
          legacyUrl: meteora.legacyUrl,
        })
      : createEmbeddedPools(embedded),
    launches: launches ?? createEmbeddedLaunches(embedded),
    chain_rpc: live("chain_rpc") ? createSolanaRpc({ rpc }) : createEmbeddedChainRpc(embedded),
    wallet_labels: live("wallet_labels")
      ? createNansenLabels({ http: http("nansen", nansen), clock, apiKey: nansen.key as string, baseUrl: nansen.url })
      : createEmbeddedWalletLabels(embedded),
    swap_bridge: live("swap_bridge")
      ? createLifiJupiter({
          lifi: http("lifi", lifi),
          jupiter: http("jupiter", jupiter),
          lifiUrl: lifi.url,
          jupiterUrl: jupiter.url,
          lifiKey: lifi.key,
          jupiterKey: jupiter.key,
        })
      : createEmbeddedSwapBridge(embedded),
  };
  return { providers, close: () => launches?.close() };
}

export interface CreatedProviders {
  /** Every role behind the cache. */
  providers: Providers;
  /** The mode of each role, as `GET /` reports it. */
  modes: ProviderModes;
  /** Closes the live feeds' sockets. */
  close(): void;
}

/** The providers of every role, embedded or live as the settings say, behind `cache`. */
export function createProviders(settings: ProviderSettings, options: Options & { cache: Cache }): CreatedProviders {
  const upstream = upstreamProviders(settings, options);
  return {
    providers: cachedProviders(upstream.providers, options.cache, options.clock),
    modes: settings.modes,
    close: upstream.close,
  };
}

/** The offline dataset: every role embedded, reproducible from the seed and the clock, uncached. */
export function createEmbeddedProviders(options: { seed: string; clock: Clock }): Providers {
  return upstreamProviders(parseProviderSettings({}), options).providers;
}
