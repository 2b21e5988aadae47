/**
 * The ledger on PostgreSQL, shared by every instance of the service. The same rules as on SQLite,
 * enforced by the database: a payment's key is reserved by a UNIQUE column (released payments set
 * it to NULL), and every transition of stages.ts is one statement, a conditional UPDATE (its
 * condition from the table) whose data-modifying CTEs write the split and the stored answer in the
 * same statement, so it is atomic on its own and two instances (or an instance and recovery) can
 * never both move one payment. On the paid path, concurrent requests' reservations and settlements
 * with an answer go in batches (postgres-batches.ts). Times come from the caller's clock, as on
 * SQLite, so that deadlines mean the same in both stores.
 *
 * Unlike SQLite's, a statement here runs when it reaches the database, which a partition can delay
 * past the caller's giving up on it (held bytes are delivered once the link heals): a settlement
 * that ran after its deadline would record a charge whose answer its payer can no longer fetch (the
 * payment has expired). With `databaseClock`, a write bound by a deadline checks it at the time it
 * runs, by the database's own clock, as well as at the time it was sent.
 */
import type { Database } from "../../../db/database.js";
import { type NamedStatement, named } from "../../../db/named.js";
import { StoreUnavailable } from "../../../db/unavailable.js";
import { postgresTasks } from "../../tasks/postgres-tasks.js";
import type { TaskStore } from "../../tasks/task-store.js";
import { assignmentsOf, conditionOf, type Dialect, PENDING, refusalOf } from "./conditions.js";
import { pathBatches, type Settlement } from "./postgres-batches.js";
import { LEDGER_MIGRATIONS } from "./postgres-schema.js";
import { dialectOf, RESERVED_COLUMNS, UNFLUSHED } from "./postgres-sql.js";
import {
  existingPayment,
  ledgerRow,
  ledgerTotals,
  lookupOf,
  lookupText,
  paymentRecord,
  pendingPayment,
  type Row,
  refusal,
  totalsQueries,
} from "./rows.js";
import { readSettlements } from "./settlement-records.js";
import { freesKey, MOVES, type MoveName, RECOVERY_RECORDS, TRANSITIONS } from "./stages.js";
import type { LedgerStore, Move, Reservation, ReservationRequest, SettledPayment } from "./store.js";

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

/** Each move's refusal, read when its statement changed no row (conditions.ts `refusalOf`). */
const refusalStatements = (databaseClock: boolean) =>
  Object.fromEntries(
    MOVES.map((transition) => [
      transition,
      named(refusalOf(transition, dialectOf("id = :entry AND holder = :holder", databaseClock))),
    ]),
  ) as Record<MoveName, NamedStatement>;

const MOVED: Move = { moved: true };

function statements(databaseClock: boolean) {
  const row = dialectOf("id = :entry AND holder = :holder", databaseClock);
  const moves = Object.fromEntries(MOVES.map((transition) => [transition, named(moveText(transition, row))]));
  return {
    ...(moves as Record<MoveName, NamedStatement>),
    reserve: named(`INSERT INTO payments (${RESERVED_COLUMNS})
      SELECT :key, :key, :network, :payer, :amount, :endpoint, :requestId, '${TRANSITIONS.reserve.to}', :fingerprint, :payload, :deadlineAt, :expiresAt,
             :holder, :transport, :identifier, :identifier, :keepAnswerUntil, :now, :now FROM ${UNFLUSHED}
      ON CONFLICT DO NOTHING RETURNING id`),
    recordUncharged:
      named(`INSERT INTO payments (payment_key, network, payer, amount, endpoint, request_id, status, fingerprint, payload,
                                                  deadline_at, expires_at, transport, payment_identifier, reason, created_at, updated_at)
      VALUES (:key, :network, :payer, :amount, :endpoint, :requestId, '${TRANSITIONS.recordUncharged.to}', :fingerprint, :payload, 0, :expiresAt,
              :transport, :identifier, :reason, :now, :now)`),
    // A statement of its own, after the insert: it sees the holder that made the insert conflict once that one committed.
    held: named(`${ANSWERED} WHERE p.reservation_key = :key`),
    bound: named(`${ANSWERED} WHERE p.identifier_key = :identifier`),
    lookupByIdentifier: named(lookupText("identifier")),
    lookupByTransaction: named(lookupText("transaction")),
    pending:
      named(`SELECT id, payment_key, status, network, payer, amount, payload, expires_at, created_at FROM payments
                    WHERE ${PENDING} AND deadline_at <= :now ORDER BY deadline_at LIMIT :limit`),
    dropExpired: named(`WITH dropped AS (DELETE FROM answers WHERE expires_at < :now RETURNING payment_id),
      unbound AS (UPDATE payments SET identifier_key = NULL WHERE id IN (SELECT payment_id FROM dropped) AND identifier_key IS NOT NULL)
      SELECT count(*) AS n FROM dropped`),
  };
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

const settledParams = (s: SettledPayment) => ({
  transaction: s.transaction,
  simulated: s.simulated,
  serviceAddress: s.split.service.address,
  serviceAmount: s.split.service.amount,
  treasuryAddress: s.split.treasury.address,
  treasuryAmount: s.split.treasury.amount,
});

const reservationParams = ({ identifier, keepAnswerUntil, ...fields }: ReservationRequest) => ({
  ...fields,
  identifier: identifier ?? null,
  keepAnswerUntil: keepAnswerUntil ?? 0,
});

type Run = (statement: "reserve" | "held" | "bound", params: Record<string, unknown>) => Promise<Row[]>;

/** One reservation: the key reserved, or what holds it (by its key or its identifier). */
async function reserveOne(run: Run, r: ReservationRequest): Promise<Reservation> {
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

/** The parameters of one settlement with its answer, in the commit that settles. */
const settlementParams = ({ attempt, settlement, answer }: Settlement) => ({
  entry: attempt.entry,
  holder: attempt.holder,
  ...settledParams(settlement),
  answerStatus: answer.status,
  answerBody: answer.body,
});

/**
 * The moves of stages.ts on one row each: `move`, the statement, moved or what refused it; `refused`, what refused a
 * move that changed no row, a read of its own after the statement that decided, which only names the refusal
 * (conditions.ts `refusalOf`), at the time the move was sent.
 */
function movesOf(
  query: Database["query"],
  SQL: Record<MoveName, NamedStatement>,
  refusals: Record<MoveName, NamedStatement>,
  now: () => number,
) {
  const refused = async (transition: MoveName, params: Record<string, unknown>) =>
    refusal((await query(refusals[transition].text, refusals[transition].values(params)))[0]);
  const move = async (transition: MoveName, params: Record<string, unknown>): Promise<Move> => {
    const sent = { now: now(), fromStages: TRANSITIONS[transition].from, ...params };
    const rows = await query(SQL[transition].text, SQL[transition].values(sent));
    return rows.length === 1 ? MOVED : refused(transition, sent);
  };
  return { move, refused };
}

/**
 * The ledger in `database` (migrated first), with the A2A task store in the same database (`tasks`). Closing it
 * leaves the database open: its owner closes that.
 */
export async function openPostgresLedger(
  database: Database,
  { now = Date.now, databaseClock = false }: PostgresLedgerOptions = {},
): Promise<LedgerStore & { tasks: TaskStore }> {
  await database.migrate("ledger", LEDGER_MIGRATIONS);
  const SQL = statements(databaseClock);
  const { query } = database;
  type Statement = keyof typeof SQL;
  const run = (statement: Statement, params: Record<string, unknown>) =>
    query(SQL[statement].text, SQL[statement].values({ now: now(), ...params }));
  const { move, refused } = movesOf(query, SQL, refusalStatements(databaseClock), now);
  const short = (reason: string) => reason.slice(0, 500);
  const { reserve, settleWithAnswer } = pathBatches({
    query,
    now,
    databaseClock,
    one: {
      reserve: (request) => reserveOne(run, request),
      settleWithAnswer: (item) => move("settleWithAnswer", settlementParams(item)),
    },
    refused: (item, at) =>
      refused("settleWithAnswer", {
        ...settlementParams(item),
        now: at,
        fromStages: TRANSITIONS.settleWithAnswer.from,
      }),
  });

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
    async lookup(query, network) {
      const { by, params } = lookupOf(query, network);
      const [row] = await run(by === "identifier" ? "lookupByIdentifier" : "lookupByTransaction", params);
      return row && paymentRecord(row);
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
    settlements: () => readSettlements((sql) => query(sql)),
    tasks: postgresTasks(database),
  };
}
