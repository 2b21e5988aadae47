/**
 * `npm run bench [-- --rounds 6 --seconds 2 --quick --profile]`: the cost of a paid request, measured
 * side by side in one run on loopback, with the median of several rounds in which the scenarios take
 * turns (each round's payments signed and tasks started first, then its loads run back to back), after a
 * warm-up each:
 * bare node:http and bare Express (the local limit), the validated floor (Express, the JSON body
 * parser and the contract's validator answering a paid path's POST with no payment work), a free
 * endpoint, a paid endpoint with a fresh EVM payment per request and with a fresh Solana payment per
 * request, the same payments as MCP tool calls in both eras of MCP (2025, and 2026-07-28 over x402's
 * extension binding) and as A2A skill calls (the payment message on a task), the Prism mock, verification alone, scale figures (response size, nonce-store
 * size), and the deployment figures: the paid EVM and Solana paths on SQLite and on PostgreSQL, and the EVM path
 * with the Redis cache and with two worker processes, each deployment's rounds taking turns with bare
 * Express's. Prints the tables and whether each path meets its target ratio (and the cores its rate
 * would take on this machine), and writes JSON under bench/results/.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { generateKeyPairSigner } from "@solana/kit";
import Database from "libsql";
import { generatePrivateKey } from "viem/accounts";
import { A2A_HEADERS, paymentMessages, startTask, startTasks } from "../bench/a2a-tasks.js";
import { type LoadResult, type LoadSpec, runLoad } from "../bench/load.js";
import {
  evmPaymentPool,
  type McpEra,
  mcpHeaders,
  svmPaymentPool,
  toolCallBodies,
  v2PaymentHeaders,
  v2Payments,
} from "../bench/payments.js";
import { postgresCpuSeconds } from "../bench/process-cpu.js";
import { type ServerProcess, startBare, startPrism, startService } from "../bench/processes.js";
import { topEntries } from "../bench/profile.js";
import {
  a2aScenario,
  a2aTargets,
  mcpScenario,
  mcpTargets,
  previousResults,
  printTable,
  type Row,
  summarize,
  targetResults,
  writeResults,
} from "../bench/report.js";
import { benchStores } from "../bench/stores.js";
import { verificationRates } from "../bench/verification.js";
import { chainIdOf } from "../client/x402/evm.js";
import type { PaymentRequirements } from "../client/x402/types.js";
import { commandLine } from "../lib/command-line.mjs";
import { findNetwork } from "../lib/networks.js";
import { cachedAta } from "../server/analytics/payments/exact/verifier.js";
import { openSqliteLedger } from "../server/analytics/payments/ledger/sqlite-ledger.js";

const USAGE = `usage: npm run bench [-- --rounds N --seconds N --payment-rate N --quick --profile]

Benchmarks on loopback (9 to 16 minutes on a 2-core machine): bare node:http and Express, the validated floor (Express, JSON
and the contract's validator, no payment work), a free endpoint, paid EVM and Solana endpoints with a fresh
payment per request, the Prism mock, verification alone, scale figures, and the paid paths on SQLite and
on PostgreSQL, with Redis and with WORKERS=2 (TEST_DATABASE_URL and TEST_REDIS_URL, default this machine's;
skipped when unreachable). Prints the tables (with the CPU per request of the server, the database and the load
generator), the target ratios met and the cores each target's rate would take, and writes JSON under bench/results/.

  --rounds N         timed rounds per scenario, medians reported (default 6; 1 with --quick)
  --seconds N        seconds per round (default 2)
  --payment-rate N   payments signed per second of load (default 3000)
  --quick            one short round each, for a smoke run
  --profile          CPU-profile the service over every load it serves; print its top entries
  --help             this text`;

const { values, flags } = commandLine(USAGE, {
  valued: ["--rounds", "--seconds", "--payment-rate"],
  flags: ["--quick", "--profile"],
});
const arg = (name: string, fallback: number) => (values[name] === undefined ? fallback : Number(values[name]));
const quick = flags.has("--quick");
/** `--profile`: the service of the main table and the response-size rows runs with --cpu-prof; its top entries are printed. */
const profileDir = flags.has("--profile") ? mkdtempSync(join(tmpdir(), "bench-prof-")) : undefined;
const ROUNDS = arg("--rounds", quick ? 1 : 6);
const SECONDS = arg("--seconds", 2);
const WARMUP_SECONDS = 2;
/** Payments signed per second of load: above what one core of this service can verify and settle. */
const PAYMENTS_PER_SECOND = arg("--payment-rate", 3000);
const PORTS = { service: 4101, http: 4102, express: 4103, prism: 4104, validated: 4105, deployments: 4111 };
const scratch = mkdtempSync(join(tmpdir(), "bench-"));
const log = (message: string) => console.error(`· ${message}`);

async function challenge(service: ServerProcess, path: string): Promise<PaymentRequirements> {
  return (await challenges(service, path)).v1;
}

/** A route's offer in both versions: the v1 requirement and the v2 challenge (`PAYMENT-REQUIRED`). */
async function challenges(service: ServerProcess, path: string) {
  const res = await fetch(`${service.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  const body = (await res.json()) as { accepts: PaymentRequirements[] };
  const v2 = JSON.parse(Buffer.from(res.headers.get("payment-required") ?? "", "base64").toString("utf8"));
  return { v1: body.accepts[0] as PaymentRequirements, v2: v2 as Parameters<typeof v2PaymentHeaders>[0] };
}

interface Scenario {
  name: string;
  target: ServerProcess;
  spec: Omit<LoadSpec, "url" | "payments" | "amount" | "durationSeconds">;
  /** n fresh payments, signed just before each run (a run that used them all would replay, and the replays would count as errors). */
  payments?: (n: number) => Promise<string[]>;
  /** n request bodies each carrying a fresh payment (MCP tool calls), made just before each run. */
  bodies?: (n: number) => Promise<string[]>;
  /** On this machine's PostgreSQL: its processes' CPU per request is measured too. */
  onPostgres?: boolean;
}

/** A scenario's load ready to run: its fresh payments signed, its request bodies made (A2A tasks started). */
interface Prepared {
  scenario: Scenario;
  signed?: string[];
  paidBodies?: string[];
}

async function prepare(scenario: Scenario, seconds: number): Promise<Prepared> {
  const { payments, bodies } = scenario;
  return {
    scenario,
    ...(payments && { signed: await payments(seconds * PAYMENTS_PER_SECOND) }),
    ...(bodies && { paidBodies: await bodies(seconds * PAYMENTS_PER_SECOND) }),
  };
}

async function runPrepared({ scenario, signed, paidBodies }: Prepared, seconds: number): Promise<LoadResult> {
  const { target, spec, onPostgres } = scenario;
  const cpuBefore = await target.cpuSeconds?.();
  const databaseBefore = onPostgres ? postgresCpuSeconds() : undefined;
  const loadBefore = process.cpuUsage();
  const result = await runLoad({
    ...spec,
    url: target.url,
    durationSeconds: seconds,
    payments: signed,
    bodies: paidBodies,
  });
  const { user, system } = process.cpuUsage(loadBefore);
  const databaseAfter = onPostgres ? postgresCpuSeconds() : undefined;
  const cpuAfter = await target.cpuSeconds?.();
  if (!result.requests) return result;
  const perRequest = (before?: number, after?: number) =>
    before === undefined || after === undefined ? undefined : ((after - before) * 1e6) / result.requests;
  // The scrape itself is a request too, but one in thousands.
  const cpu = perRequest(cpuBefore, cpuAfter);
  const database = perRequest(databaseBefore, databaseAfter);
  return {
    ...result,
    ...(cpu === undefined ? {} : { cpuMicrosPerRequest: cpu }),
    ...(database === undefined ? {} : { databaseCpuMicrosPerRequest: database }),
    loadCpuMicrosPerRequest: (user + system) / result.requests,
  };
}

let measurements = 0;
/**
 * Each scenario's warm-up, then `ROUNDS` rounds in which the scenarios run in turn; medians per
 * scenario. Taking turns puts a scenario's rounds beside the baseline's: on a shared machine whose
 * speed drifts during the run, a ratio then compares runs seconds apart, round by round, not minutes.
 */
async function measure(...scenarios: Scenario[]): Promise<Row[]> {
  const measurement = ++measurements;
  for (const scenario of scenarios) {
    log(`${scenario.name} (warm-up)`);
    await runPrepared(await prepare(scenario, WARMUP_SECONDS), WARMUP_SECONDS);
  }
  const results = scenarios.map((): LoadResult[] => []);
  for (let round = 1; round <= ROUNDS; round++) {
    if (scenarios.length > 1) log(`round ${round} of ${ROUNDS}`);
    // Every load of the round made ready first, then run back to back: the loads a ratio pairs are seconds apart,
    // not the minutes that signing payments and starting tasks between them would put there. Made ready last to
    // first, so that a load waits only for the preparations and loads run before it: an EVM authorization is
    // refused within a minute of its signing, and 6,000 Solana payments take seconds to sign.
    const prepared: Prepared[] = [];
    for (const scenario of [...scenarios].reverse()) prepared.unshift(await prepare(scenario, SECONDS));
    for (const [i, ready] of prepared.entries()) results[i]?.push(await runPrepared(ready, SECONDS));
  }
  return scenarios.map((scenario, i) =>
    summarize(scenario.name, results[i] ?? [], scenario.target.peakRssMiB(), measurement),
  );
}

function prefillLedger(file: string, rows: number) {
  openSqliteLedger(file).close();
  const db = new Database(file);
  const insert = db.prepare(
    "INSERT INTO payments (payment_key, reservation_key, network, payer, amount, endpoint, request_id, status, settlement_tx, simulated, created_at, updated_at) VALUES (?, ?, 'base-sepolia', ?, 1000, 'defiTvl', 'prefill', 'settled', 'ledger', 1, 0, 0)",
  );
  const fill = db.transaction((n: number) => {
    for (let i = 0; i < n; i++) {
      const key = `base-sepolia:0x${i.toString(16).padStart(64, "0")}`;
      insert.run(key, key, `0x${(i % 50_000).toString(16).padStart(40, "0")}`);
    }
  });
  fill(rows);
  db.close();
}

const evmKey = generatePrivateKey();
const svmPayer = await generateKeyPairSigner();
const started = Date.now();
const service = await startService(PORTS.service, { LEDGER_DB: join(scratch, "ledger.db") }, profileDir);
const { v1: base, v2: baseV2 } = await challenges(service, "/base/defi/tvl");
const { v1: solana, v2: solanaV2 } = await challenges(service, "/defi/tvl");
const poolsReq = await challenge(service, "/base/lp/pools");
/** The defiTvl tool's PaymentRequired, from an unpaid call to /mcp. */
const tool = (await fetch(`${service.url}/mcp`, {
  method: "POST",
  headers: mcpHeaders("2025", "defiTvl"),
  body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "tools/call", params: { name: "defiTvl", arguments: {} } }),
}).then((res) => res.json())) as { result: { structuredContent: Parameters<typeof toolCallBodies>[2] } };
const toolRequired = tool.result.structuredContent;

/**
 * One call of each tool-call load, made before any is measured: a refused or unpaid call is answered 200 as a paid
 * one is (the load counts only HTTP errors), so each must come back with its answer and a settlement.
 */
async function expectPaidToolCalls(scenarios: Pick<Scenario, "name" | "spec" | "bodies">[]): Promise<void> {
  for (const { name, spec, bodies } of scenarios) {
    const res = await fetch(`${service.url}/mcp`, {
      method: "POST",
      headers: spec.headers,
      body: (await bodies?.(1))?.[0],
    });
    const text = await res.text();
    const { result } = JSON.parse(text) as { result?: { isError?: boolean; _meta?: Record<string, unknown> } };
    const settled = (result?._meta?.["x402/payment-response"] as { success?: boolean } | undefined)?.success;
    if (res.status !== 200 || !result || result.isError || settled !== true)
      throw new Error(`${name}: a sample call answered ${res.status}: ${text.slice(0, 500)}`);
  }
}

/** One payment message of each A2A load, before any is measured: each must complete its task with a settlement. */
async function expectPaidSkillCalls(scenarios: Pick<Scenario, "name" | "spec" | "bodies">[]): Promise<void> {
  for (const { name, spec, bodies } of scenarios) {
    const res = await fetch(`${service.url}/a2a`, {
      method: "POST",
      headers: spec.headers,
      body: (await bodies?.(1))?.[0],
    });
    const text = await res.text();
    const { result } = JSON.parse(text) as { result?: { task?: { status?: { state?: string } } } };
    if (res.status !== 200 || result?.task?.status?.state !== "TASK_STATE_COMPLETED")
      throw new Error(`${name}: a sample payment message answered ${res.status}: ${text.slice(0, 500)}`);
  }
}

// the body the bare servers answer: what the cached paid endpoint answers
const sample = await fetch(`${service.url}/base/defi/tvl`, {
  method: "POST",
  headers: { "content-type": "application/json", "x-payment": evmPaymentPool(base, 1, evmKey)[0] as string },
  body: "{}",
});
if (sample.status !== 200) throw new Error(`sample paid call answered ${sample.status}: ${await sample.text()}`);
const bodyFile = join(scratch, "body.json");
writeFileSync(bodyFile, await sample.text());
const running = new Set<ServerProcess>([service]);
const stopAll = () => Promise.all([...running].map((p) => p.stop()));
process.on("uncaughtException", (error) => {
  console.error(error);
  void stopAll().then(() => process.exit(1));
});
process.on("unhandledRejection", (error) => {
  console.error(error);
  void stopAll().then(() => process.exit(1));
});
const [http, express, validated, prism] = await Promise.all([
  startBare("http", PORTS.http, bodyFile),
  startBare("express", PORTS.express, bodyFile),
  startBare("validated", PORTS.validated, bodyFile, "/base/defi/tvl"),
  startPrism(PORTS.prism),
]);

for (const p of [http, express, validated, prism]) running.add(p);
const post = { method: "POST" as const, body: "{}" };
const caip2 = (requirement: PaymentRequirements) => findNetwork(requirement.network)?.details.caip2 as string;
/** The paid loads in x402 v1 (`X-PAYMENT`): the main table's v1 rows, reported, and the nonce-store sizes. */
const paidEvm = {
  spec: { ...post, path: "/base/defi/tvl" },
  payments: async (n: number) => evmPaymentPool(base, n, evmKey),
};
const paidSolana = {
  spec: { ...post, path: "/defi/tvl" },
  payments: (n: number) => svmPaymentPool(solana, n, svmPayer),
};
/**
 * The same paid loads in x402 v2 (`PAYMENT-SIGNATURE`), whose answers carry a signed receipt as a tool call's do:
 * the rows held to the targets, the deployments' loads, and the HTTP rows the MCP rows are held to.
 */
const v2 = { ...post, paymentHeader: "payment-signature" };
const paidEvmV2 = {
  spec: { ...v2, path: "/base/defi/tvl" },
  payments: async (n: number) => v2PaymentHeaders(baseV2, caip2(base), evmPaymentPool(base, n, evmKey)),
};
const paidSolanaV2 = {
  spec: { ...v2, path: "/defi/tvl" },
  payments: async (n: number) => v2PaymentHeaders(solanaV2, caip2(solana), await svmPaymentPool(solana, n, svmPayer)),
};
/** The same paid loads as MCP tool calls in each era, the payment in each call's `_meta`. */
const toolPayments = {
  base: { requirement: base, pool: async (n: number) => evmPaymentPool(base, n, evmKey) },
  solana: { requirement: solana, pool: (n: number) => svmPaymentPool(solana, n, svmPayer) },
};
const mcpCalls = (era: McpEra) =>
  (["base", "solana"] as const).map((network) => {
    const { requirement, pool } = toolPayments[network];
    return {
      name: mcpScenario(era, network),
      network,
      target: service,
      spec: { method: "POST" as const, path: "/mcp", headers: mcpHeaders(era, "defiTvl") },
      bodies: async (n: number) => toolCallBodies("defiTvl", {}, toolRequired, caip2(requirement), await pool(n), era),
    };
  });
await expectPaidToolCalls([...mcpCalls("2025"), ...mcpCalls("2026-07-28")]);
/** The same paid loads as A2A skill calls: each a payment message on a task started (unpaid) before the run. */
const skillRequired = (await startTask(service.url, "defiTvl", {})).required;
const a2aCalls = (["base", "solana"] as const).map((network) => {
  const { requirement, pool } = toolPayments[network];
  return {
    name: a2aScenario(network),
    network,
    target: service,
    spec: { method: "POST" as const, path: "/a2a", headers: A2A_HEADERS },
    bodies: async (n: number) => {
      const payments = v2Payments(skillRequired, caip2(requirement), await pool(n), "the defiTvl skill");
      return paymentMessages(await startTasks(service.url, "defiTvl", n), payments);
    },
  };
});
await expectPaidSkillCalls(a2aCalls);
/** The agent transports' loads on `network`: MCP in both eras, then A2A. */
const onNetwork = (network: "base" | "solana") =>
  [...mcpCalls("2025"), ...mcpCalls("2026-07-28"), ...a2aCalls].filter((call) => call.network === network);
const rows = await measure(
  { name: "bare node:http", target: http, spec: { path: "/" } },
  { name: "bare Express", target: express, spec: { path: "/" } },
  {
    name: "floor: Express + JSON + validator, POST",
    target: validated,
    // a payment header as a paid request carries one, the same on every request: the floor does no payment work
    spec: { ...post, path: "/base/defi/tvl", headers: { "x-payment": evmPaymentPool(base, 1, evmKey)[0] as string } },
  },
  { name: "free GET /", target: service, spec: { path: "/" } },
  // The EVM loads run before the Solana ones, so that none waits for Solana's slow signing (see `measure`).
  { name: "paid EVM /base/defi/tvl", target: service, ...paidEvm },
  { name: "paid EVM /base/defi/tvl, x402 v2", target: service, ...paidEvmV2 },
  ...onNetwork("base"),
  { name: "paid Solana /defi/tvl", target: service, ...paidSolana },
  { name: "paid Solana /defi/tvl, x402 v2", target: service, ...paidSolanaV2 },
  ...onNetwork("solana"),
  {
    name: "Prism mock /base/defi/tvl",
    target: prism,
    spec: { ...post, path: "/base/defi/tvl", headers: { prefer: "code=200" } },
  },
);

log("scale: response size");
const scale = await measure(
  ...[10, 100].map((limit) => ({
    name: `paid EVM /base/lp/pools limit ${limit}`,
    target: service,
    spec: { method: "POST" as const, path: "/base/lp/pools", body: JSON.stringify({ limit }) },
    payments: async (n: number) => evmPaymentPool(poolsReq, n, evmKey),
  })),
);

log("verification alone");
const verification = await verificationRates({
  evm: { requirement: base, chainId: chainIdOf(base.network) as number, headers: evmPaymentPool(base, 2000, evmKey) },
  svm: {
    requirement: solana,
    feePayer: (solana.extra as { feePayer: string }).feePayer,
    headers: await svmPaymentPool(solana, 1000, svmPayer),
    // derived once, as the service's verifier does: a route's token account does not change between payments
    ata: cachedAta(),
  },
});
// bare Express stays up: the deployments' rounds take turns with its
await Promise.all([service, http, validated, prism].map((p) => p.stop()));
running.clear();
running.add(express);

log("scale: nonce-store size");
for (const size of quick ? [1_000] : [1_000, 100_000, 1_000_000]) {
  const file = join(scratch, `ledger-${size}.db`);
  prefillLedger(file, size);
  const sized = await startService(PORTS.service, { LEDGER_DB: file });
  running.add(sized);
  scale.push(
    ...(await measure({
      name: `paid EVM, ledger of ${size.toLocaleString("en")} payments`,
      target: sized,
      ...paidEvm,
    })),
  );
  await sized.stop();
  running.delete(sized);
}

log("deployment: PostgreSQL, Redis, workers");
const stores = await benchStores();
const ledgerFile = (name: string) => ({ LEDGER_DB: join(scratch, `deploy-${name}.db`) });
const shared = stores.database && stores.cache && { ...stores.database, ...stores.cache };
// One deployment at a time (an idle service still takes about 1 % of a core), each one's rounds taking turns with
// bare Express's, so that each ratio compares loads less than a minute apart; each family is stated on both stores.
const onPostgres = (env?: Record<string, string>) => env?.DATABASE_URL !== undefined;
const deployments: { label: string; env: Record<string, string> | undefined; solana?: boolean }[] = [
  { label: "SQLite, 1 process", env: ledgerFile("single"), solana: true },
  { label: "PostgreSQL", env: stores.database, solana: true },
  { label: "PostgreSQL + Redis", env: shared },
  { label: "SQLite, WORKERS=2", env: { ...ledgerFile("workers"), WORKERS: "2" } },
  { label: "PostgreSQL + Redis, WORKERS=2", env: shared && { ...shared, WORKERS: "2" } },
];
const deployment: Row[] = [];
for (const { label, env, solana } of deployments) {
  if (!env) continue;
  const target = await startService(PORTS.service, env);
  running.add(target);
  const [bare, ...paid] = await measure(
    { name: "bare Express", target: express, spec: { path: "/" } },
    { name: `paid EVM, ${label}`, target, ...paidEvmV2, onPostgres: onPostgres(env) },
    ...(solana ? [{ name: `paid Solana, ${label}`, target, ...paidSolanaV2, onPostgres: onPostgres(env) }] : []),
  );
  deployment.push(...paid.map((row) => ({ ...row, baseline: bare as Row })));
  await target.stop();
  running.delete(target);
}
await stopAll();
await stores.drop();
if (stores.skipped.length) log(`deployment rows skipped: ${stores.skipped.join("; ")}`);

const previous = previousResults();
console.log(
  `\nPaid path vs the local limit (${ROUNDS} rounds of ${SECONDS} s, the scenarios taking turns, after ${WARMUP_SECONDS} s of warm-up each; medians)\n`,
);
printTable(rows, "bare Express", previous);
console.log("\nScale\n");
printTable([...scale, rows.find((r) => r.scenario === "bare Express") as Row], "bare Express", previous);
console.log("\nDeployment, x402 v2 (each against the bare Express of its own rounds; RSS of the first process only)\n");
printTable(deployment, "bare Express", previous);
if (previous) console.log(`\n"prev req/s": ${previous.file}`);
const p99Of = (scenario: string) => rows.find((r) => r.scenario === scenario)?.p99Ms ?? 0;
const p99Overhead = p99Of("paid EVM /base/defi/tvl") - p99Of("bare Express");
console.log(
  `\nVerification alone: EVM ${verification.evmChecksPerSecond.toFixed(0)}/s, Solana ${verification.svmChecksPerSecond.toFixed(0)}/s, viem verifyTypedData ${verification.viemVerifyTypedDataPerSecond.toFixed(0)}/s`,
);
console.log(`p99 overhead of the paid EVM path over bare Express: ${p99Overhead.toFixed(1)} ms`);
// The ratios the paid and free paths are held to (docs/benchmarks.md; the PostgreSQL rows reported against them), each against the bare Express of its own table.
const targets = targetResults([
  { rows, baseline: "bare Express", scenario: "free GET /", atLeast: 0.7 },
  // held in x402 v2, which the official clients speak first (its answers carry a signed receipt); v1 reported beside
  { rows, baseline: "bare Express", scenario: "paid EVM /base/defi/tvl, x402 v2", atLeast: 0.4 },
  { rows, baseline: "bare Express", scenario: "paid Solana /defi/tvl, x402 v2", atLeast: 0.35 },
  { rows, baseline: "bare Express", scenario: "paid EVM /base/defi/tvl", atLeast: 0.4, held: false },
  { rows, baseline: "bare Express", scenario: "paid Solana /defi/tvl", atLeast: 0.35, held: false },
  ...mcpTargets(rows),
  ...a2aTargets(rows),
  ...["SQLite, 1 process", "PostgreSQL"].flatMap((label) => [
    {
      rows: deployment,
      baseline: "bare Express",
      scenario: `paid EVM, ${label}`,
      atLeast: 0.4,
      held: label !== "PostgreSQL",
    },
    {
      rows: deployment,
      baseline: "bare Express",
      scenario: `paid Solana, ${label}`,
      atLeast: 0.35,
      held: label !== "PostgreSQL",
    },
  ]),
]);
console.log(
  `\nTargets (× bare Express in the same table: the median of the rounds' ratios; the cores this ${cpus().length}-core machine would need at the target's rate, at this run's CPU per request of the service, the database and the load generator)`,
);
for (const t of targets)
  console.log(
    `  ${(t.baseline === "bare Express" ? t.scenario : `${t.scenario} ÷ ${t.baseline}`).padEnd(32)} ${t.ratio.toFixed(3)}× (rounds ${t.low.toFixed(2)} to ${t.high.toFixed(2)}; ${t.held ? "at least" : "reported against"} ${t.atLeast.toFixed(2)}×) ${t.held ? (t.met ? "met" : "not met") : "reported, not held"}${t.coresAtTarget === undefined ? "" : `; ${t.coresAtTarget.toFixed(2)} cores at the target`}`,
  );
const profile = profileDir ? topEntries(profileDir) : [];
if (profile.length) {
  console.log("\nService CPU profile, top self time over the whole run:");
  for (const { share, frame } of profile) console.log(`  ${share.toFixed(1).padStart(5)}%  ${frame}`);
}
const file = writeResults({
  rounds: ROUNDS,
  secondsPerRound: SECONDS,
  warmupSeconds: WARMUP_SECONDS,
  rows,
  scale,
  deployment,
  verification,
  p99OverheadMs: p99Overhead,
  targets,
  seconds: Math.round((Date.now() - started) / 1000),
});
console.log(`\nwritten: ${file} (${Math.round((Date.now() - started) / 1000)} s)`);
