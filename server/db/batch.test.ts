import { describe, expect, it } from "vitest";
import { batched } from "./batch.js";
import { StoreUnavailable } from "./unavailable.js";

/** A statement that records its calls and completes when the test says so. */
function statement() {
  const manyCalls: number[][] = [];
  const oneCalls: number[] = [];
  const pending: (() => void)[] = [];
  let failWith: unknown;
  const gate = () => new Promise<void>((resolve) => pending.push(resolve));
  return {
    manyCalls,
    oneCalls,
    fail(error: unknown) {
      failWith = error;
    },
    /** Completes every statement on the wire. */
    release() {
      for (const resolve of pending.splice(0)) resolve();
    },
    async many(items: number[]) {
      manyCalls.push(items);
      await gate();
      if (failWith) throw failWith;
      return items.map((n) => n * 10);
    },
    async one(item: number) {
      oneCalls.push(item);
      await gate();
      if (item < 0) throw new Error(`refused ${item}`);
      return item * 10;
    },
  };
}

const batchedOn = (db: ReturnType<typeof statement>, maxBatch: number, maxInFlight: number) =>
  batched<number, number>({ many: db.many, one: db.one, maxBatch, maxInFlight });

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("batched statements", () => {
  it("runs the calls of one turn as one statement, each answered with its own outcome", async () => {
    const db = statement();
    const run = batchedOn(db, 64, 2);
    const results = Promise.all([1, 2, 3].map(run));
    await turn();
    db.release();
    expect(await results).toEqual([10, 20, 30]);
    expect(db.manyCalls).toEqual([[1, 2, 3]]);
    expect(db.oneCalls).toEqual([]);
  });

  it("runs a lone call as the single statement", async () => {
    const db = statement();
    const run = batchedOn(db, 64, 2);
    const result = run(7);
    await turn();
    db.release();
    expect(await result).toBe(70);
    expect(db.manyCalls).toEqual([]);
  });

  it("keeps at most maxInFlight statements on the wire; calls made meanwhile go together in the next, up to maxBatch", async () => {
    const db = statement();
    const run = batchedOn(db, 3, 1);
    const first = Promise.all([1, 2].map(run));
    await turn();
    const later = Promise.all([3, 4, 5, 6, 7].map(run));
    await turn();
    expect(db.manyCalls).toEqual([[1, 2]]);
    db.release();
    expect(await first).toEqual([10, 20]);
    await turn();
    expect(db.manyCalls).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
    db.release();
    await turn();
    db.release();
    expect(await later).toEqual([30, 40, 50, 60, 70]);
    expect(db.manyCalls.at(-1)).toEqual([6, 7]);
  });

  it("runs an item the batch left undone alone, so that its failure is its own", async () => {
    const db = statement();
    const run = batched<number, number>({
      many: async (items) => items.map((n) => (n % 2 ? n * 10 : undefined)),
      one: db.one,
      maxBatch: 64,
      maxInFlight: 2,
    });
    const results = Promise.allSettled([1, 2, -4, 5].map(run));
    await turn();
    db.release();
    const outcomes = await results;
    expect(outcomes.map((o) => (o.status === "fulfilled" ? o.value : String(o.reason)))).toEqual([
      10,
      20,
      "Error: refused -4",
      50,
    ]);
    expect(db.oneCalls).toEqual([2, -4]);
  });

  it("runs a failed batch again item by item, so that one refused item fails alone", async () => {
    const db = statement();
    db.fail(new Error("deadlock detected"));
    const run = batchedOn(db, 64, 2);
    const results = Promise.allSettled([1, -2, 3].map(run));
    await turn();
    db.release();
    await turn();
    db.release();
    const outcomes = await results;
    expect(outcomes.map((o) => (o.status === "fulfilled" ? o.value : String(o.reason)))).toEqual([
      10,
      "Error: refused -2",
      30,
    ]);
    expect(db.oneCalls).toEqual([1, -2, 3]);
  });

  it("fails every call of a batch at once when the database is out of reach", async () => {
    const db = statement();
    const unavailable = new StoreUnavailable("database");
    db.fail(unavailable);
    const run = batchedOn(db, 64, 2);
    const results = Promise.allSettled([1, 2].map(run));
    await turn();
    db.release();
    expect((await results).map((o) => o.status === "rejected" && o.reason)).toEqual([unavailable, unavailable]);
    expect(db.oneCalls).toEqual([]);
  });

  /** A connection cut off: no reply came within node-postgres's `query_timeout`. */
  const cutOff = () => new StoreUnavailable("database", { cause: new Error("Query read timeout") });

  it("fails the calls queued behind a statement that found the database out of reach, without running them", async () => {
    const db = statement();
    const unavailable = cutOff();
    const run = batchedOn(db, 2, 1);
    const onTheWire = Promise.allSettled([1, 2].map(run));
    await turn();
    const queued = Promise.allSettled([3, 4, 5].map(run));
    await turn();
    db.fail(unavailable);
    db.release();
    expect((await onTheWire).map((o) => o.status === "rejected" && o.reason)).toEqual([unavailable, unavailable]);
    await turn();
    expect(db.manyCalls).toEqual([[1, 2]]);
    expect((await queued).map((o) => o.status === "rejected" && o.reason)).toEqual([
      unavailable,
      unavailable,
      unavailable,
    ]);
    // a call made afterwards is tried again
    const later = run(6);
    await turn();
    db.release();
    expect(await later).toBe(60);
  });

  it("runs the calls queued behind a statement the server cancelled (busy, not out of reach)", async () => {
    const db = statement();
    const busy = new StoreUnavailable("database", {
      cause: Object.assign(new Error("canceling statement"), { code: "57014" }),
    });
    const run = batchedOn(db, 2, 1);
    const onTheWire = Promise.allSettled([1, 2].map(run));
    await turn();
    const queued = Promise.all([3, 4].map(run));
    await turn();
    db.fail(busy);
    db.release();
    expect((await onTheWire).map((o) => o.status === "rejected" && o.reason)).toEqual([busy, busy]);
    db.fail(undefined);
    await turn();
    db.release();
    expect(await queued).toEqual([30, 40]);
  });

  it("fails the calls queued behind a lone statement that found the database out of reach", async () => {
    const unavailable = cutOff();
    let fail: (error: unknown) => void = () => {};
    const run = batched<number, number>({
      many: async (items) => items,
      one: () => new Promise((_, reject) => (fail = reject)),
      maxBatch: 64,
      maxInFlight: 1,
    });
    const alone = run(1);
    await turn();
    const queued = Promise.allSettled([2, 3].map(run));
    await turn();
    fail(unavailable);
    await expect(alone).rejects.toBe(unavailable);
    expect((await queued).map((o) => o.status === "rejected" && o.reason)).toEqual([unavailable, unavailable]);
  });
});
