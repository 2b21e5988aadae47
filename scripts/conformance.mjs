// `npm run conformance [-- options]`: the conformance suite (conformance/vitest.config.ts) against one target, a
// summary table of operations × prefixes × results, JUnit XML and a coverage report for CI, and a non-zero exit on
// any failure or coverage below --min-coverage (2 when the options are wrong or the target cannot be reached,
// before anything runs). `--help` lists the options.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { reportRun } from "../conformance/coverage-report.js";
import { commandLine } from "../lib/command-line.mjs";

// Here, or the installed package's folder (its bundle is one folder deep, as this script is).
const root = fileURLToPath(new URL("..", import.meta.url));
// The package ships the suite compiled; this repository runs its sources.
const config = ["conformance/vitest.config.js", "conformance/vitest.config.ts"].find((file) =>
  existsSync(join(root, file)),
);
// Vitest's command, wherever npm installed it (here, or beside the package).
const VITEST = join(dirname(createRequire(import.meta.url).resolve("vitest/package.json")), "vitest.mjs");
const USAGE = `usage: npm run conformance [-- options]

Runs the contract's conformance suite against one target and prints a table of operations × prefixes.

  --target server|prism|url   server: both services in this process (default); prism: the mock (npm run mock's
                              Prism behind its paying front, started here); url: a deployment (implied by --base-url)
  --base-url URL              the analytics service of a deployment
  --registry-url URL          its registry (registry checks are skipped without it)
  --network solana,base,skale limit the prefixes (solana = the root paths)
  --junit FILE                JUnit XML output (default results/conformance-junit.xml)
  --coverage FILE             coverage report, JSON (default conformance-coverage.json beside the JUnit file),
                              and Markdown beside it (the same name ending in .md)
  --min-coverage N            fail (exit 1) when statuses, parameters or response headers are under N % covered
  --max-response-time MS      fail max_response_time for any answer slower than MS milliseconds
  --runs N                    fuzzing runs per property (default 40)
  --seed N|random             fuzzing seed (fixed by default)
  --no-pay                    never pay the deployment (paid answers are skipped)
  --help                      this text

Exit: 0 all passed, 1 a check failed or coverage fell below --min-coverage, 2 wrong options or a target that
cannot be reached.
Example: npm run conformance -- --base-url https://api.example.com --registry-url https://registry.example.com`;

const { values, flags } = commandLine(USAGE, {
  valued: [
    "--target",
    "--base-url",
    "--registry-url",
    "--network",
    "--junit",
    "--coverage",
    "--min-coverage",
    "--max-response-time",
    "--runs",
    "--seed",
  ],
  flags: ["--no-pay"],
});
const option = (name) => values[name];
const usageError = (message) => {
  console.error(`conformance: ${message}\n\n${USAGE}`);
  process.exit(2);
};
const target = option("--target") ?? (option("--base-url") ? "url" : "server");
if (!["server", "prism", "url"].includes(target)) usageError(`--target must be server, prism or url, got ${target}`);
if (target === "url" && !option("--base-url")) usageError("--target url needs --base-url");
/** A number option: at least 0 (at most `max`), or undefined when not given. */
const numberOption = (name, max = Number.POSITIVE_INFINITY) => {
  const text = option(name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === "" || !Number.isFinite(value) || value < 0 || value > max)
    usageError(`${name} must be a number from 0 to ${max}, got ${text}`);
  return value;
};
const minCoverage = numberOption("--min-coverage", 100);
const maxResponseMs = numberOption("--max-response-time");

/** A deployment that does not answer at all fails in one line, not in one failure per check. */
async function reachable(url) {
  try {
    await fetch(url, { signal: AbortSignal.timeout(Number(process.env.CONFORMANCE_TIMEOUT_MS) || 15_000) });
  } catch (error) {
    const cause = error.cause?.code ?? error.cause?.message ?? error.message;
    console.error(
      `conformance: cannot reach ${url} (${error.name === "TimeoutError" ? "no answer in time" : cause}); nothing was checked`,
    );
    process.exit(2);
  }
}
if (target === "url")
  for (const url of [option("--base-url"), option("--registry-url")].filter(Boolean)) await reachable(url);

const env = { ...process.env };
const set = (name, value) => {
  if (value !== undefined) env[name] = value;
};
set("CONFORMANCE_BASE_URL", option("--base-url"));
set("CONFORMANCE_REGISTRY_URL", option("--registry-url"));
set("CONFORMANCE_TARGET", target);
set("CONFORMANCE_NETWORK", option("--network"));
set("FUZZ_RUNS", option("--runs"));
set("FUZZ_SEED", option("--seed"));
if (flags.has("--no-pay")) env.CONFORMANCE_PAY = "0";

const junit = resolve(option("--junit") ?? "results/conformance-junit.xml");
const coverageFile = option("--coverage") ?? join(dirname(junit), "conformance-coverage.json");
const json = join(tmpdir(), `conformance-${process.pid}.json`);
mkdirSync(dirname(junit), { recursive: true });
mkdirSync(dirname(coverageFile), { recursive: true });
// Each worker appends the exchanges it made to a file of this directory (conformance/observations.ts).
const observations = mkdtempSync(join(tmpdir(), "conformance-observations-"));
env.CONFORMANCE_OBSERVATIONS = observations;
const vitest = spawnSync(
  process.execPath,
  [VITEST, "run", "--config", config, "--reporter=default", "--reporter=json", "--reporter=junit"].concat([
    `--outputFile.json=${json}`,
    `--outputFile.junit=${junit}`,
  ]),
  { cwd: root, env, stdio: "inherit" },
);

let report;
try {
  report = JSON.parse(readFileSync(json, "utf8"));
  rmSync(json);
} catch {
  console.error("conformance: vitest wrote no results");
  process.exit(vitest.status || 1);
}

const tests = report.testResults.flatMap((file) =>
  file.assertionResults.map((test) => ({
    title: test.title,
    status: test.status === "passed" ? "passed" : test.status === "failed" ? "failed" : "skipped",
  })),
);
const run = reportRun({ dir: observations, env, tests, junit, coverageFile, maxResponseMs, minCoverage });
rmSync(observations, { recursive: true, force: true });
// The checks judged over every exchange are cells of the table too, titled like the suite's tests.
const observedFailed = run.observed.filter((c) => c.failures.length);
for (const c of run.observed)
  tests.push({ title: `${c.row} · ${c.column} · ${c.name}`, status: c.failures.length ? "failed" : "passed" });

/** Test titles are `row · column · check`; anything else is its own row. */
const cells = new Map();
const failures = [];
for (const test of tests) {
  const [row, column = "-", check = ""] = test.title.split(" · ");
  const cell = cells.get(row) ?? new Map();
  cells.set(row, cell);
  const counts = cell.get(column) ?? { passed: 0, failed: 0, skipped: 0 };
  cell.set(column, counts);
  counts[test.status] += 1;
  if (test.status === "failed") failures.push(`${row} · ${column} · ${check}`);
}

const ORDER = ["solana", "base", "skale", "free", "registry"];
const columns = [...new Set([...cells.values()].flatMap((cell) => [...cell.keys()]))].sort(
  (a, b) => (ORDER.indexOf(a) + 1 || 99) - (ORDER.indexOf(b) + 1 || 99) || a.localeCompare(b),
);
const show = (c) =>
  !c ? "" : `${c.failed ? "FAIL " : ""}${c.passed}/${c.passed + c.failed}${c.skipped ? ` (${c.skipped} skip)` : ""}`;
const rows = [...cells.keys()].sort();
const width = Math.max(9, ...rows.map((r) => r.length));
const colWidth =
  Math.max(
    ...columns.map((c) => c.length),
    ...rows.flatMap((r) => columns.map((c) => show(cells.get(r).get(c)).length)),
  ) + 2;
const line = (first, rest) => `${first.padEnd(width + 2)}${rest.map((v) => v.padEnd(colWidth)).join("")}`.trimEnd();
console.log(`\nConformance on ${env.CONFORMANCE_TARGET || "server"} (passed/run per operation and prefix)\n`);
console.log(line("operation", columns));
for (const row of rows)
  console.log(
    line(
      row,
      columns.map((c) => show(cells.get(row).get(c))),
    ),
  );
const total = report.numTotalTests;
console.log(
  `\n${report.numPassedTests} passed, ${report.numFailedTests} failed, ${total - report.numPassedTests - report.numFailedTests} skipped; ` +
    `${run.observed.length - observedFailed.length}/${run.observed.length} checks over the observed exchanges passed; JUnit: ${junit}`,
);
if (failures.length) console.log(`\nFailed:\n${failures.map((f) => `  ${f}`).join("\n")}`);
for (const c of observedFailed.slice(0, 10))
  console.log(
    `\n${c.row} · ${c.column} · ${c.name}:\n${c.failures
      .slice(0, 5)
      .map((f) => `  ${f}`)
      .join("\n")}`,
  );

const { summary } = run.coverage;
const figure = (d) => `${d} ${summary[d].percent} % (${summary[d].covered}/${summary[d].total})`;
console.log(
  `\nCoverage: ${["statuses", "parameters", "headers"].map(figure).join(", ")}; report: ${coverageFile} and .md`,
);
console.log(
  `Named checks: ${Object.entries(run.named)
    .filter(([, n]) => n.passed + n.failed)
    .map(([name, n]) => `${name} ${n.passed}/${n.passed + n.failed}`)
    .join(", ")}`,
);
for (const { dimension } of run.below)
  console.error(`conformance: coverage of ${figure(dimension)} is below --min-coverage ${minCoverage} %`);
process.exit(vitest.status || (report.numFailedTests || observedFailed.length || run.below.length ? 1 : 0));
