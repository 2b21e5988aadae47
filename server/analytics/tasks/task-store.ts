/**
 * Where A2A tasks are kept (server/a2a/): in the ledger's own database, SQLite or PostgreSQL, so that any instance
 * of the service answers a task another created, and a task outlives a crash of the process that made it. A task
 * holds the request it offers (a skill and its arguments, fixed when the task starts: a payment on the task buys
 * exactly that call) and the task as last answered, for `GetTask`. The ledger, not the task, is where a payment's
 * truth is: a payment message repeated after a crash is run by the paid pipeline again, which finds its stored answer.
 *
 * One payment at a time per task: a payment message first claims the task for its payment (`claim`), so that two
 * different payments sent at once on one task cannot both be charged for its one answer. A claim lapses at its
 * `until` (the payment's deadline), so a claim left by a crash never locks the task for good.
 */

/** A task as the store keeps it. */
export interface StoredTask {
  /** The task's id (a random UUID), as A2A's `Task.id`. */
  id: string;
  contextId: string;
  /** The paid skill the task offers (an MCP tool's name), and its arguments as JSON text. */
  skill: string;
  arguments: string;
  /** A2A's task state as its JSON names it, e.g. `TASK_STATE_INPUT_REQUIRED`. */
  state: string;
  /** The task's JSON as last answered (A2A v1.0's `Task`), returned as it is by `GetTask`. */
  task: string;
  /** The payment that claimed the task (a digest of its payload), and until when the claim holds (epoch ms). */
  paymentRef?: string;
  claimedUntil?: number;
  createdAt: number;
  updatedAt: number;
  /** After this (epoch ms) the task is gone: `get` no longer finds it and `dropExpired` deletes it. */
  expiresAt: number;
}

export type NewTask = Omit<StoredTask, "paymentRef" | "claimedUntil" | "updatedAt">;

/** What a claim came to. */
export type Claim =
  /** The task is this payment's (a first claim, the same payment again, or a lapsed claim of another taken over). */
  | { kind: "claimed"; task: StoredTask }
  /** Another payment holds the task until `until` (epoch ms). */
  | { kind: "held"; until: number }
  /** The task is completed, under this payment or another (the answer it bought is on the task). */
  | { kind: "completed"; task: StoredTask }
  /** No such task, or it expired. */
  | { kind: "gone" };

/** The task as a move leaves it: its state and JSON, and how long it is kept. */
export interface TaskChange {
  state: string;
  task: string;
  expiresAt: number;
}

export interface TaskStore {
  create(task: NewTask): Promise<void>;
  /** The task, unless there is none or it expired at `now`. */
  get(id: string, now: number): Promise<StoredTask | undefined>;
  /**
   * Claims the task for the payment `paymentRef` until `until`: granted when no payment holds it, when this same
   * payment does (a retry), or when another's claim lapsed before `now`; a completed task is never claimed again.
   */
  claim(id: string, paymentRef: string, until: number, now: number): Promise<Claim>;
  /**
   * Writes the task as the claiming payment's outcome leaves it; `release` also ends the claim (nothing was charged).
   * Never once it is completed: the same payment sent twice at once has one message complete the task and the other
   * told it is in progress, and that later write would leave the task open to another payment's claim.
   */
  settle(id: string, paymentRef: string, change: TaskChange & { release: boolean }, now: number): Promise<boolean>;
  /**
   * Writes the task's state and JSON where no payment holds it (a refusal before any payment, a cancel); never a
   * completed task's, whose answer was bought (and which would otherwise be claimable again).
   */
  update(id: string, change: TaskChange, now: number): Promise<boolean>;
  /** Deletes the tasks expired at `now`; returns how many. */
  dropExpired(now: number): Promise<number>;
}

/** The terminal state a completed task is in: never claimed again. */
export const COMPLETED_STATE = "TASK_STATE_COMPLETED";

/**
 * What refuses `paymentRef`'s claim of `task` at `now` (undefined, expired, completed, or held by another payment's
 * live claim); undefined when the claim is granted. The rule every store's claim keeps (task-sql.ts's UPDATE).
 */
export function claimRefusal(task: StoredTask | undefined, paymentRef: string, now: number): Claim | undefined {
  if (!task || task.expiresAt < now) return { kind: "gone" };
  if (task.state === COMPLETED_STATE) return { kind: "completed", task };
  const { paymentRef: holder, claimedUntil } = task;
  if (holder !== undefined && holder !== paymentRef && claimedUntil !== undefined && claimedUntil >= now)
    return { kind: "held", until: claimedUntil };
  return undefined;
}
