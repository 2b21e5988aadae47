/**
 * The ledger on SQLite (libsql, synchronous driver: docs/decisions/0006-libsql-for-sqlite.md; WAL so
 * that several processes can share the file). A payment's key is reserved by a UNIQUE column that a
 * release sets to NULL, which keeps the row for the record and lets the same authorization be
 * retried; every transition of stages.ts is one conditional UPDATE whose condition comes from the
 * table, so concurrent requests and recovery cannot both move a payment. Writes are group-committed
 * (server/db/group-commit.ts): they share the transaction of their turn of the event loop, each undone
 * alone if it throws, and each is answered once that transaction committed.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "libsql";
import { checkpointOffThread } from "../../../db/checkpointer.js";
import { groupCommit } from "../../../db/group-commit.js";
import { preparedNamed } from "../../../db/named.js";
import { isSqliteBusy, StoreUnavailable } from "../../../db/unavailable.js";
import { useWal } from "../../../db/wal.js";
import { sqliteTasks } from "../../tasks/sqlite-tasks.js";
import type { TaskStore } from "../../tasks/task-store.js";
import { assignmentsOf, conditionOf, type Dialect, PENDING, refusalOf } from "./conditions.js";
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
import { migrate } from "./sqlite-schema.js";
import { freesKey, MOVES, type MoveName, RECOVERY_RECORDS, TRANSITIONS, type TransitionName } from "./stages.js";
import type {
  Attempt,
  LedgerStore,
  Move,
  Reservation,
  ReservationRequest,
  SettledPayment,
  StoredAnswer,
  UnchargedPayment,
} from "./store.js";

const SQLITE: Dialect = {
  stages: (from) => `status IN (${from.map((stage) => `'${stage}'`).join(", ")})`,
  guards: {
    "free key": "",
    "free identifier": "",
    attempt: "id = :entry AND holder = :holder",
    holder: "reservation_key = :key AND holder = :holder AND holder <> ''",
    entry: "id = :entry",
    "before deadline": "deadline_at > :now",
    "past deadline": "deadline_at <= :now",
  },
  finds: { attempt: "id = :entry", holder: "reservation_key = :key", entry: "id = :entry" },
};
const where = (transition: TransitionName) => conditionOf(transition, SQLITE);

/** Every statement of the ledger, prepared once; each move's UPDATE names its condition's parameters. */
function statementsOf(db: Database.Database) {
  const moveStatement = (transition: MoveName) =>
    preparedNamed(
      db,
      `UPDATE payments SET ${assignmentsOf(transition)} WHERE ${where(transition)} RETURNING id, MAX(expires_at, answer_until) AS expires_at`,
    );
  const answered = `SELECT p.payment_key, p.status, p.fingerprint, p.expires_at, p.deadline_at, p.payer, p.network, p.amount, p.settlement_tx,
                           p.simulated, a.status AS answer_status, a.body AS answer_body, a.expires_at AS answer_until
                    FROM payments p LEFT JOIN answers a ON a.payment_id = p.id`;
  return {
    reserve: preparedNamed(
      db,
      `INSERT INTO payments (payment_key, reservation_key, network, payer, amount, endpoint, request_id, status, fingerprint, payload,
                             deadline_at, expires_at, holder, transport, payment_identifier, identifier_key, answer_until,
                             created_at, updated_at)
       VALUES (:key, :key, :network, :payer, :amount, :endpoint, :requestId, '${TRANSITIONS.reserve.to}', :fingerprint, :payload,
               :deadlineAt, :expiresAt, :holder, :transport, :identifier, :identifier, :keepAnswerUntil, :now, :now)
       ON CONFLICT DO NOTHING`,
    ),
    recordUncharged: preparedNamed(
      db,
      `INSERT INTO payments (payment_key, network, payer, amount, endpoint, request_id, status, fingerprint, payload, expires_at,
                             transport, payment_identifier, reason, created_at, updated_at)
       VALUES (:key, :network, :payer, :amount, :endpoint, :requestId, '${TRANSITIONS.recordUncharged.to}', :fingerprint, :payload,
               :expiresAt, :transport, :identifier, :reason, :now, :now)`,
    ),
    held: db.prepare(`${answered} WHERE p.reservation_key = ?`),
    bound: db.prepare(`${answered} WHERE p.identifier_key = ?`),
    lookup: {
      identifier: preparedNamed(db, lookupText("identifier")),
      transaction: preparedNamed(db, lookupText("transaction")),
    },
    moves: Object.fromEntries(MOVES.map((transition) => [transition, moveStatement(transition)])) as Record<
      MoveName,
      ReturnType<typeof moveStatement>
    >,
    /** Each move's refusal, read in the move's own transaction when it changed no row (conditions.ts). */
    refusals: Object.fromEntries(
      MOVES.map((transition) => [transition, preparedNamed(db, refusalOf(transition, SQLITE))]),
    ) as Record<MoveName, ReturnType<typeof preparedNamed>>,
    storeAnswer: db.prepare("INSERT INTO answers (payment_id, status, body, expires_at) VALUES (?, ?, ?, ?)"),
    split: db.prepare(
      "INSERT INTO splits (payment_id, account, address, amount) VALUES (?, 'service', ?, ?), (?, 'treasury', ?, ?)",
    ),
    dropAnswer: db.prepare("DELETE FROM answers WHERE payment_id = ?"),
    unbindExpired: db.prepare(
      "UPDATE payments SET identifier_key = NULL WHERE id IN (SELECT payment_id FROM answers WHERE expires_at < ?) AND identifier_key IS NOT NULL",
    ),
    dropExpired: db.prepare("DELETE FROM answers WHERE expires_at < ?"),
    probe: db.prepare("SELECT MAX(version) AS v FROM schema_version"),
  };
}

type Statements = ReturnType<typeof statementsOf>;
type Moved = { id: number; expires_at: number } | undefined;
const MOVED: Move = { moved: true };

/** What a move writes besides its row: the answer it stores, the settlement whose split it records. */
interface Effects {
  answer?: StoredAnswer;
  settlement?: SettledPayment;
}

/** Each transition as one synchronous write (its row moved, and what it stores or drops with it), for one group commit. */
function transitionsOf(sql: Statements, now: () => number) {
  /**
   * One move of the table: the row's UPDATE, then a release's answer dropped, a settlement's split, the answer stored;
   * or, when it moved nothing, what refused it, read in the same transaction.
   */
  function move(transition: MoveName, params: Record<string, unknown>, { answer, settlement }: Effects = {}): Move {
    const at = { ...params, now: now() };
    const row = sql.moves[transition].get(at) as Moved;
    if (!row) return refusal(sql.refusals[transition].get(at) as Row | undefined);
    if (freesKey(transition)) sql.dropAnswer.run(row.id);
    if (settlement) {
      const { service, treasury } = settlement.split;
      sql.split.run(row.id, service.address, service.amount, row.id, treasury.address, treasury.amount);
    }
    if (answer) sql.storeAnswer.run(row.id, answer.status, answer.body, row.expires_at);
    return MOVED;
  }
  const short = (reason: string) => reason.slice(0, 500);
  const settledParams = (s: SettledPayment) => ({ transaction: s.transaction, simulated: s.simulated ? 1 : 0 });
  return {
    reserve(r: ReservationRequest): Reservation {
      const identifier = r.identifier ?? null;
      const inserted = sql.reserve.run({ ...r, identifier, keepAnswerUntil: r.keepAnswerUntil ?? 0, now: now() });
      if (inserted.changes === 1) return { reserved: true, entry: Number(inserted.lastInsertRowid) };
      // Same transaction: the holder seen is the one that made the insert conflict, by its key or by its identifier.
      const byKey = sql.held.get(r.key) as Row | undefined;
      if (byKey) return { reserved: false, existing: existingPayment(byKey), by: "key" };
      return { reserved: false, existing: existingPayment(sql.bound.get(identifier) as Row), by: "identifier" };
    },
    recordUncharged(u: UnchargedPayment): void {
      sql.recordUncharged.run({ ...u, reason: u.reason.slice(0, 500), now: now() });
    },
    dropExpired(at: number): number {
      sql.unbindExpired.run(at);
      return sql.dropExpired.run(at).changes;
    },
    beginSettling: ({ entry, holder }: Attempt, answer: StoredAnswer, settleBy: number) =>
      move("beginSettling", { entry, holder, deadline: settleBy }, { answer }),
    settleWithAnswer: ({ entry, holder }: Attempt, s: SettledPayment, answer: StoredAnswer) =>
      move("settleWithAnswer", { entry, holder, ...settledParams(s) }, { answer, settlement: s }),
    confirmSettlement: ({ entry, holder }: Attempt, s: SettledPayment) =>
      move("confirmSettlement", { entry, holder, ...settledParams(s) }, { settlement: s }),
    release: ({ entry, holder }: Attempt, reason: string) => move("release", { entry, holder, reason: short(reason) }),
    refuse: ({ entry, holder }: Attempt, reason: string) => move("refuse", { entry, holder, reason: short(reason) }),
    abandon: (key: string, holder: string, reason: string) => move("abandon", { key, holder, reason: short(reason) }),
    expire: (entry: number) =>
      move("expire", { entry, reason: RECOVERY_RECORDS.expire, recovery: RECOVERY_RECORDS.expire }),
    confirmOnChain: (entry: number, s: SettledPayment) =>
      move(
        "confirmOnChain",
        { entry, ...settledParams(s), recovery: RECOVERY_RECORDS.confirmOnChain },
        { settlement: s },
      ),
    voidOnChain: (entry: number, reason: string) =>
      move("voidOnChain", { entry, reason: short(reason), recovery: RECOVERY_RECORDS.voidOnChain }),
    postpone: (entry: number, retryAt: number, why: string) =>
      move("postpone", { entry, deadline: retryAt, recovery: why }),
  };
}

export interface SqliteLedgerOptions {
  now?: () => number;
  /** `normal`: commits survive a process crash; `full`: also an OS crash or power loss (one fsync per commit). */
  synchronous?: "normal" | "full";
  /** Told when the WAL's checkpoints fail or fall back to the connection (checkpointer.ts). */
  warn?: (message: string) => void;
}

const TOTALS = totalsQueries("");

/** The ledger in `file`, with the A2A task store on its connection (`tasks`: its writes commit with the ledger's). */
export function openSqliteLedger(
  file: string,
  { now = Date.now, synchronous = "normal", warn = () => {} }: SqliteLedgerOptions = {},
): LedgerStore & { tasks: TaskStore } {
  if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  useWal(db);
  // WAL with synchronous=NORMAL: every commit is atomic and survives a crash of the process; only an
  // OS crash or power loss can drop the last commits (the database stays consistent).
  db.pragma(`synchronous = ${synchronous}`);
  migrate(db);
  const checkpoints = file === ":memory:" ? undefined : checkpointOffThread(db, file, { synchronous, onError: warn });
  const sql = statementsOf(db);
  const tx = transitionsOf(sql, now);
  // Every write commits with those of concurrent requests: one commit per turn of the event loop. Recovery's writes too:
  // a lock then fails the BEGIN, before any statement starts (one failed part-way would leave every later commit refused).
  const inGroup = groupCommit(db);
  // A file another process keeps locked is the ledger out of reach (503, the payment released once it answers again).
  const committed = <T>(work: () => T): Promise<T> =>
    inGroup(work).catch((error: unknown) => {
      throw isSqliteBusy(error)
        ? new StoreUnavailable("ledger (its file is locked by another process)", { cause: error })
        : error;
    });
  const read = (text: string, ...params: unknown[]) =>
    db
      .prepare(text)
      .safeIntegers(true)
      .all(...params) as Row[];

  return {
    reserve: (request) => committed(() => tx.reserve(request)),
    async held(key) {
      const row = sql.held.get(key) as Row | undefined;
      return row && existingPayment(row);
    },
    async bound(identifier) {
      const row = sql.bound.get(identifier) as Row | undefined;
      return row && existingPayment(row);
    },
    recordUncharged: (payment) => committed(() => tx.recordUncharged(payment)),
    beginSettling: (attempt, answer, settleBy) => committed(() => tx.beginSettling(attempt, answer, settleBy)),
    settleWithAnswer: (attempt, settlement, answer) =>
      committed(() => tx.settleWithAnswer(attempt, settlement, answer)),
    confirmSettlement: (attempt, settlement) => committed(() => tx.confirmSettlement(attempt, settlement)),
    release: (attempt, reason) => committed(() => tx.release(attempt, reason)),
    refuse: (attempt, reason) => committed(() => tx.refuse(attempt, reason)),
    abandon: (key, holder, reason) => committed(() => tx.abandon(key, holder, reason)),
    expire: (entry) => committed(() => tx.expire(entry)),
    confirmOnChain: (entry, settlement) => committed(() => tx.confirmOnChain(entry, settlement)),
    voidOnChain: (entry, reason) => committed(() => tx.voidOnChain(entry, reason)),
    postpone: (entry, retryAt, why) => committed(() => tx.postpone(entry, retryAt, why)),
    async pending(at, limit) {
      const text = `SELECT id, payment_key, status, network, payer, amount, payload, expires_at, created_at FROM payments
                    WHERE ${PENDING} AND deadline_at <= ? ORDER BY deadline_at LIMIT ?`;
      return read(text, at, limit).map(pendingPayment);
    },
    dropExpiredAnswers: (at) => committed(() => tx.dropExpired(at)),
    async lookup(query, network) {
      const { by, params } = lookupOf(query, network);
      const row = sql.lookup[by].get(params) as Row | undefined;
      return row && paymentRecord(row);
    },
    async rows() {
      const text =
        "SELECT p.*, a.payment_id IS NOT NULL AS has_answer FROM payments p LEFT JOIN answers a ON a.payment_id = p.id ORDER BY p.id";
      return read(text).map(ledgerRow);
    },
    totals: async () => ledgerTotals(TOTALS, async (text) => read(text)),
    // A synchronous read of the file: nothing to abort, and it holds no lock a writer waits for.
    async ping() {
      sql.probe.get();
    },
    async close() {
      await checkpoints?.stop();
      db.close();
    },
    settlements: () => readSettlements(async (text) => read(text)),
    tasks: sqliteTasks(db, committed),
  };
}
