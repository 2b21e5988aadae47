/**
 * The PostgreSQL ledger's paid path, batched across concurrent requests (server/db/batch.ts): their reservations go
 * as one statement, and so do their settlements with an answer (each batch one transaction; each row keeps its own
 * condition from the table), as SQLite's group commit batches its writes
 * (docs/decisions/0004-group-commit-and-statement-batches.md). Only the batching is here: what one reservation or one
 * settlement does, alone or for an item a batch left, is the ledger's (postgres-ledger.ts).
 */
import { batched } from "../../../db/batch.js";
import type { Database } from "../../../db/database.js";
import { named } from "../../../db/named.js";
import { conditionOf } from "./conditions.js";
import { dialectOf, RESERVED_COLUMNS, UNFLUSHED } from "./postgres-sql.js";
import { TRANSITIONS } from "./stages.js";
import type { Attempt, Move, Reservation, ReservationRequest, SettledPayment, StoredAnswer } from "./store.js";

const MOVED: Move = { moved: true };

/** One settlement with its answer, as the paid path hands it over. */
export type Settlement = { attempt: Attempt; settlement: SettledPayment; answer: StoredAnswer };

// Many reservations in one statement; the keys come distinct and sorted, so that two instances' batches lock the
// unique index in one order and cannot deadlock.
const RESERVE_MANY = named(`INSERT INTO payments (${RESERVED_COLUMNS})
      SELECT key, key, network, payer, amount, endpoint, request_id, '${TRANSITIONS.reserve.to}', fingerprint, payload,
             deadline_at, expires_at, holder, transport, identifier, identifier, answer_until, :now, :now
      FROM unnest(:keys::text[], :networks::text[], :payers::text[], :amounts::bigint[], :endpoints::text[], :requestIds::text[],
                  :fingerprints::text[], :payloads::text[], :deadlines::bigint[], :expiries::bigint[], :holders::text[],
                  :transports::text[], :identifiers::text[], :answerUntils::bigint[])
           AS r(key, network, payer, amount, endpoint, request_id, fingerprint, payload, deadline_at, expires_at, holder, transport,
                identifier, answer_until),
           ${UNFLUSHED}
      ON CONFLICT DO NOTHING RETURNING id, reservation_key`);

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

export interface PathBatchOptions {
  query: Database["query"];
  now: () => number;
  databaseClock: boolean;
  /** The ledger's statements for one item: alone, for an item a batch left, and for each item of a batch that failed. */
  one: {
    reserve(request: ReservationRequest): Promise<Reservation>;
    settleWithAnswer(item: Settlement): Promise<Move>;
  };
  /** What refused a settlement a batch left unmoved, at the time `at` the batch was sent (the ledger's own read). */
  refused(item: Settlement, at: number): Promise<Move>;
}

/**
 * The paid path's two writes, batched: the reservation and the settlement with its answer. Two statements of each on
 * the wire keep one batch filling while the other runs; the pool's other connections serve the rest.
 */
export function pathBatches({ query, now, databaseClock, one, refused }: PathBatchOptions) {
  const settleMany = named(settleManyText(databaseClock));

  /** Fresh keys reserved in one statement, for the first request of each; a key it did not insert is left to `one`. */
  async function reserveMany(requests: ReservationRequest[]): Promise<(Reservation | undefined)[]> {
    const first = new Map<string, ReservationRequest>();
    for (const r of requests) if (!first.has(r.key)) first.set(r.key, r);
    const rows = [...first.values()].sort((a, b) => (a.key < b.key ? -1 : 1));
    const column = <K extends keyof ReservationRequest>(name: K) => rows.map((r) => r[name]);
    const inserted = await query(
      RESERVE_MANY.text,
      RESERVE_MANY.values({
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

  async function settleWithAnswers(items: Settlement[]): Promise<Move[]> {
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
    const rows = await query(plannedFor(settleMany.text, sorted.at(-1)?.attempt.entry ?? 1), settleMany.values(params));
    const settled = new Set(rows.map((row) => Number(row.id)));
    return Promise.all(items.map((i) => (settled.has(i.attempt.entry) ? MOVED : refused(i, params.now))));
  }

  const maxInFlight = 2;
  return {
    reserve: batched({ many: reserveMany, one: one.reserve, maxBatch: 64, maxInFlight }),
    settleWithAnswer: batched<Settlement, Move>({
      many: settleWithAnswers,
      one: one.settleWithAnswer,
      maxBatch: 64,
      maxInFlight,
    }),
  };
}
