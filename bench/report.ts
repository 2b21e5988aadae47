/** Medians over rounds, the printed table, and the JSON written for comparison between commits. */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import type { LoadResult } from "./load.js";
import type { McpEra } from "./payments.js";

export interface Row extends LoadResult {
  scenario: string;
  peakRssMiB: number;
  rounds: number;
  /** req/s in each timed round, in order. */
  roundRequestsPerSecond: number[];
  /** Which `measure` call took the rounds: rows of one took turns round by round. */
  measurement: number;
  /** The baseline measured in this row's own rounds, where its table has no baseline row of its own (the deployments). */
  baseline?: Row;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

const baselineOf = (row: Row, rows: Row[], baseline: string) =>
  row.baseline ?? rows.find((r) => r.scenario === baseline);

/**
 * A row's req/s over its baseline's (the one measured in its own rounds, else its table's `baseline` row), and the
 * range of that ratio over the rounds. Rows that took turns are compared round by round, the median of the rounds'
 * ratios: on a machine whose speed swings by tens of percent within seconds, each round's pair saw about the same
 * machine, which two medians taken apart did not. Rows measured apart compare their medians.
 */
export function ratioOf(row: Row, rows: Row[], baseline: string): { ratio: number; low: number; high: number } {
  const base = baselineOf(row, rows, baseline);
  if (!base) return { ratio: Number.NaN, low: Number.NaN, high: Number.NaN };
  const paired =
    base.measurement === row.measurement && base.roundRequestsPerSecond.length === row.roundRequestsPerSecond.length;
  const ratios = paired
    ? row.roundRequestsPerSecond.map((rps, i) => rps / (base.roundRequestsPerSecond[i] as number))
    : [row.requestsPerSecond / base.requestsPerSecond];
  return { ratio: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios) };
}

export function summarize(scenario: string, results: LoadResult[], peakRssMiB: number, measurement: number): Row {
  const cpu = results.flatMap((r) => (r.cpuMicrosPerRequest === undefined ? [] : [r.cpuMicrosPerRequest]));
  const database = results.flatMap((r) =>
    r.databaseCpuMicrosPerRequest === undefined ? [] : [r.databaseCpuMicrosPerRequest],
  );
  const load = results.flatMap((r) => (r.loadCpuMicrosPerRequest === undefined ? [] : [r.loadCpuMicrosPerRequest]));
  return {
    scenario,
    requestsPerSecond: median(results.map((r) => r.requestsPerSecond)),
    ...(cpu.length ? { cpuMicrosPerRequest: median(cpu) } : {}),
    ...(database.length ? { databaseCpuMicrosPerRequest: median(database) } : {}),
    ...(load.length ? { loadCpuMicrosPerRequest: median(load) } : {}),
    p50Ms: median(results.map((r) => r.p50Ms)),
    p99Ms: median(results.map((r) => r.p99Ms)),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    requests: results.reduce((sum, r) => sum + r.requests, 0),
    peakRssMiB,
    rounds: results.length,
    roundRequestsPerSecond: results.map((r) => r.requestsPerSecond),
    measurement,
  };
}

/** The newest results file before this run, by scenario: what the table compares against. */
export function previousResults(dir = "bench/results"): { file: string; byScenario: Map<string, Row> } | undefined {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith(".json"));
  } catch {
    return undefined;
  }
  const file = files.sort().at(-1);
  if (!file) return undefined;
  const saved = JSON.parse(readFileSync(`${dir}/${file}`, "utf8")) as {
    rows?: Row[];
    scale?: Row[];
    deployment?: Row[];
  };
  const rows = [...(saved.rows ?? []), ...(saved.scale ?? []), ...(saved.deployment ?? [])];
  return { file: `${dir}/${file}`, byScenario: new Map(rows.map((row) => [row.scenario, row])) };
}

export function printTable(rows: Row[], baseline: string, previous?: ReturnType<typeof previousResults>): void {
  const databases = rows.some((r) => r.databaseCpuMicrosPerRequest !== undefined);
  const header = [
    "scenario",
    "req/s",
    "p50 ms",
    "p99 ms",
    "errors",
    "peak RSS MiB",
    "CPU µs/req",
    ...(databases ? ["PostgreSQL CPU µs/req"] : []),
    "load gen CPU µs/req",
    `× ${baseline}`,
    "prev req/s",
  ];
  const lines = rows.map((r) => {
    const before = previous?.byScenario.get(r.scenario)?.requestsPerSecond;
    return [
      r.scenario,
      r.requestsPerSecond.toFixed(0),
      r.p50Ms.toFixed(1),
      r.p99Ms.toFixed(1),
      String(r.errors),
      r.peakRssMiB.toFixed(0),
      r.cpuMicrosPerRequest === undefined ? "–" : r.cpuMicrosPerRequest.toFixed(0),
      ...(databases
        ? [r.databaseCpuMicrosPerRequest === undefined ? "–" : r.databaseCpuMicrosPerRequest.toFixed(0)]
        : []),
      r.loadCpuMicrosPerRequest === undefined ? "–" : r.loadCpuMicrosPerRequest.toFixed(0),
      ratioOf(r, rows, baseline).ratio.toFixed(2),
      before === undefined ? "–" : before.toFixed(0),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] as string).length)));
  const fmt = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join("  ");
  console.log(fmt(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const line of lines) console.log(fmt(line));
}

/** The ratio of a scenario's req/s to its table's baseline it must reach. */
export interface Target {
  rows: Row[];
  baseline: string;
  scenario: string;
  atLeast: number;
  /**
   * Whether the run is held to it. The PostgreSQL rows are reported against the same ratio but not held: on a machine
   * where the database shares the cores with the service and the load generator, their rate is the machine's.
   */
  held?: boolean;
}

export interface TargetResult {
  scenario: string;
  /** The row the scenario's rate is a ratio of. */
  baseline: string;
  ratio: number;
  low: number;
  high: number;
  atLeast: number;
  met: boolean;
  held: boolean;
  /**
   * The cores this machine would need to serve the target's rate (`atLeast` × the baseline's req/s) at this run's CPU
   * per request: the service's, the database's where it has one, and the load generator's. More cores than the machine
   * has puts the target out of its reach however the work were scheduled; fewer leaves it to the service.
   */
  coresAtTarget?: number;
}

/** The main table's paid POSTs in x402 v2 and v1, by network: what the MCP rows are held to and reported against. */
const PAID_POSTS = {
  base: { v2: "paid EVM /base/defi/tvl, x402 v2", v1: "paid EVM /base/defi/tvl" },
  solana: { v2: "paid Solana /defi/tvl, x402 v2", v1: "paid Solana /defi/tvl" },
} as const;

/** The main table's row of a paid `defiTvl` tool call on `network` in `era` (the 2025 era's names as before). */
export function mcpScenario(era: McpEra, network: keyof typeof PAID_POSTS): string {
  const revision = era === "2025" ? "" : ` ${era}`;
  return network === "base" ? `paid MCP${revision} EVM defiTvl (Base)` : `paid MCP${revision} Solana defiTvl`;
}

/**
 * The MCP rows' targets, in both eras: a tool call pays in x402 v2 and its answer carries a signed receipt, so it
 * is held to 0.80× of the same payment over HTTP on the same network; its ratio to the v1 POST is reported.
 */
export function mcpTargets(rows: Row[]): Target[] {
  return (["2025", "2026-07-28"] as const).flatMap((era) =>
    (["base", "solana"] as const).flatMap((network) => {
      const scenario = mcpScenario(era, network);
      const { v2, v1 } = PAID_POSTS[network];
      return [
        { rows, baseline: v2, scenario, atLeast: 0.8 },
        { rows, baseline: v1, scenario, atLeast: 0.8, held: false },
      ];
    }),
  );
}

/** The main table's row of a paid `defiTvl` skill call over A2A on `network` (the payment message on its task). */
export const a2aScenario = (network: keyof typeof PAID_POSTS) =>
  network === "base" ? "paid A2A EVM defiTvl (Base)" : "paid A2A Solana defiTvl";

/**
 * The A2A rows' targets: a skill's payment message pays in x402 v2 and its task carries a signed receipt, so it is
 * held to 0.70× of the same payment over HTTP on the same network (it also reads and writes its task).
 */
export function a2aTargets(rows: Row[]): Target[] {
  return (["base", "solana"] as const).map((network) => ({
    rows,
    baseline: PAID_POSTS[network].v2,
    scenario: a2aScenario(network),
    atLeast: 0.7,
  }));
}

/** Each target's ratio in this run (a scenario not measured, its database out of reach, is left out). */
export function targetResults(targets: Target[]): TargetResult[] {
  return targets.flatMap(({ rows, baseline, scenario, atLeast, held = true }) => {
    const row = rows.find((r) => r.scenario === scenario);
    if (!row) return [];
    const { ratio, low, high } = ratioOf(row, rows, baseline);
    const base = baselineOf(row, rows, baseline);
    const {
      cpuMicrosPerRequest: service,
      databaseCpuMicrosPerRequest: database = 0,
      loadCpuMicrosPerRequest: load,
    } = row;
    const coresAtTarget =
      base && service !== undefined && load !== undefined
        ? ((service + database + load) * atLeast * base.requestsPerSecond) / 1e6
        : undefined;
    return [
      {
        scenario,
        baseline,
        ratio,
        low,
        high,
        atLeast,
        met: ratio >= atLeast,
        held,
        ...(coresAtTarget === undefined ? {} : { coresAtTarget }),
      },
    ];
  });
}

export function machine() {
  const commit = (() => {
    try {
      return execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    } catch {
      return "unknown";
    }
  })();
  return {
    commit,
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? "unknown",
    memoryGiB: Math.round(totalmem() / 2 ** 30),
  };
}

export function writeResults(result: object, dir = "bench/results"): string {
  mkdirSync(dir, { recursive: true });
  const info = machine();
  const file = `${dir}/${new Date().toISOString().replace(/[:.]/g, "-")}-${info.commit}.json`;
  writeFileSync(file, `${JSON.stringify({ machine: info, ...result }, null, 2)}\n`);
  return file;
}
