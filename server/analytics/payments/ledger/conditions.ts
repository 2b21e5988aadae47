/**
 * A transition in a store's SQL, from the table of stages.ts: its condition (the stages it leaves and its guards, in
 * the store's dialect) and what it sets (its stage, and what that stage means for the row). Each store writes the rest
 * of the move itself (what it stores or drops with it) and takes these from here, so that no store can check less, or
 * move a payment elsewhere, than the table says.
 */
import {
  freesKey,
  type Guard,
  type MoveName,
  OPEN_STAGES,
  type Stage,
  TRANSITIONS,
  type TransitionName,
} from "./stages.js";

export interface Dialect {
  /** The stage condition: the payment is in one of `from`. */
  stages(from: readonly Stage[]): string;
  /** Each guard's condition, with the store's named parameters (an empty string: checked otherwise). */
  guards: Record<Guard, string>;
}

export function conditionOf(transition: TransitionName, dialect: Dialect): string {
  const { from, guards } = TRANSITIONS[transition];
  const parts = [from.length ? dialect.stages(from) : "", ...guards.map((guard: Guard) => dialect.guards[guard])];
  return parts.filter(Boolean).join(" AND ");
}

/**
 * What a move sets, in either store's SQL: the stage it moves to; for a release (`freesKey`), the key and identifier
 * freed and the reason; for a settlement, its transaction; for recovery's moves, what recovery did; for a move to
 * `settling`, the time recovery may look at it next (`:deadline`).
 */
export function assignmentsOf(transition: MoveName): string {
  const { to, by } = TRANSITIONS[transition];
  return [
    `status = '${to}'`,
    freesKey(transition) ? "reservation_key = NULL, identifier_key = NULL, reason = :reason" : "",
    to === "settled" ? "settlement_tx = :transaction, simulated = :simulated" : "",
    to === "settling" ? "deadline_at = :deadline" : "",
    (by as readonly string[]).includes("recovery") ? "recovery = :recovery" : "",
    "updated_at = :now",
  ]
    .filter(Boolean)
    .join(", ");
}

/**
 * The payments recovery looks at: those in an open stage. The same text as the condition of both stores' partial index
 * `payments_pending` (their schemas), so that the planner can prove the query's rows are in it.
 */
export const PENDING = `status IN (${OPEN_STAGES.map((stage) => `'${stage}'`).join(", ")})`;
