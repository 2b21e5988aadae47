/**
 * The ledger on SQLite (libsql, synchronous driver; WAL so that several processes can share the
 * file). Uniqueness of a reserved payment is a UNIQUE column: a released payment sets it to NULL,
 * which keeps the row for the record and lets the same authorization be retried.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "libsql";
import type { LedgerRow, LedgerStore, LedgerTotals, PaymentStatus, ReservationRequest, SettledPayment } from "./store.js";

const MIGRATIONS = [
  `CREATE TABLE payments (
     id INTEGER PRIMARY KEY,
     payment_key TEXT NOT NULL,
     reservation_key TEXT UNIQUE,
     network TEXT NOT NULL,
     payer TEXT NOT NULL,
     amount INTEGER NOT NULL CHECK (amount >= 0),
     endpoint TEXT NOT NULL,
     request_id TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('verified', 'settled', 'failed', 'not_charged')),
     settlement_tx TEXT,
     simulated INTEGER NOT NULL DEFAULT 0,
     reason TEXT,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   )`,
  `CREATE TABLE splits (
     payment_id INTEGER NOT NULL REFERENCES payments(id),
     account TEXT NOT NULL CHECK (account IN ('service', 'treasury')),
     address TEXT NOT NULL,
     amount INTEGER NOT NULL CHECK (amount >= 0),
     PRIMARY KEY (payment_id, account)
   )`,
  "CREATE INDEX payments_key ON payments(payment_key)",
];

type Row = Record<string, unknown>;

export function openSqliteLedger(file: string, now: () => number = Date.now, synchronous: "normal" | "full" = "normal"): LedgerStore {
  if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  // WAL with synchronous=NORMAL: every commit is atomic and survives a crash of the process; only an
  // OS crash or power loss can drop the last commits (the database stays consistent). FULL would
  // fsync twice per paid request; LEDGER_SYNCHRONOUS=full restores it where that matters more.
  db.pragma(`synchronous = ${synchronous}`);
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = ON");
  db.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
  const migrate = db.transaction(() => {
    const current = Number((db.prepare("SELECT MAX(version) AS v FROM schema_version").get() as Row | undefined)?.v ?? 0);
    MIGRATIONS.slice(current).forEach((sql, i) => {
      db.exec(sql);
      db.prepare("INSERT INTO schema_version (version) VALUES (?)").run(current + i + 1);
    });
  });
  migrate.immediate();

  const insert = db.prepare(
    `INSERT INTO payments (payment_key, reservation_key, network, payer, amount, endpoint, request_id, status, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'verified', ?, ?) ON CONFLICT(reservation_key) DO NOTHING`,
  );
  const byReservation = db.prepare("SELECT id FROM payments WHERE reservation_key = ? AND status = 'verified'");
  const settle = db.prepare("UPDATE payments SET status = 'settled', settlement_tx = ?, simulated = ?, updated_at = ? WHERE id = ?");
  const split = db.prepare("INSERT INTO splits (payment_id, account, address, amount) VALUES (?, ?, ?, ?)");
  const release = db.prepare(
    "UPDATE payments SET status = ?, reservation_key = NULL, reason = ?, updated_at = ? WHERE reservation_key = ? AND status = 'verified'",
  );

  const settleTx = db.transaction((key: string, s: SettledPayment) => {
    const row = byReservation.get(key) as Row | undefined;
    if (!row) throw new Error(`no verified payment reserved under ${key}`);
    settle.run(s.transaction, s.simulated ? 1 : 0, now(), row.id);
    split.run(row.id, "service", s.split.service.address, s.split.service.amount);
    split.run(row.id, "treasury", s.split.treasury.address, s.split.treasury.amount);
  });

  const close = (status: PaymentStatus, key: string, reason: string) => {
    release.run(status, reason.slice(0, 500), now(), key);
  };

  return {
    async reserve(r: ReservationRequest) {
      const at = now();
      return insert.run(r.key, r.key, r.network, r.payer, r.amount, r.endpoint, r.requestId, at, at).changes === 1;
    },
    async settled(key, settlement) {
      settleTx.immediate(key, settlement);
    },
    async failed(key, reason) {
      close("failed", key, reason);
    },
    async notCharged(key, reason) {
      close("not_charged", key, reason);
    },
    async rows(): Promise<LedgerRow[]> {
      return (db.prepare("SELECT * FROM payments ORDER BY id").safeIntegers(true).all() as Row[]).map((r) => ({
        id: Number(r.id),
        key: r.payment_key as string,
        network: r.network as string,
        payer: r.payer as string,
        amount: r.amount as bigint,
        endpoint: r.endpoint as string,
        status: r.status as PaymentStatus,
        transaction: (r.settlement_tx as string | null) ?? null,
        simulated: Number(r.simulated) === 1,
        reason: (r.reason as string | null) ?? null,
      }));
    },
    async totals(): Promise<LedgerTotals> {
      const all = (sql: string) => db.prepare(sql).safeIntegers(true).all() as Row[];
      return {
        byNetwork: all(
          "SELECT network, COUNT(*) AS n, SUM(amount) AS total FROM payments WHERE status = 'settled' GROUP BY network ORDER BY network",
        ).map((r) => ({
          network: r.network as string,
          payments: Number(r.n),
          amount: r.total as bigint,
        })),
        byEndpoint: all(
          "SELECT endpoint, COUNT(*) AS n, SUM(amount) AS total FROM payments WHERE status = 'settled' GROUP BY endpoint ORDER BY total DESC, endpoint",
        ).map((r) => ({ endpoint: r.endpoint as string, payments: Number(r.n), amount: r.total as bigint })),
        byAccount: all(
          `SELECT s.account, p.network, s.address, SUM(s.amount) AS total FROM splits s JOIN payments p ON p.id = s.payment_id
           GROUP BY s.account, p.network, s.address ORDER BY s.account, p.network`,
        ).map((r) => ({
          account: r.account as "service" | "treasury",
          network: r.network as string,
          address: r.address as string,
          amount: r.total as bigint,
        })),
        byStatus: all("SELECT status, COUNT(*) AS n FROM payments GROUP BY status ORDER BY status").map((r) => ({
          status: r.status as PaymentStatus,
          payments: Number(r.n),
        })),
      };
    },
    close: () => db.close(),
  };
}
