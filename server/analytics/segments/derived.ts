/**
 * The derived reads (types.ts: figures computed from many provider reads) and the segment context
 * that carries them: computed here, kept in the providers' cache under their own policy, so a
 * handler calls them as it calls a provider, never knowing how long an answer is kept.
 */
import type { Cache } from "../cache/memory-cache.js";
import { type Clock, MINUTE } from "../clock.js";
import type { RolePolicy } from "../providers/cache-policy.js";
import { cachedRole } from "../providers/caching.js";
import type { Providers } from "../providers/roles.js";
import { traderRows } from "./traders.js";
import type { DerivedReads, SegmentContext } from "./types.js";

/** Keys and lifetimes of the derived reads: the trader ranking follows its 5-minute wallet histories. */
const POLICY: RolePolicy<DerivedReads> = {
  traderRows: { params: (period) => period, ttlMs: 5 * MINUTE },
};

/** The context handlers run in: the cached providers, the derived reads over them in the same cache, the clock. */
export function createSegmentContext({
  providers,
  clock,
  cache,
}: {
  providers: Providers;
  clock: Clock;
  cache: Cache;
}): SegmentContext {
  const reads = { providers, clock };
  const derived: DerivedReads = { traderRows: (period) => traderRows(reads, period) };
  // Derived from every role: kept apart for each combination of upstreams.
  const sources = Object.values(providers)
    .map((role) => role.source)
    .join("+");
  return { providers, clock, derived: cachedRole("derived", sources, derived, POLICY, cache), prefix: "" };
}
