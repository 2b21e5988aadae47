/**
 * The stages of a payment and every move between them, as data. Both ledger stores build each
 * transition's condition from this table (the stages it may leave and its guards, in the same
 * statement as the move: never a read followed by a write), the ledger contract suite walks it on
 * each store, and docs/payments.md draws it.
 *
 * Each stage is recorded before the step that has an effect outside the service: an answer is stored
 * at `settling` before money moves, or with `settled` in one commit when the settlement is the
 * ledger's own. `settled`, `not_charged` and `failed` are final; the two releases free the replay key,
 * so that the same payment can pay for the request again.
 */
export const STAGES = ["verified", "settling", "settled", "not_charged", "failed"] as const;
export type Stage = (typeof STAGES)[number];

/**
 * The stages a payment in progress is in: its key is held, a retry is told to come back, and past its deadline recovery
 * resolves it (the stages recovery's moves leave). Both stores' pending filter is `status IN` these.
 */
export const OPEN_STAGES = ["verified", "settling"] as const satisfies readonly Stage[];
export type OpenStage = (typeof OPEN_STAGES)[number];

/**
 * Who makes a move: the paid request itself; its retry in the background of a write the ledger could
 * not take then (it tries until the payment's own limit); recovery, on any instance.
 */
export type Actor = "request" | "retry" | "recovery";

/**
 * What a store checks besides the stage:
 * - `free key`: no unreleased payment holds the replay key (a UNIQUE column);
 * - `free identifier`: no payment that is open, or whose answer is kept, is bound to the payment's identifier (a UNIQUE
 *   column as well);
 * - `attempt`: the row is the attempt's own (its entry and the random holder token of its reservation);
 * - `holder`: found by key and holder token, for an attempt that never learned its entry;
 * - `entry`: the row recovery picked from the pending ones;
 * - `before deadline` / `past deadline`: the payment's deadline, against the writer's clock.
 */
export type Guard =
  | "free key"
  | "free identifier"
  | "attempt"
  | "holder"
  | "entry"
  | "before deadline"
  | "past deadline";

/**
 * Why a store refused a move, named as TigerBeetle names every refusal of a transfer. A store checks, in this order:
 * - `no such payment`: no payment has the entry (for `abandon`: none holds the key, as when the reservation never
 *   committed, or was released already);
 * - `attempt`: the entry is another attempt's (its token differs: a reservation lost with a database crash left its
 *   entry number to the next payment reserved);
 * - `holder`: the payment holding the key was reserved by another attempt (or by one older than the tokens);
 * - `stage`: the payment is not in a stage the move leaves (it moved on: settled, released, refused);
 * - `before deadline`: the move must come before the payment's deadline, which has passed (recovery may release it);
 * - `past deadline`: the move is recovery's, after the deadline, which has not passed (a request moved it in time, or
 *   recovery postponed it).
 * The identity first, then the stage, then the deadline: the first that fails names the refusal. The two guards of
 * the reservation are not among them (it returns what holds the key instead), nor `entry`: an entry no payment has is
 * `no such payment`.
 */
export type Refusal = Exclude<Guard, "free key" | "free identifier" | "entry"> | "stage" | "no such payment";

export interface Transition {
  /** The stages the move leaves; empty for the reservation, which makes the payment. */
  from: readonly Stage[];
  to: Stage;
  guards: readonly Guard[];
  by: readonly Actor[];
  /** What it means, as docs/payments.md says it. */
  means: string;
}

export const TRANSITIONS = {
  reserve: {
    from: [],
    to: "verified",
    guards: ["free key", "free identifier"],
    by: ["request"],
    means: "the payment verified; its replay key (and its identifier, if it has one) is held",
  },
  recordUncharged: {
    from: [],
    to: "not_charged",
    guards: [],
    by: ["request"],
    means: "a new payment under an identifier whose answer was bought already: recorded, never reserved nor settled",
  },
  beginSettling: {
    from: ["verified"],
    to: "settling",
    guards: ["attempt", "before deadline"],
    by: ["request"],
    means: "the answer is stored before an outside settlement (facilitator, chain) starts",
  },
  settleWithAnswer: {
    from: ["verified"],
    to: "settled",
    guards: ["attempt", "before deadline"],
    by: ["request"],
    means: "the ledger's own settlement: the answer and the split in the commit that settles",
  },
  confirmSettlement: {
    from: ["settling"],
    to: "settled",
    guards: ["attempt"],
    by: ["request"],
    means: "the backend reported the money moved; the split is written",
  },
  release: {
    from: ["verified", "settling"],
    to: "not_charged",
    guards: ["attempt"],
    by: ["request", "retry"],
    means: "no answer can be delivered (it failed, or the ledger was unreachable before any money moved)",
  },
  refuse: {
    from: ["verified", "settling"],
    to: "failed",
    guards: ["attempt"],
    by: ["request", "retry"],
    means: "the settlement refused the payment; nothing moved",
  },
  abandon: {
    from: ["verified"],
    to: "not_charged",
    guards: ["holder"],
    by: ["retry"],
    means: "the reply to the reservation was lost, so the attempt never learned its entry",
  },
  expire: {
    from: ["verified"],
    to: "not_charged",
    guards: ["entry", "past deadline"],
    by: ["recovery"],
    means: "no answer was ready by the deadline (the process stopped, the request gave up)",
  },
  confirmOnChain: {
    from: ["settling"],
    to: "settled",
    guards: ["entry", "past deadline"],
    by: ["recovery"],
    means: "the chain shows the money moved; the stored answer serves the retry",
  },
  voidOnChain: {
    from: ["settling"],
    to: "not_charged",
    guards: ["entry", "past deadline"],
    by: ["recovery"],
    means: "the chain shows the money never moved, and never can",
  },
  postpone: {
    from: ["settling"],
    to: "settling",
    guards: ["entry", "past deadline"],
    by: ["recovery"],
    means: "the outcome is still open on the chain; looked at again later",
  },
} as const satisfies Record<string, Transition>;

export type TransitionName = keyof typeof TRANSITIONS;

/** The transitions that move a payment already in the ledger (the other two make one). */
export type MoveName = Exclude<TransitionName, "reserve" | "recordUncharged">;

/** Every move, in the table's order: the transitions that leave a stage. */
export const MOVES = (Object.keys(TRANSITIONS) as TransitionName[]).filter(
  (name): name is MoveName => TRANSITIONS[name].from.length > 0,
);

/** What the ledger's `recovery` column records of recovery's resolutions (`npm run ledger` groups by it). */
export const RECOVERY_RECORDS = {
  expire: "released: no answer by its deadline",
  confirmOnChain: "settled: confirmed on chain",
  voidOnChain: "released: the money never moved",
} as const satisfies Partial<Record<TransitionName, string>>;

/** Whether `transition` frees the payment's replay key (a release: the payment may pay for the request again). */
export const freesKey = (transition: TransitionName): boolean => {
  const to: Stage = TRANSITIONS[transition].to;
  return to === "not_charged" || to === "failed";
};
