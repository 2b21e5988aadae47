/**
 * Provider settings from the environment: each role is `embedded` (the default, offline) or `live`
 * (`<ROLE>_PROVIDER=live`), with base URLs defaulting to the documented hosts, keys, and
 * per-adapter timeouts. A live role missing what it needs is a `ConfigError` naming the variable,
 * never its value. Every secret (keys, and RPC URLs, which carry keys) is listed so that upstream
 * error messages can be scrubbed of it, and none reaches a response or a log line.
 */
import type { components } from "../../../generated/types/analytics.js";
import { ConfigError, type Env, positiveInt, present, url } from "../../config/env.js";
import { DEFILLAMA_API_URL, DEFILLAMA_YIELDS_URL } from "./live/defillama.js";
import type { HttpPolicy } from "./live/http.js";
import { JUPITER_URL, LIFI_URL } from "./live/lifi-jupiter.js";
import { METEORA_DATAPI_URL, METEORA_LEGACY_URL } from "./live/meteora.js";
import { NANSEN_URL } from "./live/nansen.js";
import { PUMPPORTAL_WS_URL } from "./live/pumpportal.js";

export type ProviderModes = components["schemas"]["ProviderModes"];
type ProviderMode = components["schemas"]["ProviderMode"];
type Role = keyof ProviderModes;

const ROLE_VARIABLES: Record<Role, string> = {
  tvl: "TVL_PROVIDER",
  pools: "POOLS_PROVIDER",
  launches: "LAUNCHES_PROVIDER",
  chain_rpc: "CHAIN_RPC_PROVIDER",
  wallet_labels: "WALLET_LABELS_PROVIDER",
  swap_bridge: "SWAP_BRIDGE_PROVIDER",
};

/** One upstream: its base URL, optional key, and client policy (timeout and concurrency differ per provider). */
export interface Upstream {
  url: string;
  key?: string;
  policy: Partial<HttpPolicy>;
}

/** Every provider setting, parsed and checked: what the assembly of the providers needs. */
export interface ProviderSettings {
  modes: ProviderModes;
  defillama: Upstream & { yieldsUrl: string };
  meteora: Upstream & { legacyUrl: string };
  solana: Upstream & { wsUrl: string };
  pumpportal: Upstream & { staleAfterMs: number };
  nansen: Upstream;
  lifi: Upstream;
  jupiter: Upstream;
}

const HTTP = ["https:", "http:"];
const WS = ["wss:", "ws:"];

function mode(env: Env, role: Role): ProviderMode {
  const name = ROLE_VARIABLES[role];
  const value = present(env, name) ?? "embedded";
  if (value !== "embedded" && value !== "live") throw new ConfigError(`${name} must be embedded or live`);
  return value;
}

/** Reads and checks the provider variables; a live role without its required variables is an error. Pure. */
export function parseProviderSettings(env: Env): ProviderSettings {
  const modes = Object.fromEntries(
    (Object.keys(ROLE_VARIABLES) as Role[]).map((role) => [role, mode(env, role)]),
  ) as ProviderModes;
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
    if (modes[role] === "live" && value === undefined)
      throw new ConfigError(`${ROLE_VARIABLES[role]}=live needs ${variable} (${why})`);
  };
  needs("chain_rpc", "SOLANA_RPC_URL", rpcUrl, "the Solana JSON-RPC endpoint");
  needs("pools", "SOLANA_RPC_URL", rpcUrl, "open position counts and the legacy fallback's decimals");
  needs("launches", "SOLANA_RPC_URL", rpcUrl, "LaunchLab pools are read over RPC");
  needs("wallet_labels", "NANSEN_API_KEY", present(env, "NANSEN_API_KEY"), "Nansen answers keyless calls with 402");
  return {
    modes,
    defillama: {
      url: url(env, "DEFILLAMA_API_URL", DEFILLAMA_API_URL, HTTP, { base: true }) as string,
      yieldsUrl: url(env, "DEFILLAMA_YIELDS_URL", DEFILLAMA_YIELDS_URL, HTTP, { base: true }) as string,
      // The yields list is several megabytes.
      policy: policy("DEFILLAMA", 20_000, 4),
    },
    meteora: {
      url: url(env, "METEORA_DATAPI_URL", METEORA_DATAPI_URL, HTTP, { base: true }) as string,
      legacyUrl: url(env, "METEORA_LEGACY_URL", METEORA_LEGACY_URL, HTTP, { base: true }) as string,
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
      url: url(env, "NANSEN_BASE_URL", NANSEN_URL, HTTP, { base: true }) as string,
      key: present(env, "NANSEN_API_KEY"),
      policy: policy("NANSEN", 15_000, 4),
    },
    lifi: {
      url: url(env, "LIFI_BASE_URL", LIFI_URL, HTTP, { base: true }) as string,
      key: present(env, "LIFI_API_KEY"),
      policy: policy("LIFI", 15_000, 2),
    },
    // Keyless Jupiter allows 0.5 requests a second: one at a time.
    jupiter: {
      url: url(env, "JUPITER_BASE_URL", JUPITER_URL, HTTP, { base: true }) as string,
      key: present(env, "JUPITER_API_KEY"),
      policy: policy("JUPITER", 5_000, 1),
    },
  };
}

/** Keys, and every part of the RPC URLs that could be one (query values, path segments, the URLs themselves). */
export function secretsOf(settings: ProviderSettings): string[] {
  const keys = [settings.nansen.key, settings.lifi.key, settings.jupiter.key, settings.pumpportal.key];
  const urlParts = [settings.solana.url, settings.solana.wsUrl].flatMap((raw) => {
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
