/**
 * The end of a conformance run (scripts/conformance.mjs calls it once vitest is done): the workers'
 * recorded exchanges merged against the documents into the coverage report (JSON and Markdown), the
 * checks judged over every exchange (observed-checks.ts) appended to the JUnit file, and the named
 * checks CI tools know (Schemathesis's) counted over both those and the suite's tests.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { NETWORKS } from "../lib/networks.js";
import { DOCS } from "./cases.js";
import {
  belowMinimum,
  type Coverage,
  computeCoverage,
  DIMENSIONS,
  NO_INPUT_400,
  NOT_PROVOKABLE,
  NOT_PROVOKABLE_HEADERS,
  type Scope,
} from "./coverage.js";
import type { Exchange, ObservedService } from "./observations.js";
import { judgeExchanges, type ObservedCheck } from "./observed-checks.js";

/** A test of the suite as vitest's JSON report gives it. */
export interface TestResult {
  title: string;
  status: "passed" | "failed" | "skipped";
}

/** Each named check, and the suite's tests that check it (by the check part of their `row · column · check` title). */
export const NAMED_CHECKS: Record<string, { observed: boolean; tests?: RegExp; what: string }> = {
  not_a_server_error: { observed: true, what: "no answer is a 5xx, whatever the input" },
  status_code_conformance: { observed: true, what: "every status answered is documented for its operation" },
  content_type_conformance: { observed: true, what: "every body's media type is the one documented for its status" },
  response_headers_conformance: {
    observed: true,
    what: "every required response header (the x402 ones, ETag, Cache-Control) is sent",
  },
  positive_data_acceptance: {
    observed: false,
    tests: /^(positive_data_acceptance|200 example|200 without payment|paid answer)/,
    what: "schema-valid inputs are never refused with a 400",
  },
  negative_data_rejection: {
    observed: false,
    tests: /^(negative_data_rejection|400 malformed|400 both payment headers)/,
    what: "schema-invalid inputs (and malformed payment headers) are always refused",
  },
  unsupported_method: {
    observed: false,
    tests: /^unsupported_method/,
    what: "an undocumented method is a 405 with Allow",
  },
  payment_required_enforced: {
    observed: false,
    tests: /^(payment_required_enforced|402 challenge)/,
    what: "a paid operation is never served without a valid payment",
  },
  indexer_probe: {
    observed: false,
    tests: /^indexer_probe/,
    what: "every paid route answers x402's Bazaar indexer probe (its method, no payment, no body or {}) with a 402 whose Bazaar extension @x402/extensions accepts",
  },
  discovery_agreement: {
    observed: false,
    tests: /^discovery_agreement/,
    what: "the OpenAPI x-payment-info, the agent card, MCP tools/list and /.well-known/x402 agree with each route's live 402; the agent card is A2A v1.0 (JSON-RPC 1.0 at /a2a, the x402 extension required, one skill per paid operation)",
  },
  payment_lookup: {
    observed: false,
    tests: /^payment_lookup/,
    what: "a payment is asked about, free, under its prefix: unknown ids are a 404; a purchase paid with a payment-identifier is settled with its transaction and the receipt its answer carried",
  },
  a2a_skills: {
    observed: false,
    tests: /^a2a_skills/,
    what: "every paid operation is an A2A v1.0 skill at the agent card's JSON-RPC endpoint, paid over x402's A2A transport: the task asks for payment on each network, completes once paid (the 200 schema's artifact, a successful receipt, the same again), asks again after a payment that does not pay; A2A's errors by their codes",
  },
  max_response_time: { observed: true, what: "no answer slower than --max-response-time" },
};

export interface NamedCount {
  passed: number;
  failed: number;
  skipped: number;
}

/** The run's scope from the suite's environment: the services checked and the prefixes selected. */
export function scopeOf(env: Record<string, string | undefined>): Scope {
  const wanted = (env.CONFORMANCE_NETWORK ?? "")
    .split(",")
    .map((n) => n.trim().toLowerCase())
    .filter(Boolean);
  const target = env.CONFORMANCE_TARGET ?? "server";
  const services: ObservedService[] =
    target !== "url" || env.CONFORMANCE_REGISTRY_URL ? ["analytics", "registry"] : ["analytics"];
  return { services, prefixes: NETWORKS.map((n) => n.name).filter((name) => !wanted.length || wanted.includes(name)) };
}

/** Every exchange the workers recorded in `dir`. */
export function readExchanges(dir: string): Exchange[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith(".jsonl"))
    .flatMap((file) =>
      readFileSync(join(dir, file), "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Exchange),
    );
}

/** How many tests and observed verdicts of each named check passed, failed or were skipped. */
export function countNamed(
  tests: readonly TestResult[],
  observed: readonly ObservedCheck[],
): Record<string, NamedCount> {
  return Object.fromEntries(
    Object.entries(NAMED_CHECKS).map(([name, { tests: pattern }]) => {
      const count: NamedCount = { passed: 0, failed: 0, skipped: 0 };
      for (const test of tests) if (pattern?.test(test.title.split(" · ")[2] ?? "")) count[test.status] += 1;
      for (const check of observed.filter((c) => c.name === name))
        count[check.failures.length ? "failed" : "passed"] += 1;
      return [name, count];
    }),
  );
}

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The JUnit XML with one more test suite: each observed check per operation × prefix, titled like the suite's tests. */
export function withObservedSuite(xml: string, observed: readonly ObservedCheck[]): string {
  const failures = observed.filter((c) => c.failures.length).length;
  const cases = observed.map((c) => {
    const name = escapeXml(`${c.row} · ${c.column} · ${c.name} (${c.exchanges} exchanges)`);
    const failure = c.failures.length
      ? `<failure message="${escapeXml(`${c.failures.length} exchange(s) failed ${c.name}`)}" type="AssertionError">${escapeXml(c.failures.join("\n"))}</failure>`
      : "";
    return `    <testcase classname="conformance/observed-exchanges" name="${name}" time="0">${failure}</testcase>`;
  });
  const suite = `  <testsuite name="conformance/observed-exchanges" tests="${observed.length}" failures="${failures}" errors="0" skipped="0" time="0">\n${cases.join("\n")}\n  </testsuite>\n`;
  const bump = (attribute: string, by: number) => (text: string) =>
    text.replace(
      new RegExp(`(<testsuites[^>]*\\s${attribute}=")(\\d+)"`),
      (_, head: string, n: string) => `${head}${Number(n) + by}"`,
    );
  const counted = bump("failures", failures)(bump("tests", observed.length)(xml));
  return counted.includes("</testsuites>") ? counted.replace("</testsuites>", `${suite}</testsuites>`) : counted;
}

const pct = (r: { covered: number; total: number; percent: number }) => `${r.percent} % (${r.covered}/${r.total})`;

/** The Markdown report: the summary, the named checks, the gaps, then every operation × prefix. */
export function renderMarkdown(coverage: Coverage, named: Record<string, NamedCount>, target: string): string {
  const lines = [`# Conformance coverage on ${target}`, "", "| dimension | covered |", "|---|---|"];
  for (const d of DIMENSIONS) lines.push(`| ${d} | ${pct(coverage.summary[d])} |`);
  lines.push("", "## Named checks", "", "| check | passed | failed | skipped | what |", "|---|---|---|---|---|");
  for (const [name, count] of Object.entries(named))
    lines.push(`| \`${name}\` | ${count.passed} | ${count.failed} | ${count.skipped} | ${NAMED_CHECKS[name]?.what} |`);
  lines.push("", "## Not counted", "", "Documented, but no black-box run can provoke them from a healthy service:", "");
  for (const [status, why] of Object.entries(NOT_PROVOKABLE)) lines.push(`- status ${status}: ${why}`);
  lines.push(`- status 400 of an operation without parameters or body: ${NO_INPUT_400}`);
  for (const [header, why] of Object.entries(NOT_PROVOKABLE_HEADERS)) lines.push(`- header ${header}: ${why}`);
  lines.push(
    "",
    "## Operations",
    "",
    "| operation | prefix | exchanges | statuses missing | parameters never valid | constrained parameters never invalid | headers never seen |",
  );
  lines.push("|---|---|---|---|---|---|---|");
  for (const op of coverage.operations) {
    const never = (list: string[]) => list.join(", ") || "–";
    lines.push(
      `| ${op.row} | ${op.column} | ${op.exchanges} | ${never(op.statuses.missing.map(String))} | ${never(
        op.parameters.filter((p) => !p.valid).map((p) => `${p.location}.${p.name}`),
      )} | ${never(op.parameters.filter((p) => p.constrained && !p.invalid).map((p) => `${p.location}.${p.name}`))} | ${never(
        op.headers.filter((h) => h.counted && !h.seen).map((h) => `${h.status} ${h.name}`),
      )} |`,
    );
  }
  return `${lines.join("\n")}\n`;
}

export interface RunReport {
  coverage: Coverage;
  observed: ObservedCheck[];
  named: Record<string, NamedCount>;
  /** The dimensions under `minCoverage`. */
  below: ReturnType<typeof belowMinimum>;
}

/** Merges a run's exchanges, writes the coverage report (`coverageFile` and its `.md`) and extends the JUnit file. */
export function reportRun(options: {
  dir: string;
  env: Record<string, string | undefined>;
  tests: readonly TestResult[];
  junit: string;
  coverageFile: string;
  maxResponseMs?: number;
  minCoverage?: number;
}): RunReport {
  const exchanges = readExchanges(options.dir);
  const scope = scopeOf(options.env);
  const docs = { analytics: DOCS.analytics, registry: DOCS.registry };
  const coverage = computeCoverage(docs, exchanges, scope);
  const observed = judgeExchanges(docs, exchanges, scope, options.maxResponseMs);
  const named = countNamed(options.tests, observed);
  const target = options.env.CONFORMANCE_TARGET ?? "server";
  const { unmatched, ...rest } = coverage;
  const json = {
    target,
    exchanges: exchanges.length,
    undocumentedExchanges: unmatched.length,
    ...rest,
    namedChecks: named,
    observedChecks: observed,
  };
  writeFileSync(options.coverageFile, `${JSON.stringify(json, null, 2)}\n`);
  writeFileSync(`${options.coverageFile.replace(/\.json$/, "")}.md`, renderMarkdown(coverage, named, target));
  try {
    writeFileSync(options.junit, withObservedSuite(readFileSync(options.junit, "utf8"), observed));
  } catch {
    // vitest wrote no JUnit file: the script reports that already
  }
  const below = options.minCoverage === undefined ? [] : belowMinimum(coverage, options.minCoverage);
  return { coverage, observed, named, below };
}
