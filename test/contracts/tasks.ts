/**
 * The A2A task store's contract, run against every store (server/analytics/tasks/task-store.ts): tasks kept and
 * hidden once expired, one payment's claim at a time, settlements only by the claiming payment, updates only where no
 * claim is live, a completed task never claimed again, expired tasks deleted. Times are the callers' (epoch ms).
 */
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { COMPLETED_STATE, type NewTask, type TaskStore } from "../../server/analytics/tasks/task-store.js";

export interface TaskFixture {
  tasks: TaskStore;
  close(): Promise<void>;
}

const T0 = 1_800_000_000_000;
const PAYING = "TASK_STATE_INPUT_REQUIRED";

/** A new task created at `at`, kept for an hour. */
export const newTask = (at = T0, overrides: Partial<NewTask> = {}): NewTask => ({
  id: randomUUID(),
  contextId: randomUUID(),
  skill: "defi_tvl",
  arguments: '{"chain":"base"}',
  state: PAYING,
  task: `{"status":{"state":"${PAYING}"}}`,
  createdAt: at,
  expiresAt: at + 3_600_000,
  ...overrides,
});

/** A move's change: the state, a JSON naming it, and the task kept a day from T0. */
const change = (state: string) => ({ state, task: `{"status":{"state":"${state}"}}`, expiresAt: T0 + 86_400_000 });

export function describeTaskContract(name: string, open: () => Promise<TaskFixture>): void {
  describe(`${name} task store`, () => {
    const opened: TaskFixture[] = [];
    /** An empty store with one task in it, created at T0. */
    const withTask = async (overrides: Partial<NewTask> = {}) => {
      const fixture = await open();
      opened.push(fixture);
      const task = newTask(T0, overrides);
      await fixture.tasks.create(task);
      return { tasks: fixture.tasks, task };
    };
    afterEach(async () => {
      for (const fixture of opened.splice(0)) await fixture.close();
    });

    describeKeeping(withTask);
    describeClaims(withTask);
    describeWrites(withTask);
  });
}

type WithTask = (overrides?: Partial<NewTask>) => Promise<{ tasks: TaskStore; task: NewTask }>;

function describeKeeping(withTask: WithTask): void {
  it("gives a task back as it was created, unclaimed", async () => {
    const { tasks, task } = await withTask();
    const stored = await tasks.get(task.id, T0 + 1);
    expect(stored).toEqual({ ...task, updatedAt: task.createdAt });
    expect(stored?.paymentRef).toBeUndefined();
    expect(stored?.claimedUntil).toBeUndefined();
    expect(await tasks.get(randomUUID(), T0)).toBeUndefined();
  });

  it("hides a task once it expired: found at its expiry, not after", async () => {
    const { tasks, task } = await withTask();
    expect((await tasks.get(task.id, task.expiresAt))?.id).toBe(task.id);
    expect(await tasks.get(task.id, task.expiresAt + 1)).toBeUndefined();
  });

  it("refuses a second task with the same id", async () => {
    const { tasks, task } = await withTask();
    await expect(tasks.create({ ...task, skill: "other" })).rejects.toThrow();
    expect((await tasks.get(task.id, T0))?.skill).toBe(task.skill);
  });

  it("deletes the expired tasks and counts them, keeping the others", async () => {
    const { tasks, task } = await withTask({ expiresAt: T0 + 1_000 });
    const later = newTask(T0, { expiresAt: T0 + 2_000 });
    const latest = newTask(T0, { expiresAt: T0 + 3_000 });
    await tasks.create(later);
    await tasks.create(latest);
    expect(await tasks.dropExpired(T0 + 1_000)).toBe(0);
    expect(await tasks.dropExpired(T0 + 2_500)).toBe(2);
    expect(await tasks.dropExpired(T0 + 2_500)).toBe(0);
    // deleted, not only hidden: not found even at a time it was live
    expect(await tasks.get(task.id, T0)).toBeUndefined();
    expect(await tasks.get(later.id, T0)).toBeUndefined();
    expect((await tasks.get(latest.id, T0))?.id).toBe(latest.id);
  });
}

function describeClaims(withTask: WithTask): void {
  it("grants a first claim, and the same payment's again (a retry), with its new time", async () => {
    const { tasks, task } = await withTask();
    const first = await tasks.claim(task.id, "pay-a", T0 + 30_000, T0 + 10);
    expect(first).toEqual({
      kind: "claimed",
      task: { ...task, paymentRef: "pay-a", claimedUntil: T0 + 30_000, updatedAt: T0 + 10 },
    });
    const again = await tasks.claim(task.id, "pay-a", T0 + 40_000, T0 + 20);
    expect(again).toMatchObject({ kind: "claimed", task: { paymentRef: "pay-a", claimedUntil: T0 + 40_000 } });
    expect(await tasks.get(task.id, T0 + 20)).toMatchObject({ paymentRef: "pay-a", claimedUntil: T0 + 40_000 });
  });

  it("refuses another payment while a claim holds, up to its time, naming until when", async () => {
    const { tasks, task } = await withTask();
    await tasks.claim(task.id, "pay-a", T0 + 30_000, T0);
    expect(await tasks.claim(task.id, "pay-b", T0 + 60_000, T0 + 1)).toEqual({ kind: "held", until: T0 + 30_000 });
    expect(await tasks.claim(task.id, "pay-b", T0 + 60_000, T0 + 30_000)).toEqual({ kind: "held", until: T0 + 30_000 });
    expect(await tasks.get(task.id, T0 + 1)).toMatchObject({ paymentRef: "pay-a" });
  });

  it("lets another payment take over a lapsed claim, which then holds against the first", async () => {
    const { tasks, task } = await withTask();
    await tasks.claim(task.id, "pay-a", T0 + 30_000, T0);
    const taken = await tasks.claim(task.id, "pay-b", T0 + 90_000, T0 + 30_001);
    expect(taken).toMatchObject({ kind: "claimed", task: { paymentRef: "pay-b", claimedUntil: T0 + 90_000 } });
    expect(await tasks.claim(task.id, "pay-a", T0 + 120_000, T0 + 30_002)).toEqual({
      kind: "held",
      until: T0 + 90_000,
    });
    // the first payment's outcome no longer writes the task
    expect(await tasks.settle(task.id, "pay-a", { ...change("TASK_STATE_FAILED"), release: true }, T0 + 30_003)).toBe(
      false,
    );
  });

  it("never claims a completed task again, for another payment or the one that completed it", async () => {
    const { tasks, task } = await withTask();
    await tasks.claim(task.id, "pay-a", T0 + 30_000, T0);
    expect(await tasks.settle(task.id, "pay-a", { ...change(COMPLETED_STATE), release: false }, T0 + 5)).toBe(true);
    const completed = { kind: "completed", task: expect.objectContaining({ id: task.id, state: COMPLETED_STATE }) };
    expect(await tasks.claim(task.id, "pay-b", T0 + 90_000, T0 + 60_000)).toEqual(completed);
    expect(await tasks.claim(task.id, "pay-a", T0 + 90_000, T0 + 60_000)).toEqual(completed);
    expect(await tasks.claim(task.id, "pay-b", T0 + 90_000, T0 + 10)).toEqual(completed);
    // nor is its bought answer overwritten once the claim lapsed
    expect(await tasks.update(task.id, change("TASK_STATE_CANCELED"), T0 + 60_000)).toBe(false);
    expect((await tasks.get(task.id, T0 + 60_000))?.task).toBe(change(COMPLETED_STATE).task);
  });

  it("never lets a late outcome of the completing payment write over its completed task", async () => {
    const { tasks, task } = await withTask();
    await tasks.claim(task.id, "pay-a", T0 + 30_000, T0);
    // the same payment sent twice at once: one message completes the task, the other's `held`, read before that,
    // lands after it; a task left working would be claimable again by another payment once the claim lapsed
    expect(await tasks.settle(task.id, "pay-a", { ...change(COMPLETED_STATE), release: false }, T0 + 5)).toBe(true);
    for (const release of [false, true])
      expect(await tasks.settle(task.id, "pay-a", { ...change("TASK_STATE_WORKING"), release }, T0 + 6)).toBe(false);
    expect(await tasks.get(task.id, T0 + 6)).toMatchObject({ ...change(COMPLETED_STATE), paymentRef: "pay-a" });
    expect(await tasks.claim(task.id, "pay-b", T0 + 90_000, T0 + 60_000)).toMatchObject({ kind: "completed" });
  });

  it("answers gone for a task that does not exist or expired", async () => {
    const { tasks, task } = await withTask({ expiresAt: T0 + 1_000 });
    expect(await tasks.claim(randomUUID(), "pay-a", T0 + 30_000, T0)).toEqual({ kind: "gone" });
    expect(await tasks.claim(task.id, "pay-a", T0 + 30_000, T0 + 1_001)).toEqual({ kind: "gone" });
    expect(await tasks.get(task.id, T0)).not.toHaveProperty("paymentRef");
  });

  it("grants exactly one of several payments claiming one task at once", async () => {
    const { tasks, task } = await withTask();
    const others = [newTask(), newTask(), newTask()];
    for (const other of others) await tasks.create(other);
    for (const { id } of [task, ...others]) {
      const payments = ["pay-a", "pay-b", "pay-c"];
      const claims = await Promise.all(payments.map((ref, i) => tasks.claim(id, ref, T0 + 30_000 + i, T0)));
      const granted = claims.filter((claim) => claim.kind === "claimed");
      expect(granted).toHaveLength(1);
      const holder = granted[0]?.kind === "claimed" ? granted[0].task : undefined;
      expect(claims.filter((claim) => claim.kind === "held")).toEqual([
        { kind: "held", until: holder?.claimedUntil },
        { kind: "held", until: holder?.claimedUntil },
      ]);
      expect((await tasks.get(id, T0))?.paymentRef).toBe(holder?.paymentRef);
    }
  });
}

function describeWrites(withTask: WithTask): void {
  it("settles only for the payment that holds the claim, keeping the claim", async () => {
    const { tasks, task } = await withTask();
    const working = { ...change("TASK_STATE_WORKING"), release: false };
    expect(await tasks.settle(task.id, "pay-a", working, T0)).toBe(false);
    await tasks.claim(task.id, "pay-a", T0 + 30_000, T0);
    expect(await tasks.settle(task.id, "pay-b", working, T0 + 1)).toBe(false);
    expect((await tasks.get(task.id, T0 + 1))?.state).toBe(PAYING);
    expect(await tasks.settle(task.id, "pay-a", working, T0 + 2)).toBe(true);
    expect(await tasks.get(task.id, T0 + 2)).toEqual({
      ...task,
      ...change("TASK_STATE_WORKING"),
      paymentRef: "pay-a",
      claimedUntil: T0 + 30_000,
      updatedAt: T0 + 2,
    });
    expect(await tasks.settle(randomUUID(), "pay-a", working, T0 + 3)).toBe(false);
  });

  it("ends the claim on a release, so that another payment can claim at once", async () => {
    const { tasks, task } = await withTask();
    await tasks.claim(task.id, "pay-a", T0 + 30_000, T0);
    expect(await tasks.settle(task.id, "pay-a", { ...change(PAYING), release: true }, T0 + 1)).toBe(true);
    const released = await tasks.get(task.id, T0 + 1);
    expect(released).not.toHaveProperty("paymentRef");
    expect(released).not.toHaveProperty("claimedUntil");
    expect(await tasks.claim(task.id, "pay-b", T0 + 40_000, T0 + 2)).toMatchObject({
      kind: "claimed",
      task: { paymentRef: "pay-b" },
    });
    // the released payment's claim is over: a second release of it writes nothing
    expect(await tasks.settle(task.id, "pay-a", { ...change(PAYING), release: true }, T0 + 3)).toBe(false);
  });

  it("updates a task no claim holds, and refuses under a live claim until it lapses", async () => {
    const { tasks, task } = await withTask();
    expect(await tasks.update(task.id, change("TASK_STATE_REJECTED"), T0 + 1)).toBe(true);
    expect(await tasks.get(task.id, T0 + 1)).toEqual({ ...task, ...change("TASK_STATE_REJECTED"), updatedAt: T0 + 1 });
    await tasks.claim(task.id, "pay-a", T0 + 30_000, T0 + 2);
    expect(await tasks.update(task.id, change("TASK_STATE_CANCELED"), T0 + 30_000)).toBe(false);
    expect((await tasks.get(task.id, T0 + 30_000))?.state).toBe("TASK_STATE_REJECTED");
    expect(await tasks.update(task.id, change("TASK_STATE_CANCELED"), T0 + 30_001)).toBe(true);
    expect((await tasks.get(task.id, T0 + 30_001))?.state).toBe("TASK_STATE_CANCELED");
  });

  it("updates no task that does not exist or expired", async () => {
    const { tasks, task } = await withTask({ expiresAt: T0 + 1_000 });
    expect(await tasks.update(randomUUID(), change("TASK_STATE_CANCELED"), T0)).toBe(false);
    expect(await tasks.update(task.id, change("TASK_STATE_CANCELED"), T0 + 1_001)).toBe(false);
    expect((await tasks.get(task.id, T0))?.state).toBe(PAYING);
  });
}
