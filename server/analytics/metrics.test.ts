// The analytics families as Prometheus shows them: labels from closed sets, and a breaker gauge that
// counts the provider's open hosts.
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { metricValue } from "../../test/support/metrics.js";
import { prometheusObservers } from "./metrics.js";

describe("prometheusObservers", () => {
  it("labels each family by its closed sets and counts open breakers per provider", async () => {
    const registry = new Registry();
    const observe = prometheusObservers(registry);
    observe.payments.payment({
      network: "solana-devnet",
      version: "1",
      outcome: "refused",
      reason: "invalid_exact_svm_payload_transaction",
    });
    observe.payments.settlement({ backend: "facilitator", outcome: "settled", seconds: 0.2 });
    for (const outcome of ["served", "recovered"] as const)
      observe.payments.payment({ network: "base", version: "2", outcome, reason: "settled", amount: 2500n });
    observe.payments.payment({ network: "base", version: "2", outcome: "replayed", reason: "" });
    observe.insight.insight({ outcome: "partial", cause: "timeout" });
    observe.insight.insight({ outcome: "answered" });
    observe.upstream.attempt("meteora", "timeout", 8);
    observe.upstream.failure("meteora", "retries_exhausted");
    observe.upstream.breaker("meteora", true);
    observe.upstream.breaker("meteora", true);
    observe.upstream.breaker("meteora", false);
    observe.cache.lookup("hit");
    const page = await registry.metrics();
    expect(
      metricValue(page, "x402_payments_total", { network: "solana-devnet", x402_version: "1", outcome: "refused" }),
    ).toBe(1);
    expect(metricValue(page, "x402_settlement_duration_seconds_bucket", { backend: "facilitator", le: "0.25" })).toBe(
      1,
    );
    expect(metricValue(page, "x402_revenue_micro_usdc_total", { network: "base" })).toBe(5000);
    expect(metricValue(page, "insight_answers_total", { outcome: "partial", cause: "timeout" })).toBe(1);
    expect(metricValue(page, "insight_answers_total", { outcome: "answered", cause: "" })).toBe(1);
    expect(metricValue(page, "upstream_requests_total", { provider: "meteora", outcome: "timeout" })).toBe(1);
    expect(metricValue(page, "upstream_request_duration_seconds_sum", { provider: "meteora" })).toBe(8);
    expect(metricValue(page, "upstream_failures_total", { provider: "meteora", kind: "retries_exhausted" })).toBe(1);
    expect(metricValue(page, "upstream_breaker_open", { provider: "meteora" })).toBe(1);
    expect(metricValue(page, "cache_lookups_total", { result: "hit" })).toBe(1);
  });
});
