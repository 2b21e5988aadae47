/**
 * `npm run ledger [-- --db path]`: totals of the payment ledger per network, endpoint, account
 * (the 90/10 split) and status, in USDC, and what recovery did to payments a crash, a failed
 * settlement or a late answer had left unresolved. Reads the PostgreSQL ledger of `DATABASE_URL`
 * when it is set, else the SQLite file.
 */

import { commandLine } from "../lib/command-line.mjs";
import { openPostgresLedger } from "../server/analytics/payments/ledger/postgres-ledger.js";
import { openSqliteLedger } from "../server/analytics/payments/ledger/sqlite-ledger.js";
import { DEFAULT_LEDGER_DB } from "../server/config/analytics.js";
import { storeSettings } from "../server/config/store-settings.js";
import { openDatabase } from "../server/db/database.js";

const USAGE = `usage: npm run ledger [-- --db path]

Totals of the payment ledger in USDC: settled by network, by endpoint, by account (the 90/10 split) and by status.

  --db path   the SQLite ledger (default: the PostgreSQL ledger of DATABASE_URL when set, else LEDGER_DB,
              else ${DEFAULT_LEDGER_DB})
  --help      this text`;

const { values } = commandLine(USAGE, { valued: ["--db"] });
const shared = values["--db"] === undefined ? storeSettings(process.env).database : undefined;
const file = values["--db"] ?? process.env.LEDGER_DB ?? DEFAULT_LEDGER_DB;
const database = shared && openDatabase(shared);
const ledger = database ? await openPostgresLedger(database) : openSqliteLedger(file);
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

console.log(`ledger: ${shared ? `PostgreSQL, schema ${shared.schema}` : file}`);
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
