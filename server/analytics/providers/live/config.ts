/**
 * Provider configuration from the environment: each role is `embedded` (the default, offline) or
 * `live` (`<ROLE>_PROVIDER=live`), with base URLs defaulting to the documented hosts, keys, and
 * per-adapter timeouts. A live role missing what it needs fails at start-up with a `ConfigError`
 * naming the variable, never its value. Every secret (keys, and RPC URLs, which carry keys) is
 * scrubbed from upstream error messages, so none reaches a response or a log line.
 */
import type { components } from "../../../../generated/types/analytics.js";
import type { Clock } from "../../clock.js";
import { ConfigError } from "../../config.js";
import { createEmbeddedChainRpc } from "../embedded/chain-rpc.js";
import { createEmbeddedLaunches } from "../embedded/launches.js";
import { createEmbeddedPools } from "../embedded/pools.js";
import { createEmbeddedSwapBridge } from "../embedded/swap-bridge.js";
import { createEmbeddedTvl } from "../embedded/tvl.js";
import { createEmbeddedWalletLabels } from "../embedded/wallet-labels.js";
import type { Providers } from "../index.js";
import { createDefiLlamaTvl, DEFILLAMA_API_URL, DEFILLAMA_YIELDS_URL } from "./defillama.js";
import { createUpstreamHttp, type HttpDeps, type HttpPolicy } from "./http.js";
import { createLifiJupiter, JUPITER_URL, LIFI_URL } from "./lifi-jupiter.js";
import { createMeteoraPools, METEORA_DATAPI_URL, METEORA_LEGACY_URL } from "./meteora.js";
import { createNansenLabels, NANSEN_URL } from "./nansen.js";
import { createLiveLaunches, PUMPPORTAL_WS_URL } from "./pumpportal.js";
import { createJsonRpc, createSolanaRpc } from "./solana-rpc.js";

export type ProviderModes = components["schemas"]["ServiceInfo"]["providers"];
export type ProviderMode = ProviderModes[keyof ProviderModes];
type Role = keyof ProviderModes;

const ROLE_VARIABLES: Record<Role, string> = {
  tvl: "TVL_PROVIDER",
  pools: "POOLS_PROVIDER",
  launches: "LAUNCHES_PROVIDER",
  chain_rpc: "CHAIN_RPC_PROVIDER",
  wallet_labels: "WALLET_LABELS_PROVIDER",
  swap_bridge: "SWAP_BRIDGE_PROVIDER",
};

type Env = Record<string, string | undefined>;

/** One upstream: its base URL, optional key, and client policy (timeout and concurrency differ per provider). */
interface Upstream {
  url: string;
  key?: string;
  policy: Partial<HttpPolicy>;
}

export interface LiveConfig {
  modes: ProviderModes;
  defillama: Upstream & { yieldsUrl: string };
  meteora: Upstream & { legacyUrl: string };
  solana: Upstream & { wsUrl: string };
  pumpportal: Upstream & { staleAfterMs: number };
  nansen: Upstream;
  lifi: Upstream;
  jupiter: Upstream;
}

const present = (env: Env, name: string) => {
  const value = env[name]?.trim();
  return value ? value : undefined;
};

function positiveInt(env: Env, name: string, fallback: number): number {
  const raw = present(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new ConfigError(`${name} must be a positive integer`);
  return value;
}

/** A base URL without its trailing slash; the value is not echoed (RPC URLs carry keys). */
function url(env: Env, name: string, fallback: string | undefined, protocols: string[]): string | undefined {
  const raw = present(env, name) ?? fallback;
  if (raw === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(`${name} must be a ${protocols.join(" or ")} URL`);
  return raw.replace(/\/+$/, "");
}

const HTTP = ["https:", "http:"];
const WS = ["wss:", "ws:"];

function mode(env: Env, role: Role): ProviderMode {
  const name = ROLE_VARIABLES[role];
  const value = present(env, name) ?? "embedded";
  if (value !== "embedded" && value !== "live") throw new ConfigError(`${name} must be embedded or live`);
  return value;
}

/** Reads and validates the provider variables; a live role without its required variables is an error. */
export function loadLiveConfig(env: Env): LiveConfig {
  const modes = Object.fromEntries((Object.keys(ROLE_VARIABLES) as Role[]).map((role) => [role, mode(env, role)])) as ProviderModes;
  const shared: Partial<HttpPolicy> = {
    retries: positiveInt(env, "UPSTREAM_ATTEMPTS", 3) - 1,
    breakerThreshold: positiveInt(env, "UPSTREAM_BREAKER_THRESHOLD", 5),
    breakerCoolDownMs: positiveInt(env, "UPSTREAM_BREAKER_COOLDOWN_MS", 30_000),
  };
  const policy = (prefix: string, timeoutMs: number, concurrency: number): Partial<HttpPolicy> => ({
    ...shared,
    timeoutMs: positiveInt(env, `${prefix}_TIMEOUT_MS`, timeoutMs),
    concurrency,
  });
  const rpcUrl = url(env, "SOLANA_RPC_URL", undefined, HTTP);
  const needs = (role: Role, variable: string, value: string | undefined, why: string) => {
    if (modes[role] === "live" && value === undefined) throw new ConfigError(`${ROLE_VARIABLES[role]}=live needs ${variable} (${why})`);
  };
  needs("chain_rpc", "SOLANA_RPC_URL", rpcUrl, "the Solana JSON-RPC endpoint");
  needs("pools", "SOLANA_RPC_URL", rpcUrl, "open position counts and the legacy fallback's decimals");
  needs("launches", "SOLANA_RPC_URL", rpcUrl, "LaunchLab pools are read over RPC");
  needs("wallet_labels", "NANSEN_API_KEY", present(env, "NANSEN_API_KEY"), "Nansen answers keyless calls with 402");
  return {
    modes,
    defillama: {
      url: url(env, "DEFILLAMA_API_URL", DEFILLAMA_API_URL, HTTP) as string,
      yieldsUrl: url(env, "DEFILLAMA_YIELDS_URL", DEFILLAMA_YIELDS_URL, HTTP) as string,
      // The yields list is several megabytes.
      policy: policy("DEFILLAMA", 20_000, 4),
    },
    meteora: {
      url: url(env, "METEORA_DATAPI_URL", METEORA_DATAPI_URL, HTTP) as string,
      legacyUrl: url(env, "METEORA_LEGACY_URL", METEORA_LEGACY_URL, HTTP) as string,
      policy: policy("METEORA", 8_000, 4),
    },
    solana: {
      url: rpcUrl ?? "",
      // The RPC's WebSocket is its URL with the ws scheme (Helius, QuickNode, Triton).
      wsUrl: url(env, "SOLANA_WS_URL", rpcUrl?.replace(/^http/, "ws"), WS) ?? "",
      policy: policy("SOLANA_RPC", 10_000, 8),
    },
    pumpportal: {
      url: url(env, "PUMPPORTAL_WS_URL", PUMPPORTAL_WS_URL, WS) as string,
      key: present(env, "PUMPPORTAL_API_KEY"),
      staleAfterMs: positiveInt(env, "LAUNCH_FEED_STALE_MS", 60_000),
      policy: {},
    },
    nansen: {
      url: url(env, "NANSEN_BASE_URL", NANSEN_URL, HTTP) as string,
      key: present(env, "NANSEN_API_KEY"),
      policy: policy("NANSEN", 15_000, 4),
    },
    lifi: {
      url: url(env, "LIFI_BASE_URL", LIFI_URL, HTTP) as string,
      key: present(env, "LIFI_API_KEY"),
      policy: policy("LIFI", 15_000, 2),
    },
    // Keyless Jupiter allows 0.5 requests a second: one at a time.
    jupiter: {
      url: url(env, "JUPITER_BASE_URL", JUPITER_URL, HTTP) as string,
      key: present(env, "JUPITER_API_KEY"),
      policy: policy("JUPITER", 5_000, 1),
    },
  };
}

/** Keys, and every part of the RPC URLs that could be one (query values, path segments, the URLs themselves). */
export function secretsOf(config: LiveConfig): string[] {
  const keys = [config.nansen.key, config.lifi.key, config.jupiter.key, config.pumpportal.key];
  const urlParts = [config.solana.url, config.solana.wsUrl].flatMap((raw) => {
    if (!raw) return [];
    const parsed = new URL(raw);
    return [raw, ...parsed.searchParams.values(), ...parsed.pathname.split("/"), parsed.username, parsed.password];
  });
  return [...keys, ...urlParts].filter((s): s is string => s !== undefined && s.length >= 6);
}

/** Replaces every secret in a text; longest first, so that a URL goes before the key inside it. */
export function redactor(secrets: readonly string[]): (text: string) => string {
  const sorted = [...new Set(secrets)].sort((a, b) => b.length - a.length);
  return (text) => sorted.reduce((out, secret) => out.split(secret).join("[redacted]"), text);
}

export interface CreatedProviders {
  providers: Providers;
  modes: ProviderModes;
  /** Closes the live feeds' sockets. */
  close(): void;
}

/** The providers of every role, embedded or live as configured, and the modes `GET /` reports. */
export function createProviders(
  env: Env,
  { seed, clock, fetch }: { seed: string; clock: Clock; fetch?: typeof globalThis.fetch },
): CreatedProviders {
  const config = loadLiveConfig(env);
  const deps: HttpDeps = { fetch, clock, redact: redactor(secretsOf(config)) };
  const http = (source: string, upstream: Upstream) => createUpstreamHttp(source, upstream.policy, deps);
  const live = (role: Role) => config.modes[role] === "live";
  // One RPC client for the chain and pool roles: one breaker and one concurrency limit for the endpoint.
  const rpc = createJsonRpc(http("solana-rpc", config.solana), config.solana.url);
  const options = { seed, clock };
  const launches = live("launches")
    ? createLiveLaunches({
        clock,
        rpc: createJsonRpc(http("launchlab", config.solana), config.solana.url),
        rpcWsUrl: config.solana.wsUrl,
        pumpPortalUrl: config.pumpportal.url,
        pumpPortalKey: config.pumpportal.key,
        staleAfterMs: config.pumpportal.staleAfterMs,
      })
    : undefined;
  const providers: Providers = {
    tvl: live("tvl")
      ? createDefiLlamaTvl({
          http: http("defillama", config.defillama),
          clock,
          apiUrl: config.defillama.url,
          yieldsUrl: config.defillama.yieldsUrl,
        })
      : createEmbeddedTvl(options),
    pools: live("pools")
      ? createMeteoraPools({
          http: http("meteora", config.meteora),
          rpc,
          clock,
          datapiUrl: config.meteora.url,
          legacyUrl: config.meteora.legacyUrl,
        })
      : createEmbeddedPools(options),
    launches: launches ?? createEmbeddedLaunches(options),
    chain_rpc: live("chain_rpc") ? createSolanaRpc({ rpc }) : createEmbeddedChainRpc(options),
    wallet_labels: live("wallet_labels")
      ? createNansenLabels({ http: http("nansen", config.nansen), clock, apiKey: config.nansen.key as string, baseUrl: config.nansen.url })
      : createEmbeddedWalletLabels(options),
    swap_bridge: live("swap_bridge")
      ? createLifiJupiter({
          lifi: http("lifi", config.lifi),
          jupiter: http("jupiter", config.jupiter),
          lifiUrl: config.lifi.url,
          jupiterUrl: config.jupiter.url,
          lifiKey: config.lifi.key,
          jupiterKey: config.jupiter.key,
        })
      : createEmbeddedSwapBridge(options),
  };
  return { providers, modes: config.modes, close: () => launches?.close() };
}
