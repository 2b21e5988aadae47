/**
 * The PostgreSQL ledger's SQL that its statements for one payment (postgres-ledger.ts) and its batches
 * (postgres-batches.ts) share: the table's conditions in PostgreSQL, the reservation's columns and its unflushed commit.
 */
import { DATABASE_NOW_MS } from "../../../db/clock-skew.js";
import type { Dialect } from "./conditions.js";

/**
 * A reservation's transaction commits without waiting for its WAL flush (`synchronous_commit` off for that transaction
 * alone): nothing outside the database acts on a reservation before the payment's next commit, which waits for the
 * flush of the whole WAL before it, the reservation's included. One lost with a crash of the database is a payment
 * neither served nor charged; its entry number may go to the next payment reserved, which the later writes' attempt
 * condition (`holder`) keeps the first request from moving (docs/decisions/0003-unflushed-reservations-on-postgresql.md).
 */
export const UNFLUSHED = "(SELECT set_config('synchronous_commit', 'off', true)) AS unflushed";

export const RESERVED_COLUMNS = `payment_key, reservation_key, network, payer, amount, endpoint, request_id, status, fingerprint, payload,
                          deadline_at, expires_at, holder, transport, payment_identifier, identifier_key, answer_until,
                          created_at, updated_at`;

/**
 * The table's conditions in PostgreSQL. The stage is a parameter, so that no plan of a statement can read the pending
 * index (with constants, the planner can prove that index's condition, and chose it): that index keeps an entry for
 * every payment settled since the last vacuum, and a bitmap scan reads them all. `attempt`: how the statement names the
 * attempt (a batch takes it from its input rows). With the database's clock, a deadline is checked at the time the
 * write runs as well as the time it was sent.
 */
export const dialectOf = (attempt: string, databaseClock: boolean): Dialect => ({
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
  finds: { attempt: "id = :entry", holder: "reservation_key = :key", entry: "id = :entry" },
});
