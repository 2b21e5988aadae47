/**
 * The provider roles behind the cache: the same interfaces, each read answered from the cache under
 * its policy (cache-policy.ts) or loaded once for all concurrent callers. Callers never see the
 * cache; other members (`source`, derived addresses) pass through.
 */
import type { Cache } from "../cache/memory-cache.js";
import type { Clock } from "../clock.js";
import { type MethodPolicy, type ProvidersPolicy, providerCachePolicy, type RolePolicy } from "./cache-policy.js";
import type { Providers } from "./roles.js";

type Method = (...args: unknown[]) => Promise<unknown>;

/**
 * `upstream` with each read of `policy` answered from `cache` under the key
 * `<name>@<source>:<method>:<params>`. The source is in the key because instances sharing a cache
 * may read a role from different upstreams (a rolling change of a `*_PROVIDER`): one must never
 * answer, under its own source's name, what another upstream gave.
 */
export function cachedRole<T extends object>(
  name: string,
  source: string,
  upstream: T,
  policy: RolePolicy<T>,
  cache: Cache,
): T {
  const target = upstream as unknown as Record<string, Method>;
  const methods = Object.entries(policy as Record<string, MethodPolicy<unknown[], unknown>>).map(([method, p]) => {
    const read = (...args: unknown[]) => {
      const key = `${name}@${source}:${method}:${p.params?.(...args) ?? ""}`;
      const ttlMs = typeof p.ttlMs === "number" ? p.ttlMs : p.ttlMs(...args);
      // Looked up at call time, so that a method replaced on the upstream object is the one called.
      const load = () => (target[method] as Method).apply(target, args);
      if (!p.codec) return cache.wrap(key, ttlMs, load);
      const { encode, decode } = p.codec;
      return cache.wrap(key, ttlMs, async () => encode(await load())).then(decode);
    };
    return [method, read] as const;
  });
  return { ...upstream, ...Object.fromEntries(methods) };
}

/** Every role of `upstream` behind `cache`, under the policy of each read. */
export function cachedProviders(upstream: Providers, cache: Cache, clock: Clock): Providers {
  const policy: ProvidersPolicy = providerCachePolicy(clock);
  const role = <R extends keyof Providers>(name: R) =>
    cachedRole(name, upstream[name].source, upstream[name], policy[name], cache);
  return {
    tvl: role("tvl"),
    pools: role("pools"),
    launches: role("launches"),
    chain_rpc: role("chain_rpc"),
    wallet_labels: role("wallet_labels"),
    swap_bridge: role("swap_bridge"),
  };
}
