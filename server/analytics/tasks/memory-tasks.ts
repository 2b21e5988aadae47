/**
 * The task store in memory, for one process that keeps no ledger file (the mock): the rules of task-sql.ts's
 * statements, in code. Every move is synchronous, so a claim and its refusal see one state of the task, as one
 * statement does. Tasks are copied in and out: a caller never holds the store's own object.
 */
import { COMPLETED_STATE, claimRefusal, type StoredTask, type TaskChange, type TaskStore } from "./task-store.js";

export function memoryTasks(): TaskStore {
  const kept = new Map<string, StoredTask>();
  const live = (id: string, now: number) => {
    const task = kept.get(id);
    return task && task.expiresAt >= now ? task : undefined;
  };
  /** `task` as `change` leaves it at `now`; `release` also ends its claim. */
  const write = (task: StoredTask, change: TaskChange, now: number, release = false) => {
    const { paymentRef: _ref, claimedUntil: _until, ...unclaimed } = task;
    kept.set(task.id, { ...(release ? unclaimed : task), ...change, updatedAt: now });
    return true;
  };
  return {
    async create(task) {
      if (kept.has(task.id)) throw new Error(`task ${task.id} exists already`);
      kept.set(task.id, { ...task, updatedAt: task.createdAt });
    },
    async get(id, now) {
      const task = live(id, now);
      return task && { ...task };
    },
    async claim(id, paymentRef, until, now) {
      const task = kept.get(id);
      const refused = claimRefusal(task && { ...task }, paymentRef, now);
      if (refused || !task) return refused ?? { kind: "gone" };
      const claimed = { ...task, paymentRef, claimedUntil: until, updatedAt: now };
      kept.set(id, claimed);
      return { kind: "claimed", task: { ...claimed } };
    },
    async settle(id, paymentRef, { release, ...change }, now) {
      const task = kept.get(id);
      if (!task || task.paymentRef !== paymentRef || task.state === COMPLETED_STATE) return false;
      return write(task, change, now, release);
    },
    async update(id, change, now) {
      const task = live(id, now);
      if (!task || task.state === COMPLETED_STATE) return false;
      if (task.claimedUntil !== undefined && task.claimedUntil >= now) return false;
      return write(task, change, now);
    },
    async dropExpired(now) {
      let dropped = 0;
      for (const [id, task] of kept)
        if (task.expiresAt < now) {
          kept.delete(id);
          dropped++;
        }
      return dropped;
    },
  };
}
