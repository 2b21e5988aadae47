// `npm run conformance [-- options]`: the conformance suite (conformance/vitest.config.ts) against one target, a
// summary table of operations × prefixes × results, JUnit XML for CI, and a non-zero exit on any failure.
//
//   --target server|prism|url   default: server (in-process), or url when --base-url is given
//   --base-url URL              a deployment of the analytics service
//   --registry-url URL          its registry (registry checks are skipped without it)
//   --network solana,base,skale limit the prefixes (solana = root paths)
//   --junit FILE                JUnit XML output (default results/conformance-junit.xml)
//   --runs N, --seed N|random   fuzzing runs per property (default 40) and seed (fixed by default)
//   --no-pay                    never pay a deployment (skips paid answers)
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};

const env = { ...process.env };
const set = (name, value) => {
  if (value !== undefined) env[name] = value;
};
set("CONFORMANCE_BASE_URL", option("--base-url"));
set("CONFORMANCE_REGISTRY_URL", option("--registry-url"));
set("CONFORMANCE_TARGET", option("--target") ?? (option("--base-url") ? "url" : undefined));
set("CONFORMANCE_NETWORK", option("--network"));
set("FUZZ_RUNS", option("--runs"));
set("FUZZ_SEED", option("--seed"));
if (args.includes("--no-pay")) env.CONFORMANCE_PAY = "0";

const junit = option("--junit") ?? join(root, "results/conformance-junit.xml");
const json = join(tmpdir(), `conformance-${process.pid}.json`);
mkdirSync(dirname(junit), { recursive: true });
const vitest = spawnSync(
  join(root, "node_modules/.bin/vitest"),
  ["run", "--config", "conformance/vitest.config.ts", "--reporter=default", "--reporter=json", "--reporter=junit"].concat([
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

/** Test titles are `row · column · check`; anything else is its own row. */
const cells = new Map();
const failures = [];
for (const file of report.testResults) {
  for (const test of file.assertionResults) {
    const [row, column = "-", check = ""] = test.title.split(" · ");
    const cell = cells.get(row) ?? new Map();
    cells.set(row, cell);
    const counts = cell.get(column) ?? { passed: 0, failed: 0, skipped: 0 };
    cell.set(column, counts);
    const status = test.status === "passed" ? "passed" : test.status === "failed" ? "failed" : "skipped";
    counts[status] += 1;
    if (status === "failed") failures.push(`${row} · ${column} · ${check}`);
  }
}

const ORDER = ["solana", "base", "skale", "free", "registry"];
const columns = [...new Set([...cells.values()].flatMap((cell) => [...cell.keys()]))].sort(
  (a, b) => (ORDER.indexOf(a) + 1 || 99) - (ORDER.indexOf(b) + 1 || 99) || a.localeCompare(b),
);
const show = (c) => (!c ? "" : `${c.failed ? "FAIL " : ""}${c.passed}/${c.passed + c.failed}${c.skipped ? ` (${c.skipped} skip)` : ""}`);
const rows = [...cells.keys()].sort();
const width = Math.max(9, ...rows.map((r) => r.length));
const colWidth =
  Math.max(...columns.map((c) => c.length), ...rows.flatMap((r) => columns.map((c) => show(cells.get(r).get(c)).length))) + 2;
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
  `\n${report.numPassedTests} passed, ${report.numFailedTests} failed, ${total - report.numPassedTests - report.numFailedTests} skipped; JUnit: ${junit}`,
);
if (failures.length) console.log(`\nFailed:\n${failures.map((f) => `  ${f}`).join("\n")}`);
process.exit(vitest.status || (report.numFailedTests ? 1 : 0));
