/**
 * `npm run ledger [-- --db path]`: totals of the payment ledger per network, endpoint, account
 * (the 90/10 split) and status, in USDC, and what recovery did to payments a crash, a failed
 * settlement or a late answer had left unresolved. Reads the PostgreSQL ledger of `DATABASE_URL`
 * when it is set, else the SQLite file.
 *
 * `npm run ledger -- reconcile`: the ledger's settled and settling payments compared with the
 * configured settlement backend (server/analytics/payments/reporting/reconcile-ledger.ts), one line per
 * disagreement; exits 1 when there is one.
 */

import { commandLine } from "../lib/command-line.mjs";
import { openPostgresLedger } from "../server/analytics/payments/ledger/postgres-ledger.js";
import { openSqliteLedger } from "../server/analytics/payments/ledger/sqlite-ledger.js";
import type { LedgerStore } from "../server/analytics/payments/ledger/store.js";
import { findingLine } from "../server/analytics/payments/reporting/reconcile.js";
import {
  configuredChainSource,
  ReconcileUnavailable,
  reconcileLedger,
  reconcileTargets,
} from "../server/analytics/payments/reporting/reconcile-ledger.js";
import { DEFAULT_LEDGER_DB, loadAnalyticsConfig } from "../server/config/analytics.js";
import { storeSettings } from "../server/config/store-settings.js";
import { openDatabase } from "../server/db/database.js";

const USAGE = `usage: npm run ledger [-- [reconcile] --db path]

Totals of the payment ledger in USDC: settled by network, by endpoint, by account (the 90/10 split) and by status.

  reconcile   instead, compare every settled and settling payment with the settlement backend the service's
              configuration chooses (SETTLEMENT, SETTLEMENT_RPC_<NETWORK>) and print one line per disagreement
              and a summary. Exits 0 when all agree, 1 on a disagreement, 3 when nothing disagrees but something
              could not be checked, 2 when it cannot run (SETTLEMENT=local-chain)
  --db path   the SQLite ledger (default: the PostgreSQL ledger of DATABASE_URL when set, else LEDGER_DB,
              else ${DEFAULT_LEDGER_DB})
  --help      this text`;

const { values, positionals } = commandLine(USAGE, { valued: ["--db"], positionals: 1 });
if (positionals[0] !== undefined && positionals[0] !== "reconcile") {
  console.error(`unknown command ${positionals[0]}\n\n${USAGE}`);
  process.exit(2);
}
const shared = values["--db"] === undefined ? storeSettings(process.env).database : undefined;
const file = values["--db"] ?? process.env.LEDGER_DB ?? DEFAULT_LEDGER_DB;
const database = shared && openDatabase(shared);
const ledger = database ? await openPostgresLedger(database) : openSqliteLedger(file);
const where = `ledger: ${shared ? `PostgreSQL, schema ${shared.schema}` : file}`;

/** Prints the reconciliation's lines and returns its exit code. */
async function reconcile(ledger: LedgerStore): Promise<number> {
  const config = loadAnalyticsConfig(process.env);
  let source: Awaited<ReturnType<typeof configuredChainSource>>;
  try {
    source = await configuredChainSource(config);
  } catch (error) {
    if (!(error instanceof ReconcileUnavailable)) throw error;
    console.error(`reconcile: ${error.message}`);
    return 2;
  }
  const report = await reconcileLedger({ ledger, source, targets: await reconcileTargets(config) });
  console.log(where);
  for (const finding of report.findings) console.log(findingLine(finding));
  for (const note of report.notes) console.log(note);
  console.log(report.summary);
  if (report.findings.some((f) => f.kind === "disagreement")) return 1;
  return report.findings.some((f) => f.kind === "unchecked") ? 3 : 0;
}

if (positionals[0] === "reconcile") {
  const code = await reconcile(ledger).finally(async () => {
    await ledger.close();
    await database?.close();
  });
  process.exit(code);
}
const totals = await ledger.totals();
await ledger.close();
await database?.close();

/** 1234567 micro-USDC → "1.234567". */
const usdc = (micro: bigint) => `${micro / 1_000_000n}.${(micro % 1_000_000n).toString().padStart(6, "0")}`;

function table(title: string, headers: string[], rows: string[][]) {
  console.log(`\n${title}`);
  if (!rows.length) return console.log("  (none)");
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    `  ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join("  ")}`;
  console.log(line(headers));
  for (const row of rows) console.log(line(row));
}

console.log(where);
table(
  "Settled by network",
  ["network", "payments", "USDC"],
  totals.byNetwork.map((r) => [r.network, String(r.payments), usdc(r.amount)]),
);
table(
  "Settled by endpoint",
  ["endpoint", "payments", "USDC"],
  totals.byEndpoint.map((r) => [r.endpoint, String(r.payments), usdc(r.amount)]),
);
table(
  "Split by account (treasury = floor of 10%, service = the rest)",
  ["account", "network", "address", "USDC"],
  totals.byAccount.map((r) => [r.account, r.network, r.address, usdc(r.amount)]),
);
table(
  "Payments by status",
  ["status", "payments"],
  totals.byStatus.map((r) => [r.status, String(r.payments)]),
);
table(
  "Resolved by recovery",
  ["what recovery did", "status", "payments"],
  totals.byRecovery.map((r) => [r.recovery, r.status, String(r.payments)]),
);
