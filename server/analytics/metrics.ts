/**
 * The analytics service's own Prometheus families, as the observers its parts report to: payments
 * and settlement, insight outcomes, upstream calls and breakers, cache lookups. Every label takes
 * its values from a closed set (networks, reason codes, provider ids, outcomes), never from a
 * request's path, payer or id.
 */
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import { LATENCY_BUCKETS } from "../ops/metrics.js";
import type { CacheObserver } from "./cache/memory-cache.js";
import type { InsightObserver } from "./insight/types.js";
import type { PaymentObserver } from "./payments/reporting/payment-events.js";
import type { UpstreamObserver } from "./providers/live/http.js";

export interface AnalyticsObservers {
  payments: PaymentObserver;
  insight: InsightObserver;
  upstream: UpstreamObserver;
  cache: CacheObserver;
}

export function prometheusObservers(registry: Registry): AnalyticsObservers {
  const registers = [registry];
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Counter({ name, help, labelNames, registers });
  const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Histogram({ name, help, labelNames, buckets: LATENCY_BUCKETS, registers });
  const payments = counter(
    "x402_payments_total",
    "Payments by network, x402 version and outcome (served, replayed, held, refused, released, recovered) with its reason.",
    ["network", "x402_version", "outcome", "reason"],
  );
  const revenue = counter(
    "x402_revenue_micro_usdc_total",
    "USDC the service was paid, in micro-USDC, by network: each payment once, when it settled (a replay adds nothing).",
    ["network"],
  );
  const settlement = histogram(
    "x402_settlement_duration_seconds",
    "Settlement calls by backend and outcome (settled, refused, error: outcome unknown).",
    ["backend", "outcome"],
  );
  const insight = counter(
    "insight_answers_total",
    "Insight outcomes: the model answered, or the answer was a 206 with this cause.",
    ["outcome", "cause"],
  );
  const attempts = counter("upstream_requests_total", "Attempts sent to an upstream provider, by how they ended.", [
    "provider",
    "outcome",
  ]);
  const attemptDuration = histogram(
    "upstream_request_duration_seconds",
    "Duration of the attempts sent to an upstream provider.",
    ["provider"],
  );
  const failures = counter(
    "upstream_failures_total",
    "Upstream requests that ended as the caller's 502, by provider and why.",
    ["provider", "kind"],
  );
  const breakers = new Gauge({
    name: "upstream_breaker_open",
    help: "Circuit breakers of the provider's hosts that are open now (0: every host is called).",
    labelNames: ["provider"] as const,
    registers,
  });
  const lookups = counter(
    "cache_lookups_total",
    "Upstream-data cache lookups: hit, miss (this call loads), shared (a load already under way answers).",
    ["result"],
  );
  return {
    payments: {
      payment: ({ network, version, outcome, reason, amount }) => {
        payments.inc({ network, x402_version: version, outcome, reason });
        if (amount !== undefined) revenue.inc({ network }, Number(amount));
      },
      settlement: ({ backend, outcome, seconds }) => settlement.observe({ backend, outcome }, seconds),
    },
    insight: {
      insight: (event) =>
        insight.inc({ outcome: event.outcome, cause: event.outcome === "partial" ? event.cause : "" }),
    },
    upstream: {
      attempt: (provider, outcome, seconds) => {
        attempts.inc({ provider, outcome });
        attemptDuration.observe({ provider }, seconds);
      },
      failure: (provider, kind) => failures.inc({ provider, kind }),
      breaker: (provider, open) => breakers.inc({ provider }, open ? 1 : -1),
    },
    cache: { lookup: (result) => lookups.inc({ result }) },
  };
}
