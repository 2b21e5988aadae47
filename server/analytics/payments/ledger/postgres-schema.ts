/** The PostgreSQL ledger's schema: its migrations, applied in order, each once, under the migration lock (server/db/database.ts). */
/** Append only: each entry is one statement. */
export const LEDGER_MIGRATIONS: readonly string[] = [
  `CREATE TABLE payments (
     id BIGSERIAL PRIMARY KEY,
     payment_key TEXT NOT NULL,
     reservation_key TEXT UNIQUE,
     network TEXT NOT NULL,
     payer TEXT NOT NULL,
     amount BIGINT NOT NULL CHECK (amount >= 0),
     endpoint TEXT NOT NULL,
     request_id TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('verified', 'settling', 'settled', 'failed', 'not_charged')),
     fingerprint TEXT NOT NULL,
     payload TEXT NOT NULL,
     deadline_at BIGINT NOT NULL,
     expires_at BIGINT NOT NULL,
     settlement_tx TEXT,
     simulated BOOLEAN NOT NULL DEFAULT false,
     reason TEXT,
     recovery TEXT,
     created_at BIGINT NOT NULL,
     updated_at BIGINT NOT NULL
   )`,
  "CREATE INDEX payments_key ON payments (payment_key)",
  "CREATE INDEX payments_pending ON payments (deadline_at) WHERE status IN ('verified', 'settling')",
  `CREATE TABLE splits (
     payment_id BIGINT NOT NULL REFERENCES payments (id),
     account TEXT NOT NULL CHECK (account IN ('service', 'treasury')),
     address TEXT NOT NULL,
     amount BIGINT NOT NULL CHECK (amount >= 0),
     PRIMARY KEY (payment_id, account)
   )`,
  `CREATE TABLE answers (
     payment_id BIGINT PRIMARY KEY REFERENCES payments (id),
     status INTEGER NOT NULL,
     body TEXT NOT NULL,
     expires_at BIGINT NOT NULL
   )`,
  "CREATE INDEX answers_expiry ON answers (expires_at)",
  // As on SQLite: nothing looks a payment up by payment_key, and its random-key index cost every insert.
  "DROP INDEX payments_key",
  // The attempt that made a reservation (ReservationRequest.holder); older rows have none, and need none.
  "ALTER TABLE payments ADD COLUMN holder TEXT NOT NULL DEFAULT ''",
  // How the call came (ReservationRequest.transport); older rows were all HTTP requests.
  "ALTER TABLE payments ADD COLUMN transport TEXT NOT NULL DEFAULT 'http' CHECK (transport IN ('http', 'mcp'))",
  // As on SQLite: x402's payment-identifier, for the record, and its binding, unique among the payments that hold it.
  "ALTER TABLE payments ADD COLUMN payment_identifier TEXT",
  "ALTER TABLE payments ADD COLUMN identifier_key TEXT",
  "CREATE UNIQUE INDEX payments_identifier ON payments (identifier_key) WHERE identifier_key IS NOT NULL",
  // Until when the answer is kept, when later than expires_at (ReservationRequest.keepAnswerUntil); 0: expires_at.
  "ALTER TABLE payments ADD COLUMN answer_until BIGINT NOT NULL DEFAULT 0",
  // As on SQLite: a payer's lookup by the recorded identifier or by the settlement's transaction (LedgerStore.lookup).
  "CREATE INDEX payments_identifier_record ON payments (payment_identifier) WHERE payment_identifier IS NOT NULL",
  "CREATE INDEX payments_transaction ON payments (settlement_tx) WHERE settlement_tx IS NOT NULL",
  // A2A's paid skills are a third transport (the column's CHECK is named as PostgreSQL names a column's constraint).
  `ALTER TABLE payments DROP CONSTRAINT payments_transport_check,
     ADD CONSTRAINT payments_transport_check CHECK (transport IN ('http', 'mcp', 'a2a'))`,
  // As on SQLite: A2A tasks (tasks/task-store.ts) beside the ledger, a claim's payment and time set together or not at all.
  `CREATE TABLE agent_tasks (
     id TEXT PRIMARY KEY,
     context_id TEXT NOT NULL,
     skill TEXT NOT NULL,
     arguments TEXT NOT NULL,
     state TEXT NOT NULL,
     task TEXT NOT NULL,
     payment_ref TEXT,
     claimed_until BIGINT,
     created_at BIGINT NOT NULL,
     updated_at BIGINT NOT NULL,
     expires_at BIGINT NOT NULL,
     CHECK ((payment_ref IS NULL) = (claimed_until IS NULL))
   )`,
  "CREATE INDEX agent_tasks_expiry ON agent_tasks (expires_at)",
];
