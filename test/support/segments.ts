/** Helpers for segment tests: an embedded context on a fixed clock, and contract checks of outcomes. */
import { expect } from "vitest";
import { loadDoc } from "../../conformance/openapi-doc.js";
import { createResponseValidator } from "../../conformance/schema-validator.js";
import { singleFlight } from "../../server/analytics/cache/memory-cache.js";
import { manualClock } from "../../server/analytics/clock.js";
import type { OperationName } from "../../server/analytics/contract/operation-types.js";
import { cachedProviders } from "../../server/analytics/providers/caching.js";
import { createEmbeddedProviders, type Providers } from "../../server/analytics/providers/index.js";
import { createSegmentContext } from "../../server/analytics/segments/derived.js";
import type { Outcome, SegmentContext } from "../../server/analytics/segments/types.js";
import { jsonStore } from "./cache.js";

/** 2026-11-21 12:00 UTC: the moment every segment test is pinned to. */
export const TEST_NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

/**
 * A segment context over the embedded dataset, as the service wires it: `providers` behind a cache
 * (whose entries make a JSON round trip, as in a shared store), `upstream` the providers behind it,
 * where tests count and replace calls.
 */
export function testContext(
  seed = "test-seed",
  now = TEST_NOW,
): SegmentContext & { clock: ReturnType<typeof manualClock>; upstream: Providers } {
  const clock = manualClock(now);
  const upstream = createEmbeddedProviders({ seed, clock });
  const cache = singleFlight(jsonStore(clock));
  return {
    upstream,
    ...createSegmentContext({ providers: cachedProviders(upstream, cache, clock), clock, cache }),
    clock,
  };
}

const doc = loadDoc("3.1", "analytics");
const validator = createResponseValidator(doc);
const routes = new Map(
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.values(item)
      .filter((op) => op.operationId.startsWith("Solana_") && !op.operationId.endsWith("Legacy"))
      .map((op) => [op.operationId.slice("Solana_".length), path] as const),
  ),
);

/** Asserts an outcome would make a contract-valid 200 envelope, and returns it. */
export function expectValidOutcome<N extends OperationName>(name: N, outcome: Outcome<N>): Outcome<N> {
  const path = routes.get(name);
  expect(path, `no POST route for ${name}`).toBeDefined();
  const envelope = {
    data: outcome.data,
    insight: outcome.brief,
    signal: outcome.baseline.signal,
    confidence: outcome.baseline.confidence,
    sources: outcome.sources,
    model_used: "embedded-insight-v1",
    latency_ms: 1,
    timestamp: "2026-11-21T12:00:00.000Z",
  };
  expect(validator.validate("post", path as string, 200, envelope)).toEqual([]);
  expect(outcome.brief.length).toBeGreaterThan(0);
  expect(outcome.sources.length).toBeGreaterThan(0);
  return outcome;
}

/** Counts the calls to one provider method, which still answers as before (for cache tests). */
export function countCalls<T extends object, K extends keyof T>(target: T, method: K): { readonly count: number } {
  const original = (target[method] as (...args: unknown[]) => unknown).bind(target);
  const counter = { count: 0 };
  target[method] = ((...args: unknown[]) => {
    counter.count++;
    return original(...args);
  }) as T[K];
  return counter;
}
