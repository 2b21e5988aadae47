/**
 * The ledger on PostgreSQL, shared by every instance of the service. The same rules as on SQLite,
 * enforced by the database: a payment's key is reserved by a UNIQUE column (released payments set
 * it to NULL), and every transition of stages.ts is one statement, a conditional UPDATE (its
 * condition from the table) whose data-modifying CTEs write the split and the stored answer in the
 * same statement, so it is atomic on its own and two instances (or an instance and recovery) can
 * never both move one payment. On the paid path, concurrent requests' reservations go as one
 * statement, and so do their settlements with an answer (each batch one transaction; each row keeps
 * its own condition), as SQLite's group commit batches its writes
 * (docs/decisions/0004-group-commit-and-statement-batches.md). Times come from the caller's clock, as
 * on SQLite, so that deadlines mean the same in both stores.
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
import { type NamedStatement, named } from "../../../db/named.js";
import { StoreUnavailable } from "../../../db/unavailable.js";
import { assignmentsOf, conditionOf, type Dialect, PENDING } from "./conditions.js";
import { LEDGER_MIGRATIONS } from "./postgres-schema.js";
import { existingPayment, ledgerRow, ledgerTotals, pendingPayment, totalsQueries } from "./rows.js";
import { freesKey, MOVES, type MoveName, RECOVERY_RECORDS, TRANSITIONS } from "./stages.js";
import type { Attempt, LedgerStore, Reservation, ReservationRequest, SettledPayment, StoredAnswer } from "./store.js";

/**
 * A reservation's transaction commits without waiting for its WAL flush (`synchronous_commit` off for that transaction
 * alone): nothing outside the database acts on a reservation before the payment's next commit, which waits for the
 * flush of the whole WAL before it, the reservation's included. One lost with a crash of the database is a payment
 * neither served nor charged; its entry number may go to the next payment reserved, which the later writes' attempt
 * condition (`holder`) keeps the first request from moving (docs/decisions/0003-unflushed-reservations-on-postgresql.md).
 */
const UNFLUSHED = "(SELECT set_config('synchronous_commit', 'off', true)) AS unflushed";

const RESERVED_COLUMNS = `payment_key, reservation_key, network, payer, amount, endpoint, request_id, status, fingerprint, payload,
                          deadline_at, expires_at, holder, transport, payment_identifier, identifier_key, answer_until,
                          created_at, updated_at`;

/**
 * The table's conditions in PostgreSQL. The stage is a parameter, so that no plan of a statement can read the pending
 * index (with constants, the planner can prove that index's condition, and chose it): that index keeps an entry for
 * every payment settled since the last vacuum, and a bitmap scan reads them all. `attempt`: how the statement names the
 * attempt (a batch takes it from its input rows). With the database's clock, a deadline is checked at the time the
 * write runs as well as the time it was sent.
 */
const dialectOf = (attempt: string, databaseClock: boolean): Dialect => ({
  stages: () => "status = ANY(:fromStages::text[])",
  guards: {
    "free key": "",
    "free identifier": "",
    attempt,
    holder: "reservation_key = :key AND holder = :holder AND holder <> ''",
    entry: "id = :entry",
    "before deadline": `deadline_at > ${databaseClock ? `GREATEST(:now::bigint, ${DATABASE_NOW_MS})` : ":now"}`,
    "past deadline": "deadline_at <= :now",
  },
});

/** Writes of the split's two rows and of the stored answer, for a CTE `moved` of the rows a settlement moved. */
const SPLIT = `split AS (
  INSERT INTO splits (payment_id, account, address, amount)
  SELECT id, 'service', :serviceAddress::text, :serviceAmount::bigint FROM moved
  UNION ALL SELECT id, 'treasury', :treasuryAddress::text, :treasuryAmount::bigint FROM moved)`;
const ANSWER = `answer AS (
  INSERT INTO answers (payment_id, status, body, expires_at) SELECT id, :answerStatus::int, :answerBody::text, expires_at FROM moved)`;
/** A payment with its answer, if one is kept: what a retry reads. */
const ANSWERED = `SELECT p.payment_key, p.status, p.fingerprint, p.expires_at, p.deadline_at, p.payer, p.network, p.amount, p.settlement_tx,
                         p.simulated, a.status AS answer_status, a.body AS answer_body, a.expires_at AS answer_until
                  FROM payments p LEFT JOIN answers a ON a.payment_id = p.id`;
const DROP_ANSWER = "dropped AS (DELETE FROM answers WHERE payment_id IN (SELECT id FROM moved))";

/** The answers a move stores: the request's answer, before an outside settlement or in the commit that settles. */
const STORES_ANSWER: readonly MoveName[] = ["beginSettling", "settleWithAnswer"];

/**
 * One move of the table as one statement: the row's UPDATE, and in data-modifying CTEs on the row it moved, a
 * settlement's split, the answer stored, a release's answer dropped.
 */
function moveText(transition: MoveName, dialect: Dialect): string {
  const update = `UPDATE payments SET ${assignmentsOf(transition)} WHERE ${conditionOf(transition, dialect)}
                  RETURNING id, GREATEST(expires_at, answer_until) AS expires_at`;
  const writes = [
    TRANSITIONS[transition].to === "settled" ? SPLIT : "",
    STORES_ANSWER.includes(transition) ? ANSWER : "",
    freesKey(transition) ? DROP_ANSWER : "",
  ];
  return `WITH ${[`moved AS (${update})`, ...writes].filter(Boolean).join(", ")} SELECT id FROM moved`;
}

function statements(databaseClock: boolean) {
  const row = dialectOf("id = :entry AND holder = :holder", databaseClock);
  const moves = Object.fromEntries(MOVES.map((transition) => [transition, named(moveText(transition, row))]));
  return {
    ...(moves as Record<MoveName, NamedStatement>),
    reserve: named(`INSERT INTO payments (${RESERVED_COLUMNS})
      SELECT :key, :key, :network, :payer, :amount, :endpoint, :requestId, '${TRANSITIONS.reserve.to}', :fingerprint, :payload, :deadlineAt, :expiresAt,
             :holder, :transport, :identifier, :identifier, :keepAnswerUntil, :now, :now FROM ${UNFLUSHED}
      ON CONFLICT DO NOTHING RETURNING id`),
    // Many reservations in one statement (server/db/batch.ts); the keys come distinct and sorted, so
    // that two instances' batches lock the unique index in one order and cannot deadlock.
    reserveMany: named(`INSERT INTO payments (${RESERVED_COLUMNS})
      SELECT key, key, network, payer, amount, endpoint, request_id, '${TRANSITIONS.reserve.to}', fingerprint, payload, deadline_at, expires_at, holder,
             transport, identifier, identifier, answer_until, :now, :now
      FROM unnest(:keys::text[], :networks::text[], :payers::text[], :amounts::bigint[], :endpoints::text[], :requestIds::text[],
                  :fingerprints::text[], :payloads::text[], :deadlines::bigint[], :expiries::bigint[], :holders::text[],
                  :transports::text[], :identifiers::text[], :answerUntils::bigint[])
           AS r(key, network, payer, amount, endpoint, request_id, fingerprint, payload, deadline_at, expires_at, holder, transport,
                identifier, answer_until),
           ${UNFLUSHED}
      ON CONFLICT DO NOTHING RETURNING id, reservation_key`),
    recordUncharged:
      named(`INSERT INTO payments (payment_key, network, payer, amount, endpoint, request_id, status, fingerprint, payload,
                                                  deadline_at, expires_at, transport, payment_identifier, reason, created_at, updated_at)
      VALUES (:key, :network, :payer, :amount, :endpoint, :requestId, '${TRANSITIONS.recordUncharged.to}', :fingerprint, :payload, 0, :expiresAt,
              :transport, :identifier, :reason, :now, :now)`),
    // A statement of its own, after the insert: it sees the holder that made the insert conflict once that one committed.
    held: named(`${ANSWERED} WHERE p.reservation_key = :key`),
    bound: named(`${ANSWERED} WHERE p.identifier_key = :identifier`),
    settleMany: named(settleManyText(databaseClock)),
    pending:
      named(`SELECT id, payment_key, status, network, payer, amount, payload, expires_at, created_at FROM payments
                    WHERE ${PENDING} AND deadline_at <= :now ORDER BY deadline_at LIMIT :limit`),
    dropExpired: named(`WITH dropped AS (DELETE FROM answers WHERE expires_at < :now RETURNING payment_id),
      unbound AS (UPDATE payments SET identifier_key = NULL WHERE id IN (SELECT payment_id FROM dropped) AND identifier_key IS NOT NULL)
      SELECT count(*) AS n FROM dropped`),
  };
}

/**
 * `settleWithAnswer` for many payments at once, each row with its own attempt and condition; the rows are read by the
 * primary key (`= ANY`) once the ledger has grown (`plannedFor`).
 */
function settleManyText(databaseClock: boolean): string {
  const batch = dialectOf("id = i.entry AND holder = i.attempt", databaseClock);
  return `WITH input AS (
      SELECT * FROM unnest(:entries::bigint[], :transactions::text[], :simulated::boolean[], :services::text[], :serviceAmounts::bigint[],
                           :treasuries::text[], :treasuryAmounts::bigint[], :bodies::text[], :answerStatuses::int[], :attempts::text[])
               AS i(entry, tx, simulated, service, service_amount, treasury, treasury_amount, body, answer_status, attempt)),
    moved AS (
      UPDATE payments p SET status = '${TRANSITIONS.settleWithAnswer.to}', settlement_tx = i.tx, simulated = i.simulated, updated_at = :now
      FROM input i WHERE p.id = ANY(:entries::bigint[]) AND ${conditionOf("settleWithAnswer", batch)}
      RETURNING p.id, GREATEST(p.expires_at, p.answer_until) AS expires_at),
    split AS (
      INSERT INTO splits (payment_id, account, address, amount)
      SELECT m.id, 'service', i.service, i.service_amount FROM moved m JOIN input i ON i.entry = m.id
      UNION ALL SELECT m.id, 'treasury', i.treasury, i.treasury_amount FROM moved m JOIN input i ON i.entry = m.id),
    answer AS (
      INSERT INTO answers (payment_id, status, body, expires_at)
      SELECT m.id, i.answer_status, i.body, m.expires_at FROM moved m JOIN input i ON i.entry = m.id)
    SELECT id FROM moved`;
}

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

const settledParams = (s: SettledPayment) => ({
  transaction: s.transaction,
  simulated: s.simulated,
  serviceAddress: s.split.service.address,
  serviceAmount: s.split.service.amount,
  treasuryAddress: s.split.treasury.address,
  treasuryAmount: s.split.treasury.amount,
});

const reservationParams = (r: ReservationRequest) => {
  const {
    key,
    network,
    payer,
    amount,
    endpoint,
    requestId,
    fingerprint,
    payload,
    deadlineAt,
    expiresAt,
    holder,
    transport,
  } = r;
  return {
    key,
    network,
    payer,
    amount,
    endpoint,
    requestId,
    fingerprint,
    payload,
    deadlineAt,
    expiresAt,
    holder,
    transport,
    identifier: r.identifier ?? null,
    keepAnswerUntil: r.keepAnswerUntil ?? 0,
  };
};

/** The ledger in `database` (migrated first). Closing it leaves the database open: its owner closes that. */
export async function openPostgresLedger(
  database: Database,
  { now = Date.now, databaseClock = false }: PostgresLedgerOptions = {},
): Promise<LedgerStore> {
  await database.migrate("ledger", LEDGER_MIGRATIONS);
  const SQL = statements(databaseClock);
  const { query } = database;
  type Statement = Exclude<keyof typeof SQL, "settleMany">;
  const run = (statement: Statement, params: Record<string, unknown>) =>
    query(SQL[statement].text, SQL[statement].values({ now: now(), ...params }));
  /** One transition of stages.ts on one row: true when this statement moved it. */
  const move = (transition: MoveName, params: Record<string, unknown>) =>
    run(transition, { fromStages: TRANSITIONS[transition].from, ...params }).then((rows) => rows.length === 1);
  const short = (reason: string) => reason.slice(0, 500);
  const { reserve, settleWithAnswer } = pathBatches(run, query, SQL, now);

  return {
    reserve,
    async held(key) {
      const [row] = await run("held", { key });
      return row && existingPayment(row);
    },
    async bound(identifier) {
      const [row] = await run("bound", { identifier });
      return row && existingPayment(row);
    },
    async recordUncharged(u) {
      await run("recordUncharged", { ...u, reason: short(u.reason) });
    },
    beginSettling: ({ entry, holder }, answer, settleBy) =>
      move("beginSettling", {
        entry,
        holder,
        deadline: settleBy,
        answerStatus: answer.status,
        answerBody: answer.body,
      }),
    settleWithAnswer: (attempt, settlement, answer) => settleWithAnswer({ attempt, settlement, answer }),
    confirmSettlement: ({ entry, holder }, s) => move("confirmSettlement", { entry, holder, ...settledParams(s) }),
    release: ({ entry, holder }, reason) => move("release", { entry, holder, reason: short(reason) }),
    refuse: ({ entry, holder }, reason) => move("refuse", { entry, holder, reason: short(reason) }),
    abandon: (key, holder, reason) => move("abandon", { key, holder, reason: short(reason) }),
    expire: (entry) => move("expire", { entry, reason: RECOVERY_RECORDS.expire, recovery: RECOVERY_RECORDS.expire }),
    confirmOnChain: (entry, s) =>
      move("confirmOnChain", { entry, ...settledParams(s), recovery: RECOVERY_RECORDS.confirmOnChain }),
    voidOnChain: (entry, reason) =>
      move("voidOnChain", { entry, reason: short(reason), recovery: RECOVERY_RECORDS.voidOnChain }),
    postpone: (entry, retryAt, why) => move("postpone", { entry, deadline: retryAt, recovery: why }),
    pending: async (at, limit) =>
      (await query(SQL.pending.text, SQL.pending.values({ now: at, limit }))).map(pendingPayment),
    async dropExpiredAnswers(at) {
      const [row] = await query(SQL.dropExpired.text, SQL.dropExpired.values({ now: at }));
      return Number(row?.n ?? 0);
    },
    rows: async () =>
      (
        await query(
          "SELECT p.*, a.payment_id IS NOT NULL AS has_answer FROM payments p LEFT JOIN answers a ON a.payment_id = p.id ORDER BY p.id",
        )
      ).map(ledgerRow),
    totals: () => ledgerTotals(TOTALS, (sql) => query(sql)),
    // A round trip to the database; the readiness probe bounds how long it may take.
    async ping() {
      await query("SELECT 1");
    },
    async close() {},
  };
}

type Settlement = { attempt: Attempt; settlement: SettledPayment; answer: StoredAnswer };

/**
 * The paid path's two writes, batched across concurrent requests (server/db/batch.ts): the reservation and the
 * settlement with its answer. Two statements of each on the wire keep one batch filling while the other runs; the
 * pool's other connections serve the rest.
 */
function pathBatches(
  run: (
    statement: "reserve" | "held" | "bound" | "settleWithAnswer",
    params: Record<string, unknown>,
  ) => Promise<Record<string, unknown>[]>,
  query: Database["query"],
  SQL: ReturnType<typeof statements>,
  now: () => number,
) {
  async function reserveOne(r: ReservationRequest): Promise<Reservation> {
    // A holder released between the conflict and the read leaves nothing to report: reserve again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const [inserted] = await run("reserve", reservationParams(r));
      if (inserted) return { reserved: true, entry: Number(inserted.id) };
      const [held] = await run("held", { key: r.key });
      if (held) return { reserved: false, existing: existingPayment(held), by: "key" };
      const [bound] = r.identifier === undefined ? [] : await run("bound", { identifier: r.identifier });
      if (bound) return { reserved: false, existing: existingPayment(bound), by: "identifier" };
    }
    throw new StoreUnavailable("ledger (a payment key changed hands three times during one reservation)");
  }

  /** Fresh keys reserved in one statement, for the first request of each; a key it did not insert is left to `reserveOne`. */
  async function reserveMany(requests: ReservationRequest[]): Promise<(Reservation | undefined)[]> {
    const first = new Map<string, ReservationRequest>();
    for (const r of requests) if (!first.has(r.key)) first.set(r.key, r);
    const rows = [...first.values()].sort((a, b) => (a.key < b.key ? -1 : 1));
    const column = <K extends keyof ReservationRequest>(name: K) => rows.map((r) => r[name]);
    const inserted = await query(
      SQL.reserveMany.text,
      SQL.reserveMany.values({
        keys: column("key"),
        networks: column("network"),
        payers: column("payer"),
        amounts: column("amount"),
        endpoints: column("endpoint"),
        requestIds: column("requestId"),
        fingerprints: column("fingerprint"),
        payloads: column("payload"),
        deadlines: column("deadlineAt"),
        expiries: column("expiresAt"),
        holders: column("holder"),
        transports: column("transport"),
        identifiers: rows.map((r) => r.identifier ?? null),
        answerUntils: rows.map((r) => r.keepAnswerUntil ?? 0),
        now: now(),
      }),
    );
    const entries = new Map(inserted.map((row) => [row.reservation_key as string, Number(row.id)]));
    return requests.map((r) => {
      const entry = first.get(r.key) === r ? entries.get(r.key) : undefined;
      return entry === undefined ? undefined : { reserved: true, entry };
    });
  }

  async function settleMany(items: Settlement[]): Promise<boolean[]> {
    // In one order of rows for every batch, so that two instances' batches cannot deadlock.
    const sorted = [...items].sort((a, b) => a.attempt.entry - b.attempt.entry);
    const column = (pick: (item: Settlement) => unknown) => sorted.map(pick);
    const params = {
      entries: column((i) => i.attempt.entry),
      attempts: column((i) => i.attempt.holder),
      transactions: column((i) => i.settlement.transaction),
      simulated: column((i) => i.settlement.simulated),
      services: column((i) => i.settlement.split.service.address),
      serviceAmounts: column((i) => i.settlement.split.service.amount),
      treasuries: column((i) => i.settlement.split.treasury.address),
      treasuryAmounts: column((i) => i.settlement.split.treasury.amount),
      bodies: column((i) => i.answer.body),
      answerStatuses: column((i) => i.answer.status),
      fromStages: TRANSITIONS.settleWithAnswer.from,
      now: now(),
    };
    const rows = await query(
      plannedFor(SQL.settleMany.text, sorted.at(-1)?.attempt.entry ?? 1),
      SQL.settleMany.values(params),
    );
    const settled = new Set(rows.map((row) => Number(row.id)));
    return items.map((i) => settled.has(i.attempt.entry));
  }

  const settleOne = ({ attempt, settlement, answer }: Settlement) =>
    run("settleWithAnswer", {
      entry: attempt.entry,
      holder: attempt.holder,
      fromStages: TRANSITIONS.settleWithAnswer.from,
      ...settledParams(settlement),
      answerStatus: answer.status,
      answerBody: answer.body,
    }).then((rows) => rows.length === 1);

  const maxInFlight = 2;
  return {
    reserve: batched({ many: reserveMany, one: reserveOne, maxBatch: 64, maxInFlight }),
    settleWithAnswer: batched<Settlement, boolean>({ many: settleMany, one: settleOne, maxBatch: 64, maxInFlight }),
  };
}
