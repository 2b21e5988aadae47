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
  type Refusal,
  type Stage,
  TRANSITIONS,
  type TransitionName,
} from "./stages.js";

/** The guards that name the row a move is for: each move has one of them (the table). */
const IDENTITIES = ["attempt", "holder", "entry"] as const satisfies readonly Guard[];
type Identity = (typeof IDENTITIES)[number];
const isIdentity = (guard: Guard): guard is Identity => (IDENTITIES as readonly Guard[]).includes(guard);

export interface Dialect {
  /** The stage condition: the payment is in one of `from`. */
  stages(from: readonly Stage[]): string;
  /** Each guard's condition, with the store's named parameters (an empty string: checked otherwise). */
  guards: Record<Guard, string>;
  /** How the row an identifying guard names is found, whatever else that guard checks (the attempt's token). */
  finds: Record<Identity, string>;
}

export function conditionOf(transition: TransitionName, dialect: Dialect): string {
  const { from, guards } = TRANSITIONS[transition];
  const parts = [from.length ? dialect.stages(from) : "", ...guards.map((guard: Guard) => dialect.guards[guard])];
  return parts.filter(Boolean).join(" AND ");
}

/**
 * The read that names why a move changed no row (`Refusal`, stages.ts): the row its identifying guard names (none is
 * `no such payment`), with its stage and the first of the move's checks that fails there, in the table's precedence:
 * the identity, the stage, the deadline. It only names a refusal the move's own statement already decided, so it
 * races with nothing: it may see the row after a later move (on SQLite never: it runs in the move's transaction).
 * Every check passing then can only mean that another writer moved the row into a stage the move leaves (an identity
 * never changes, and a deadline only moves away from the side a refused move needed): the refusal was the stage's.
 */
export function refusalOf(transition: MoveName, dialect: Dialect): string {
  const { from, guards } = TRANSITIONS[transition];
  const identity = (guards as readonly Guard[]).find(isIdentity);
  if (!identity) throw new Error(`the table names no row for ${transition}`);
  const checks: [Refusal, string][] = [
    ...(identity === "entry" ? [] : [[identity, dialect.guards[identity]] as [Refusal, string]]),
    ["stage", dialect.stages(from)],
    ...(guards as readonly Guard[])
      .filter((guard): guard is Refusal & Guard => !isIdentity(guard) && dialect.guards[guard] !== "")
      .map((guard): [Refusal, string] => [guard, dialect.guards[guard]]),
  ];
  const cases = checks.map(([refusal, check]) => `WHEN NOT (${check}) THEN '${refusal}'`).join(" ");
  return `SELECT status, CASE ${cases} ELSE 'stage' END AS refused_by FROM payments WHERE ${dialect.finds[identity]}`;
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
