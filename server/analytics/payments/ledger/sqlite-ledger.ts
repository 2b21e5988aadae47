/**
 * The ledger on SQLite (libsql, synchronous driver: docs/decisions/0006-libsql-for-sqlite.md; WAL so
 * that several processes can share the file). A payment's key is reserved by a UNIQUE column that a
 * release sets to NULL, which keeps the row for the record and lets the same authorization be
 * retried; every stage change is one conditional UPDATE, so concurrent requests and recovery cannot
 * both move a payment. Stage changes are group-committed (server/db/group-commit.ts): they share the
 * transaction of their turn of the event loop, each undone alone if it throws, and each is answered
 * once that transaction committed.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "libsql";
import { checkpointOffThread } from "../../../db/checkpointer.js";
import { groupCommit } from "../../../db/group-commit.js";
import { isSqliteBusy, StoreUnavailable } from "../../../db/unavailable.js";
import { useWal } from "../../../db/wal.js";
import { existingPayment, ledgerRow, ledgerTotals, pendingPayment, type Row, reservationValues, totalsQueries } from "./rows.js";
import type { Attempt, ExistingPayment, LedgerStore, Reservation, ReservationRequest, SettledPayment, StoredAnswer } from "./store.js";

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
  // Stages, stored answers and recovery. SQLite cannot change a CHECK constraint in place: the
  // table is rebuilt (foreign keys are off during migrations) and the old rows copied; a row left
  // `verified` by an older version has a past deadline, so recovery releases it at start-up.
  `CREATE TABLE payments_v2 (
     id INTEGER PRIMARY KEY,
     payment_key TEXT NOT NULL,
     reservation_key TEXT UNIQUE,
     network TEXT NOT NULL,
     payer TEXT NOT NULL,
     amount INTEGER NOT NULL CHECK (amount >= 0),
     endpoint TEXT NOT NULL,
     request_id TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('verified', 'settling', 'settled', 'failed', 'not_charged')),
     fingerprint TEXT NOT NULL DEFAULT '',
     payload TEXT NOT NULL DEFAULT '',
     deadline_at INTEGER NOT NULL DEFAULT 0,
     expires_at INTEGER NOT NULL DEFAULT 0,
     settlement_tx TEXT,
     simulated INTEGER NOT NULL DEFAULT 0,
     reason TEXT,
     recovery TEXT,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   )`,
  `INSERT INTO payments_v2 (id, payment_key, reservation_key, network, payer, amount, endpoint, request_id, status,
                            settlement_tx, simulated, reason, created_at, updated_at)
   SELECT id, payment_key, reservation_key, network, payer, amount, endpoint, request_id, status,
          settlement_tx, simulated, reason, created_at, updated_at FROM payments`,
  "DROP TABLE payments",
  "ALTER TABLE payments_v2 RENAME TO payments",
  "CREATE INDEX payments_key ON payments(payment_key)",
  "CREATE INDEX payments_pending ON payments(deadline_at) WHERE status IN ('verified', 'settling')",
  `CREATE TABLE answers (
     payment_id INTEGER PRIMARY KEY REFERENCES payments(id),
     status INTEGER NOT NULL,
     body TEXT NOT NULL,
     expires_at INTEGER NOT NULL
   )`,
  "CREATE INDEX answers_expiry ON answers(expires_at)",
  // No query finds a payment by payment_key (live ones are found by reservation_key's unique index),
  // and the key is a random nonce: each payment paid for an index insert at a random position.
  "DROP INDEX payments_key",
  // The attempt that made a reservation (ReservationRequest.holder); older rows have none, and need none.
  "ALTER TABLE payments ADD COLUMN holder TEXT NOT NULL DEFAULT ''",
];

const TOTALS = totalsQueries("");

export interface SqliteLedgerOptions {
  now?: () => number;
  /** `normal`: commits survive a process crash; `full`: also an OS crash or power loss (one fsync per commit). */
  synchronous?: "normal" | "full";
  /** Told when the WAL's checkpoints fail or fall back to the connection (checkpointer.ts). */
  warn?: (message: string) => void;
}

function migrate(db: Database.Database): void {
  db.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
  // Foreign keys cannot be switched inside a transaction; a table rebuild needs them off.
  db.pragma("foreign_keys = OFF");
  const run = db.transaction(() => {
    const current = Number((db.prepare("SELECT MAX(version) AS v FROM schema_version").get() as Row | undefined)?.v ?? 0);
    MIGRATIONS.slice(current).forEach((sql, i) => {
      db.exec(sql);
      db.prepare("INSERT INTO schema_version (version) VALUES (?)").run(current + i + 1);
    });
  });
  run.immediate();
  db.pragma("foreign_keys = ON");
}

export function openSqliteLedger(
  file: string,
  { now = Date.now, synchronous = "normal", warn = () => {} }: SqliteLedgerOptions = {},
): LedgerStore {
  if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  useWal(db);
  // WAL with synchronous=NORMAL: every commit is atomic and survives a crash of the process; only an
  // OS crash or power loss can drop the last commits (the database stays consistent).
  db.pragma(`synchronous = ${synchronous}`);
  migrate(db);
  const checkpoints = file === ":memory:" ? undefined : checkpointOffThread(db, file, { synchronous, onError: warn });
  // Every stage change commits with those of concurrent requests: one commit per turn of the event loop.
  const inGroup = groupCommit(db);
  // A file another process keeps locked is the ledger out of reach (503, the payment released once it answers again).
  const outOfReach = (error: unknown) =>
    isSqliteBusy(error) ? new StoreUnavailable("ledger (its file is locked by another process)", { cause: error }) : error;
  const committed = <T>(work: () => T): Promise<T> =>
    inGroup(work).catch((error: unknown) => {
      throw outOfReach(error);
    });

  const insert = db.prepare(
    `INSERT INTO payments (payment_key, reservation_key, network, payer, amount, endpoint, request_id, status, fingerprint, payload,
                           deadline_at, expires_at, holder, created_at, updated_at)
     VALUES (?1, ?1, ?2, ?3, ?4, ?5, ?6, 'verified', ?7, ?8, ?9, ?10, ?11, ?12, ?12) ON CONFLICT(reservation_key) DO NOTHING`,
  );
  const holder = db.prepare(
    `SELECT p.status, p.fingerprint, p.expires_at, p.payer, p.network, p.amount, p.settlement_tx, p.simulated,
            a.status AS answer_status, a.body AS answer_body
     FROM payments p LEFT JOIN answers a ON a.payment_id = p.id WHERE p.reservation_key = ?`,
  );
  const toSettling = db.prepare(
    `UPDATE payments SET status = 'settling', deadline_at = ?, updated_at = ?
     WHERE id = ? AND holder = ? AND status = 'verified' AND deadline_at > ? RETURNING id, expires_at`,
  );
  const settleFromVerified = db.prepare(
    `UPDATE payments SET status = 'settled', settlement_tx = ?, simulated = ?, updated_at = ?
     WHERE id = ? AND holder = ? AND status = 'verified' AND deadline_at > ? RETURNING id, expires_at`,
  );
  const settleFrom = db.prepare(
    `UPDATE payments SET status = 'settled', settlement_tx = ?, simulated = ?, updated_at = ?, recovery = COALESCE(?, recovery)
     WHERE id = ? AND status = ? AND (? IS NULL OR holder = ?) RETURNING id`,
  );
  const storeAnswer = db.prepare("INSERT INTO answers (payment_id, status, body, expires_at) VALUES (?, ?, ?, ?)");
  const split = db.prepare("INSERT INTO splits (payment_id, account, address, amount) VALUES (?, 'service', ?, ?), (?, 'treasury', ?, ?)");
  const releaseFrom = db.prepare(
    `UPDATE payments SET status = ?, reservation_key = NULL, reason = ?, updated_at = ?, recovery = COALESCE(?, recovery)
     WHERE id = ? AND status IN (?, ?) AND (? IS NULL OR holder = ?) RETURNING id`,
  );
  const dropAnswer = db.prepare("DELETE FROM answers WHERE payment_id = ?");
  const abandonHeld = db.prepare(
    `UPDATE payments SET status = 'not_charged', reservation_key = NULL, reason = ?, updated_at = ?
     WHERE reservation_key = ? AND holder = ? AND holder <> '' AND status = 'verified'`,
  );
  const probe = db.prepare("SELECT MAX(version) AS v FROM schema_version");
  const postponeSettling = db.prepare(
    "UPDATE payments SET deadline_at = ?, recovery = ?, updated_at = ? WHERE id = ? AND status = 'settling'",
  );
  const dropExpired = db.prepare("DELETE FROM answers WHERE expires_at < ?");

  const writeSplit = (id: unknown, s: SettledPayment) => {
    split.run(id, s.split.service.address, s.split.service.amount, id, s.split.treasury.address, s.split.treasury.amount);
  };

  const existing = (key: string): ExistingPayment | undefined => {
    const row = holder.get(key) as Row | undefined;
    return row && existingPayment(row);
  };

  const reserveTx = (r: ReservationRequest): Reservation => {
    const at = now();
    const inserted = insert.run(...reservationValues(r), at);
    if (inserted.changes === 1) return { reserved: true, entry: Number(inserted.lastInsertRowid) };
    // Same transaction: the holder seen is the one that made the insert conflict.
    return { reserved: false, existing: existing(r.key) as ExistingPayment };
  };

  const beginSettlingTx = ({ entry, holder }: Attempt, answer: StoredAnswer, settleBy: number) => {
    const at = now();
    const row = toSettling.get(settleBy, at, entry, holder, at) as Row | undefined;
    if (!row) return false;
    storeAnswer.run(row.id, answer.status, answer.body, row.expires_at);
    return true;
  };

  const settleTx = ({ entry, holder }: Attempt, s: SettledPayment, answer: StoredAnswer | undefined) => {
    const at = now();
    const row = (
      answer
        ? settleFromVerified.get(s.transaction, s.simulated ? 1 : 0, at, entry, holder, at)
        : settleFrom.get(s.transaction, s.simulated ? 1 : 0, at, null, entry, "settling", holder, holder)
    ) as Row | undefined;
    if (!row) return false;
    writeSplit(row.id, s);
    if (answer) storeAnswer.run(row.id, answer.status, answer.body, row.expires_at);
    return true;
  };

  /** `holder`: the attempt's, or null for recovery's resolution. */
  const releaseTx = (entry: number, holder: string | null, status: string, reason: string, from: string[], recovery: string | null) => {
    const row = releaseFrom.get(status, reason.slice(0, 500), now(), recovery, entry, from[0], from[1] ?? from[0], holder, holder) as
      | Row
      | undefined;
    if (!row) return false;
    dropAnswer.run(row.id);
    return true;
  };

  const resolveSettledTx = (entry: number, from: string, s: SettledPayment, recovery: string) => {
    const row = settleFrom.get(s.transaction, s.simulated ? 1 : 0, now(), recovery, entry, from, null, null) as Row | undefined;
    if (!row) return false;
    writeSplit(row.id, s);
    return true;
  };

  return {
    reserve: (request) => committed(() => reserveTx(request)),
    async held(key) {
      return existing(key);
    },
    beginSettling: (attempt, answer, settleBy) => committed(() => beginSettlingTx(attempt, answer, settleBy)),
    settle: (attempt, settlement, answer) => committed(() => settleTx(attempt, settlement, answer)),
    release: ({ entry, holder }, status, reason) =>
      committed(() => releaseTx(entry, holder, status, reason, ["verified", "settling"], null)),
    abandon: (key, holder, reason) => committed(() => abandonHeld.run(reason.slice(0, 500), now(), key, holder).changes === 1),
    async pending(at, limit) {
      const rows = db
        .prepare(
          `SELECT id, payment_key, status, network, payer, amount, payload, expires_at, created_at FROM payments
           WHERE status IN ('verified', 'settling') AND deadline_at <= ? ORDER BY deadline_at LIMIT ?`,
        )
        .safeIntegers(true)
        .all(at, limit) as Row[];
      return rows.map(pendingPayment);
    },
    async resolve(entry, from, outcome, recovery) {
      if (outcome.status === "settled") return committed(() => resolveSettledTx(entry, from, outcome.settlement, recovery));
      return committed(() => releaseTx(entry, null, outcome.status, outcome.reason, [from], recovery));
    },
    // Recovery's writes are group-committed too: a lock then fails the BEGIN, before any statement starts (a statement
    // that failed part-way would be left in progress, and every later commit on the connection refused).
    async postpone(entry, retryAt, why) {
      await committed(() => postponeSettling.run(retryAt, why, now(), entry));
    },
    dropExpiredAnswers: (at) => committed(() => dropExpired.run(at).changes),
    async rows() {
      const rows = db
        .prepare(
          "SELECT p.*, a.payment_id IS NOT NULL AS has_answer FROM payments p LEFT JOIN answers a ON a.payment_id = p.id ORDER BY p.id",
        )
        .safeIntegers(true)
        .all() as Row[];
      return rows.map(ledgerRow);
    },
    async totals() {
      return ledgerTotals(TOTALS, async (sql) => db.prepare(sql).safeIntegers(true).all() as Row[]);
    },
    // A synchronous read of the file: nothing to abort, and it holds no lock a writer waits for.
    async ping() {
      probe.get();
    },
    async close() {
      await checkpoints?.stop();
      db.close();
    },
  };
}
