/**
 * The ledger on PostgreSQL, shared by every instance of the service. The same rules as on SQLite,
 * enforced by the database: a payment's key is reserved by a UNIQUE column (released payments set
 * it to NULL), and every stage change is one statement, a conditional UPDATE whose data-modifying
 * CTEs write the split and the stored answer in the same statement, so it is atomic on its own and
 * two instances (or an instance and recovery) can never both move one payment. On the paid path,
 * concurrent requests' reservations go as one statement, and so do their settlements with an answer
 * (each batch one transaction; each row keeps its own condition), as SQLite's group commit batches its
 * writes (docs/decisions/0004-group-commit-and-statement-batches.md). Times come from the caller's clock,
 * as on SQLite, so that deadlines mean the same in both stores.
 *
 * Unlike SQLite's, a statement here runs when it reaches the database, which a partition can delay
 * past the caller's giving up on it (held bytes are delivered once the link heals): a settlement
 * that ran after its deadline would record a charge whose answer its payer can no longer fetch (the
 * payment has expired). With `databaseClock`, a write bound by a deadline checks it at the time it
 * runs, by the database's own clock, as well as at the time it was sent.
 */
import { batched } from "../../../db/batch.js";
import { DATABASE_NOW_MS } from "../../../db/clock-skew.js";
import type { Database } from "../../../db/database.js";
import { StoreUnavailable } from "../../../db/unavailable.js";
import { existingPayment, ledgerRow, ledgerTotals, pendingPayment, reservationValues, totalsQueries } from "./rows.js";
import type { Attempt, LedgerStore, Reservation, ReservationRequest, SettledPayment, StoredAnswer } from "./store.js";

/** Append only: each entry is one statement, applied once under the migration lock. */
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
];

/**
 * The time a deadline-bound write runs at, in ms: the time it was sent (`param`), or with the database's clock the later
 * of that and the database's time now.
 */
const runAt = (param: string, databaseClock: boolean) => (databaseClock ? `GREATEST(${param}::bigint, ${DATABASE_NOW_MS})` : param);

/**
 * A reservation's transaction commits without waiting for its WAL flush (`synchronous_commit` off for that transaction
 * alone): nothing outside the database acts on a reservation before the payment's next commit, which waits for the
 * flush of the whole WAL before it, the reservation's included. One lost with a crash of the database is a payment
 * neither served nor charged; its entry number may go to the next payment reserved, which the later writes' attempt
 * condition (`holder`) keeps the first request from moving (docs/decisions/0003-unflushed-reservations-on-postgresql.md).
 */
const UNFLUSHED = "(SELECT set_config('synchronous_commit', 'off', true)) AS unflushed";

const statements = (databaseClock: boolean) => ({
  reserve: `INSERT INTO payments (payment_key, reservation_key, network, payer, amount, endpoint, request_id, status, fingerprint,
                                  payload, deadline_at, expires_at, holder, created_at, updated_at)
            SELECT $1, $1, $2, $3, $4, $5, $6, 'verified', $7, $8, $9, $10, $11, $12, $12 FROM ${UNFLUSHED}
            ON CONFLICT (reservation_key) DO NOTHING RETURNING id`,
  // Many reservations in one statement (server/db/batch.ts); the keys come distinct and sorted, so
  // that two instances' batches lock the unique index in one order and cannot deadlock.
  reserveMany: `INSERT INTO payments (payment_key, reservation_key, network, payer, amount, endpoint, request_id, status, fingerprint,
                                      payload, deadline_at, expires_at, holder, created_at, updated_at)
                SELECT key, key, network, payer, amount, endpoint, request_id, 'verified', fingerprint, payload, deadline_at, expires_at, holder,
                       $12, $12
                FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::text[], $9::bigint[],
                            $10::bigint[], $11::text[])
                     AS r(key, network, payer, amount, endpoint, request_id, fingerprint, payload, deadline_at, expires_at, holder),
                     ${UNFLUSHED}
                ON CONFLICT (reservation_key) DO NOTHING RETURNING id, reservation_key`,
  // A statement of its own, after the insert: it sees the holder that made the insert conflict once that one committed.
  holder: `SELECT p.status, p.fingerprint, p.expires_at, p.payer, p.network, p.amount, p.settlement_tx, p.simulated,
                  a.status AS answer_status, a.body AS answer_body
           FROM payments p LEFT JOIN answers a ON a.payment_id = p.id WHERE p.reservation_key = $1`,
  beginSettling: `WITH moved AS (
                    UPDATE payments SET status = 'settling', deadline_at = $2, updated_at = $3
                    WHERE id = $1 AND holder = $6 AND status = 'verified' AND deadline_at > ${runAt("$3", databaseClock)} RETURNING id, expires_at)
                  INSERT INTO answers (payment_id, status, body, expires_at) SELECT id, $4::int, $5::text, expires_at FROM moved
                  RETURNING payment_id`,
  // From `verified` within its deadline with the answer ($8 not null), or from `$11` (settling, or recovery's stage) without;
  // by the attempt `$13`, or by recovery (null).
  settle: `WITH moved AS (
             UPDATE payments SET status = 'settled', settlement_tx = $2, simulated = $3, updated_at = $10, recovery = COALESCE($12, recovery)
             WHERE id = $1 AND ($13::text IS NULL OR holder = $13)
               AND ((($8::text) IS NOT NULL AND status = 'verified' AND deadline_at > ${runAt("$10", databaseClock)}) OR (($8::text) IS NULL AND status = $11))
             RETURNING id, expires_at),
           split AS (
             INSERT INTO splits (payment_id, account, address, amount)
             SELECT id, 'service', $4::text, $5::bigint FROM moved UNION ALL SELECT id, 'treasury', $6::text, $7::bigint FROM moved),
           answer AS (
             INSERT INTO answers (payment_id, status, body, expires_at) SELECT id, $9::int, $8::text, expires_at FROM moved WHERE $8::text IS NOT NULL)
           SELECT id FROM moved`,
  // The paid path's settlement with its answer (from `verified`, given as $11, within its deadline), for many payments
  // at once. The stage is a parameter so that no plan of it can read the pending index (with a constant, the planner
  // can prove that index's condition, and chose it): that index keeps an entry for every payment settled since the
  // last vacuum, and a bitmap scan reads them all, on every batch. The rows are read by the primary key (`= ANY`) once
  // the ledger has grown (`plannedFor`).
  settleMany: `WITH input AS (
                 SELECT * FROM unnest($1::bigint[], $2::text[], $3::boolean[], $4::text[], $5::bigint[], $6::text[], $7::bigint[], $8::text[],
                                      $9::int[], $12::text[])
                          AS i(id, tx, simulated, service, service_amount, treasury, treasury_amount, body, answer_status, holder)),
               moved AS (
                 UPDATE payments p SET status = 'settled', settlement_tx = i.tx, simulated = i.simulated, updated_at = $10
                 FROM input i WHERE p.id = ANY($1::bigint[]) AND p.id = i.id AND p.holder = i.holder AND p.status = $11
                   AND p.deadline_at > ${runAt("$10", databaseClock)}
                 RETURNING p.id, p.expires_at),
               split AS (
                 INSERT INTO splits (payment_id, account, address, amount)
                 SELECT m.id, 'service', i.service, i.service_amount FROM moved m JOIN input i ON i.id = m.id
                 UNION ALL SELECT m.id, 'treasury', i.treasury, i.treasury_amount FROM moved m JOIN input i ON i.id = m.id),
               answer AS (
                 INSERT INTO answers (payment_id, status, body, expires_at)
                 SELECT m.id, i.answer_status, i.body, m.expires_at FROM moved m JOIN input i ON i.id = m.id)
               SELECT id FROM moved`,
  release: `WITH moved AS (
              UPDATE payments SET status = $2, reservation_key = NULL, reason = $3, updated_at = $4, recovery = COALESCE($6, recovery)
              WHERE id = $1 AND status = ANY($5::text[]) AND ($7::text IS NULL OR holder = $7) RETURNING id),
            dropped AS (DELETE FROM answers WHERE payment_id IN (SELECT id FROM moved))
            SELECT id FROM moved`,
  abandon: `UPDATE payments SET status = 'not_charged', reservation_key = NULL, reason = $3, updated_at = $4
            WHERE reservation_key = $1 AND holder = $2 AND holder <> '' AND status = 'verified' RETURNING id`,
  pending: `SELECT id, payment_key, status, network, payer, amount, payload, expires_at, created_at FROM payments
            WHERE status IN ('verified', 'settling') AND deadline_at <= $1 ORDER BY deadline_at LIMIT $2`,
  postpone: "UPDATE payments SET deadline_at = $2, recovery = $3, updated_at = $4 WHERE id = $1 AND status = 'settling'",
  dropExpired: "WITH dropped AS (DELETE FROM answers WHERE expires_at < $1 RETURNING 1) SELECT count(*) AS n FROM dropped",
  rows: `SELECT p.*, a.payment_id IS NOT NULL AS has_answer FROM payments p LEFT JOIN answers a ON a.payment_id = p.id ORDER BY p.id`,
});

const TOTALS = totalsQueries('COLLATE "C"');

export interface PostgresLedgerOptions {
  now?: () => number;
  /**
   * Deadlines also checked by the database's clock when a write runs (see the header). For a `now` that is the system
   * clock, as the database's is; not for a test's clock set to another time.
   */
  databaseClock?: boolean;
}

/**
 * The settlement batch's text for a ledger whose entries have reached `entry`: another text (a comment) each time the
 * ledger doubles, which each connection prepares anew, and so plans for the ledger as it is then. A prepared
 * statement keeps the generic plan it makes on its sixth run until its table's statistics change, which never
 * happens where autovacuum is off: made while the ledger was nearly empty, the batch's plan scans the whole table.
 * Made again at each doubling, as autovacuum's analyses would, it reads the batch's rows by their primary key once
 * the ledger has grown: about forty texts over a ledger's life.
 */
const plannedFor = (text: string, entry: number) =>
  `${text} /* planned for ledgers past ${2 ** Math.floor(Math.log2(Math.max(entry, 1)))} entries */`;

/** A settlement's values in the order both settle statements number them (1 to 9; the time is 10). */
const settlementValues = (entry: number, s: SettledPayment, answer?: StoredAnswer) =>
  [
    entry,
    s.transaction,
    s.simulated,
    s.split.service.address,
    s.split.service.amount,
    s.split.treasury.address,
    s.split.treasury.amount,
    answer?.body ?? null,
    answer?.status ?? null,
  ] as const;

/** Rows of values as one array per column, for a statement that reads its rows with `unnest`. */
const columns = (rows: readonly (readonly unknown[])[]) => (rows[0] ?? []).map((_, c) => rows.map((row) => row[c]));

/** The ledger in `database` (migrated first). Closing it leaves the database open: its owner closes that. */
export async function openPostgresLedger(
  database: Database,
  { now = Date.now, databaseClock = false }: PostgresLedgerOptions = {},
): Promise<LedgerStore> {
  await database.migrate("ledger", LEDGER_MIGRATIONS);
  const SQL = statements(databaseClock);
  const { query } = database;

  /** `holder`: the attempt's (`Attempt`), or null for recovery's resolution. */
  const settleRow = (
    entry: number,
    holder: string | null,
    s: SettledPayment,
    from: string,
    answer?: StoredAnswer,
    recovery: string | null = null,
  ) => query(SQL.settle, [...settlementValues(entry, s, answer), now(), from, recovery, holder]).then((rows) => rows.length === 1);

  const release = (entry: number, holder: string | null, status: string, reason: string, from: string[], recovery: string | null) =>
    query(SQL.release, [entry, status, reason.slice(0, 500), now(), from, recovery, holder]).then((rows) => rows.length === 1);

  async function reserveOne(r: ReservationRequest): Promise<Reservation> {
    // A holder released between the conflict and the read leaves nothing to report: reserve again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const [inserted] = await query(SQL.reserve, [...reservationValues(r), now()]);
      if (inserted) return { reserved: true, entry: Number(inserted.id) };
      const [held] = await query(SQL.holder, [r.key]);
      if (held) return { reserved: false, existing: existingPayment(held) };
    }
    throw new StoreUnavailable("ledger (a payment key changed hands three times during one reservation)");
  }

  /** Fresh keys reserved in one statement, for the first request of each; a key it did not insert is left to `reserveOne`. */
  async function reserveMany(requests: ReservationRequest[]): Promise<(Reservation | undefined)[]> {
    const first = new Map<string, ReservationRequest>();
    for (const r of requests) if (!first.has(r.key)) first.set(r.key, r);
    const distinct = [...first.values()].sort((a, b) => (a.key < b.key ? -1 : 1));
    const rows = await query(SQL.reserveMany, [...columns(distinct.map(reservationValues)), now()]);
    const entries = new Map(rows.map((row) => [row.reservation_key as string, Number(row.id)]));
    return requests.map((r) => {
      const entry = first.get(r.key) === r ? entries.get(r.key) : undefined;
      return entry === undefined ? undefined : { reserved: true, entry };
    });
  }

  type Settlement = { attempt: Attempt; settlement: SettledPayment; answer: StoredAnswer };
  async function settleMany(items: Settlement[]): Promise<boolean[]> {
    // In one order of rows for every batch, so that two instances' batches cannot deadlock.
    const sorted = [...items].sort((a, b) => a.attempt.entry - b.attempt.entry);
    const values = sorted.map(({ attempt, settlement, answer }) => settlementValues(attempt.entry, settlement, answer));
    const rows = await query(plannedFor(SQL.settleMany, sorted.at(-1)?.attempt.entry ?? 1), [
      ...columns(values),
      now(),
      "verified",
      sorted.map(({ attempt }) => attempt.holder),
    ]);
    const settled = new Set(rows.map((row) => Number(row.id)));
    return items.map((i) => settled.has(i.attempt.entry));
  }

  // The paid path's two writes, batched across concurrent requests (server/db/batch.ts). Two statements of
  // each on the wire keep one batch filling while the other runs; the pool's other connections serve the rest.
  const maxInFlight = 2;
  const reserve = batched({ many: reserveMany, one: reserveOne, maxBatch: 64, maxInFlight });
  const settleWithAnswer = batched<Settlement, boolean>({
    many: settleMany,
    one: ({ attempt, settlement, answer }) => settleRow(attempt.entry, attempt.holder, settlement, "settling", answer),
    maxBatch: 64,
    maxInFlight,
  });

  return {
    reserve,
    async held(key) {
      const [row] = await query(SQL.holder, [key]);
      return row && existingPayment(row);
    },
    async beginSettling({ entry, holder }, answer, settleBy) {
      return (await query(SQL.beginSettling, [entry, settleBy, now(), answer.status, answer.body, holder])).length === 1;
    },
    settle: (attempt, settlement, answer) =>
      answer ? settleWithAnswer({ attempt, settlement, answer }) : settleRow(attempt.entry, attempt.holder, settlement, "settling"),
    release: ({ entry, holder }, status, reason) => release(entry, holder, status, reason, ["verified", "settling"], null),
    async abandon(key, holder, reason) {
      return (await query(SQL.abandon, [key, holder, reason.slice(0, 500), now()])).length === 1;
    },
    async pending(at, limit) {
      return (await query(SQL.pending, [at, limit])).map(pendingPayment);
    },
    resolve(entry, from, outcome, recovery) {
      if (outcome.status === "settled") return settleRow(entry, null, outcome.settlement, from, undefined, recovery);
      return release(entry, null, outcome.status, outcome.reason, [from], recovery);
    },
    async postpone(entry, retryAt, why) {
      await query(SQL.postpone, [entry, retryAt, why, now()]);
    },
    async dropExpiredAnswers(at) {
      const [row] = await query(SQL.dropExpired, [at]);
      return Number(row?.n ?? 0);
    },
    async rows() {
      return (await query(SQL.rows)).map(ledgerRow);
    },
    totals: () => ledgerTotals(TOTALS, (sql) => query(sql)),
    // A round trip to the database; the readiness probe bounds how long it may take.
    async ping() {
      await query("SELECT 1");
    },
    async close() {},
  };
}
