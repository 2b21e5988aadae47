/**
 * The SQLite ledger's schema: its migrations, applied in order, each once, in one transaction that
 * takes the write lock first (several processes opening one new file migrate it once).
 */
import type Database from "libsql";

export const MIGRATIONS = [
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
  // How the call came (ReservationRequest.transport); older rows were all HTTP requests.
  "ALTER TABLE payments ADD COLUMN transport TEXT NOT NULL DEFAULT 'http' CHECK (transport IN ('http', 'mcp'))",
  // x402's payment-identifier (ReservationRequest.identifier): kept for the record; `identifier_key` binds it, unique
  // among the payments that hold it (open, or settled with their answer kept), as reservation_key binds the key.
  "ALTER TABLE payments ADD COLUMN payment_identifier TEXT",
  "ALTER TABLE payments ADD COLUMN identifier_key TEXT",
  "CREATE UNIQUE INDEX payments_identifier ON payments(identifier_key) WHERE identifier_key IS NOT NULL",
  // Until when the answer is kept, when later than expires_at (ReservationRequest.keepAnswerUntil); 0: expires_at.
  "ALTER TABLE payments ADD COLUMN answer_until INTEGER NOT NULL DEFAULT 0",
  // A payer asks about a payment by its identifier or its settlement's transaction (LedgerStore.lookup); identifier_key
  // is freed with the answer, so the recorded id and the transaction get indexes of their own, of the rows that have one.
  "CREATE INDEX payments_identifier_record ON payments(payment_identifier) WHERE payment_identifier IS NOT NULL",
  "CREATE INDEX payments_transaction ON payments(settlement_tx) WHERE settlement_tx IS NOT NULL",
  // A2A's paid skills are a third transport. SQLite cannot widen a CHECK constraint in place: the table is rebuilt as
  // at the second stage migration, its rows copied as they are and its indexes made again.
  `CREATE TABLE payments_v3 (
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
     updated_at INTEGER NOT NULL,
     holder TEXT NOT NULL DEFAULT '',
     transport TEXT NOT NULL DEFAULT 'http' CHECK (transport IN ('http', 'mcp', 'a2a')),
     payment_identifier TEXT,
     identifier_key TEXT,
     answer_until INTEGER NOT NULL DEFAULT 0
   )`,
  `INSERT INTO payments_v3 (id, payment_key, reservation_key, network, payer, amount, endpoint, request_id, status, fingerprint, payload,
          deadline_at, expires_at, settlement_tx, simulated, reason, recovery, created_at, updated_at, holder, transport,
          payment_identifier, identifier_key, answer_until)
   SELECT id, payment_key, reservation_key, network, payer, amount, endpoint, request_id, status, fingerprint, payload,
          deadline_at, expires_at, settlement_tx, simulated, reason, recovery, created_at, updated_at, holder, transport,
          payment_identifier, identifier_key, answer_until FROM payments`,
  "DROP TABLE payments",
  "ALTER TABLE payments_v3 RENAME TO payments",
  "CREATE INDEX payments_pending ON payments(deadline_at) WHERE status IN ('verified', 'settling')",
  "CREATE UNIQUE INDEX payments_identifier ON payments(identifier_key) WHERE identifier_key IS NOT NULL",
  "CREATE INDEX payments_identifier_record ON payments(payment_identifier) WHERE payment_identifier IS NOT NULL",
  "CREATE INDEX payments_transaction ON payments(settlement_tx) WHERE settlement_tx IS NOT NULL",
  // A2A tasks (tasks/task-store.ts), in the ledger's file so that their writes commit with the ledger's. A claim is a
  // payment and its time together, or neither; `dropExpired` deletes by expires_at.
  `CREATE TABLE agent_tasks (
     id TEXT PRIMARY KEY,
     context_id TEXT NOT NULL,
     skill TEXT NOT NULL,
     arguments TEXT NOT NULL,
     state TEXT NOT NULL,
     task TEXT NOT NULL,
     payment_ref TEXT,
     claimed_until INTEGER,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL,
     CHECK ((payment_ref IS NULL) = (claimed_until IS NULL))
   )`,
  "CREATE INDEX agent_tasks_expiry ON agent_tasks(expires_at)",
];

/** Applies the migrations not yet applied; a file migrated by a newer version of the code is refused, not written. */
export function migrate(db: Database.Database): void {
  db.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
  // Foreign keys cannot be switched inside a transaction; a table rebuild needs them off.
  db.pragma("foreign_keys = OFF");
  const run = db.transaction(() => {
    const current = Number(
      (db.prepare("SELECT MAX(version) AS v FROM schema_version").get() as { v?: number } | undefined)?.v ?? 0,
    );
    if (current > MIGRATIONS.length)
      throw new Error(
        `the ledger's schema is at version ${current}, newer than this code supports (${MIGRATIONS.length})`,
      );
    MIGRATIONS.slice(current).forEach((sql, i) => {
      db.exec(sql);
      db.prepare("INSERT INTO schema_version (version) VALUES (?)").run(current + i + 1);
    });
  });
  run.immediate();
  db.pragma("foreign_keys = ON");
}
