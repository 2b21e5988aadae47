// Coverage and the observed checks are computed from the documents and recorded exchanges alone: a few
// exchanges against the real documents, and what each dimension and check must make of them.
import { describe, expect, it } from "vitest";
import { DOCS } from "./cases.js";
import { belowMinimum, computeCoverage, type Scope } from "./coverage.js";
import { countNamed, withObservedSuite } from "./coverage-report.js";
import type { Exchange } from "./observations.js";
import { judgeExchanges } from "./observed-checks.js";

const docs = { analytics: DOCS.analytics, registry: DOCS.registry };
const scope: Scope = { services: ["analytics", "registry"], prefixes: ["base"] };

const exchange = (over: Partial<Exchange>): Exchange => ({
  service: "analytics",
  method: "GET",
  path: "/",
  headers: {},
  status: 200,
  responseHeaders: ["content-type"],
  contentType: "application/json; charset=utf-8",
  ms: 5,
  ...over,
});

const challenge = exchange({
  method: "POST",
  path: "/base/defi/tvl",
  body: { chain: "base", limit: 5 },
  status: 402,
  responseHeaders: ["payment-required", "cache-control", "content-type"],
});
const tooMany = exchange({ method: "GET", path: "/base/defi/tvl?limit=999", status: 400 });
const unknownAgent = exchange({ service: "registry", path: "/manifest/no-such-agent-zz9", status: 404 });

const opOf = (coverage: ReturnType<typeof computeCoverage>, row: string, column: string) =>
  coverage.operations.find((o) => o.row === row && o.column === column);

describe("computeCoverage", () => {
  const coverage = computeCoverage(docs, [challenge, tooMany, unknownAgent], scope);

  it("keeps the operations of the selected prefixes only, named by row and column", () => {
    expect(opOf(coverage, "POST /defi/tvl", "base")).toBeDefined();
    expect(opOf(coverage, "POST /defi/tvl", "skale")).toBeUndefined();
    expect(opOf(coverage, "GET /manifest/{name}", "registry")?.statuses.exercised).toEqual([404]);
  });

  it("counts a documented status once answered, and never those only a failing dependency gives", () => {
    const post = opOf(coverage, "POST /defi/tvl", "base");
    expect(post?.statuses.exercised).toEqual([402]);
    expect(post?.statuses.missing).toEqual([200, 206, 400, 404, 409]);
    expect(post?.statuses.notCounted).toEqual([500, 502, 503]);
    // an operation that takes no input cannot be sent an invalid one: its 400 is not counted
    expect(opOf(coverage, "GET /livez", "free")?.statuses.notCounted).toEqual([500]);
    expect(opOf(coverage, "GET /", "free")?.statuses.notCounted).toEqual([400, 500]);
  });

  it("tells a parameter sent valid from one sent invalid, reading query text as its type", () => {
    const get = opOf(coverage, "GET /defi/tvl", "base");
    expect(get?.parameters.find((p) => p.name === "limit")).toMatchObject({
      location: "query",
      constrained: true,
      valid: false,
      invalid: true,
    });
    const body = opOf(coverage, "POST /defi/tvl", "base")?.parameters.filter((p) => p.location === "body");
    expect(body?.find((p) => p.name === "limit")).toMatchObject({ valid: true, invalid: false });
    expect(opOf(coverage, "GET /manifest/{name}", "registry")?.parameters.find((p) => p.name === "name")).toMatchObject(
      {
        location: "path",
        valid: true,
      },
    );
  });

  it("sees a documented response header only on the status that documents it", () => {
    const headers = opOf(coverage, "POST /defi/tvl", "base")?.headers ?? [];
    expect(headers.find((h) => h.status === 402 && h.name === "PAYMENT-REQUIRED")).toMatchObject({
      seen: true,
      counted: true,
    });
    expect(headers.find((h) => h.status === 200 && h.name === "Cache-Control")).toMatchObject({
      seen: false,
      counted: true,
    });
    expect(headers.find((h) => h.status === 402 && h.name === "PAYMENT-RESPONSE")).toMatchObject({ counted: false });
  });

  it("sums each dimension and names those below a minimum", () => {
    expect(coverage.summary.statuses.covered).toBe(3);
    expect(coverage.summary.statuses.percent).toBeLessThan(10);
    expect(belowMinimum(coverage, 90).map((b) => b.dimension)).toEqual(["statuses", "parameters", "headers"]);
    expect(belowMinimum(coverage, 0)).toEqual([]);
  });

  it("keeps an exchange that is no operation apart", () => {
    const stray = exchange({ method: "PUT", path: "/base/defi/tvl", status: 405 });
    expect(computeCoverage(docs, [stray], scope).unmatched).toEqual([stray]);
  });
});

describe("judgeExchanges", () => {
  const verdict = (exchanges: Exchange[], name: string, maxResponseMs?: number) =>
    judgeExchanges(docs, exchanges, scope, maxResponseMs).find((c) => c.name === name && c.row === "POST /defi/tvl")
      ?.failures;

  it("passes a conforming 402", () => {
    for (const name of [
      "not_a_server_error",
      "status_code_conformance",
      "content_type_conformance",
      "response_headers_conformance",
    ])
      expect(verdict([challenge], name), name).toEqual([]);
  });

  it("names the exchange that breaks each check", () => {
    expect(verdict([{ ...challenge, status: 500 }], "not_a_server_error")?.[0]).toMatch(/POST \/base\/defi\/tvl → 500/);
    expect(verdict([{ ...challenge, status: 418 }], "status_code_conformance")?.[0]).toMatch(/not a documented status/);
    expect(verdict([{ ...challenge, contentType: "text/html" }], "content_type_conformance")?.[0]).toMatch(
      /"text\/html"/,
    );
    expect(
      verdict([{ ...challenge, responseHeaders: ["cache-control"] }], "response_headers_conformance")?.[0],
    ).toMatch(/missing required header PAYMENT-REQUIRED/);
  });

  it("judges max_response_time only against a budget", () => {
    expect(verdict([challenge], "max_response_time")).toBeUndefined();
    expect(verdict([{ ...challenge, ms: 900 }], "max_response_time", 500)?.[0]).toMatch(/900 ms, over 500 ms/);
    expect(verdict([challenge], "max_response_time", 500)).toEqual([]);
  });

  it("judges an undocumented request for 5xx only", () => {
    const checks = judgeExchanges(docs, [exchange({ method: "PUT", path: "/defi/tvl", status: 405 })], scope);
    expect(checks.map((c) => [c.name, c.failures.length])).toEqual([["not_a_server_error", 0]]);
  });
});

describe("the report", () => {
  const observed = judgeExchanges(docs, [{ ...challenge, status: 500 }], scope);

  it("counts named checks over the suite's tests and the observed verdicts", () => {
    const tests = [
      {
        title: "POST /defi/tvl · base · negative_data_rejection: 400 body.limit above its maximum 50",
        status: "passed" as const,
      },
      { title: "POST /defi/tvl · base · 402 challenge", status: "failed" as const },
      { title: "POST /defi/tvl · base · a2a_skills: paid · completed", status: "skipped" as const },
    ];
    const named = countNamed(tests, observed);
    expect(named.negative_data_rejection).toEqual({ passed: 1, failed: 0, skipped: 0 });
    expect(named.payment_required_enforced).toEqual({ passed: 0, failed: 1, skipped: 0 });
    expect(named.a2a_skills).toEqual({ passed: 0, failed: 0, skipped: 1 });
    expect(named.not_a_server_error).toEqual({ passed: 0, failed: 1, skipped: 0 });
  });

  it("adds the observed checks to the JUnit file as one more suite, and to its totals", () => {
    const xml =
      '<?xml version="1.0"?>\n<testsuites name="vitest tests" tests="2" failures="0" errors="0" time="1">\n</testsuites>\n';
    const out = withObservedSuite(xml, observed);
    expect(out).toContain(`tests="${2 + observed.length}" failures="1"`);
    expect(out).toMatch(
      /<testcase classname="conformance\/observed-exchanges" name="POST \/defi\/tvl · base · not_a_server_error/,
    );
    expect(out).toMatch(/<failure message="1 exchange\(s\) failed not_a_server_error"/);
  });
});
