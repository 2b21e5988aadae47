/**
 * The task store's statements and rows, the same text on SQLite and PostgreSQL (named parameters, server/db/named.ts).
 * Every rule of task-store.ts is a statement's condition, so that two instances, or two payments at once, cannot both
 * get their way: a claim is one conditional UPDATE, granted only to a free, lapsed or same-payment claim of a live task
 * that is not completed; a settlement only to the payment holding the claim, of a task not completed yet; an update
 * only where no claim is live.
 * A task is live while `now <= expires_at`; a claim while `now <= claimed_until`.
 */
import type { Row } from "../../db/database.js";
import { type Claim, COMPLETED_STATE, claimRefusal, type StoredTask } from "./task-store.js";

const COLUMNS =
  "id, context_id, skill, arguments, state, task, payment_ref, claimed_until, created_at, updated_at, expires_at";
const LIVE = "id = :id AND expires_at >= :now";
const NOT_COMPLETED = `state <> '${COMPLETED_STATE}'`;
const CHANGE = "state = :state, task = :task, expires_at = :expiresAt, updated_at = :now";

export const TASK_SQL = {
  create: `INSERT INTO agent_tasks (id, context_id, skill, arguments, state, task, created_at, updated_at, expires_at)
           VALUES (:id, :contextId, :skill, :arguments, :state, :task, :createdAt, :createdAt, :expiresAt)`,
  get: `SELECT ${COLUMNS} FROM agent_tasks WHERE ${LIVE}`,
  /** The row as it is, expired or not: what refused a claim. */
  find: `SELECT ${COLUMNS} FROM agent_tasks WHERE id = :id`,
  claim: `UPDATE agent_tasks SET payment_ref = :paymentRef, claimed_until = :until, updated_at = :now
          WHERE ${LIVE} AND ${NOT_COMPLETED}
            AND (payment_ref IS NULL OR payment_ref = :paymentRef OR claimed_until < :now)
          RETURNING ${COLUMNS}`,
  settle: `UPDATE agent_tasks SET ${CHANGE}
           WHERE id = :id AND payment_ref = :paymentRef AND ${NOT_COMPLETED} RETURNING id`,
  settleAndRelease: `UPDATE agent_tasks SET ${CHANGE}, payment_ref = NULL, claimed_until = NULL
                     WHERE id = :id AND payment_ref = :paymentRef AND ${NOT_COMPLETED} RETURNING id`,
  update: `UPDATE agent_tasks SET ${CHANGE}
           WHERE ${LIVE} AND ${NOT_COMPLETED} AND (payment_ref IS NULL OR claimed_until < :now) RETURNING id`,
  dropExpired: "DELETE FROM agent_tasks WHERE expires_at < :now",
};

/** A row as the store answers it (PostgreSQL's BIGINTs come as strings); a claim's payment and time, or neither. */
export function storedTask(row: Row): StoredTask {
  return {
    id: String(row.id),
    contextId: String(row.context_id),
    skill: String(row.skill),
    arguments: String(row.arguments),
    state: String(row.state),
    task: String(row.task),
    ...(row.payment_ref != null && { paymentRef: String(row.payment_ref), claimedUntil: Number(row.claimed_until) }),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    expiresAt: Number(row.expires_at),
  };
}

/**
 * What refused a claim, from the task's row read after the UPDATE changed none: gone, completed, or held by another
 * payment's live claim (task-store.ts's `claimRefusal`). Undefined when the row read would grant the claim: it changed
 * between the two statements (possible on PostgreSQL only), and the claim is to be tried again.
 */
export const refusedClaim = (row: Row | undefined, paymentRef: string, now: number): Claim | undefined =>
  claimRefusal(row && storedTask(row), paymentRef, now);
