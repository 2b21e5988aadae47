// Group commit on a real SQLite connection: the writes of one turn of the event loop share one
// transaction, a write that throws is undone alone, and a failed commit rejects its whole batch.
import Database from "libsql";
import { describe, expect, it } from "vitest";
import { groupCommit } from "./group-commit.js";

/** A connection whose BEGIN and COMMIT runs are counted, and whose COMMIT can be made to fail. */
function connection({ failingCommit = false } = {}) {
  const db = new Database(":memory:");
  db.exec("CREATE TABLE t (x INTEGER UNIQUE)");
  const counts = { "BEGIN IMMEDIATE": 0, COMMIT: 0, "SAVEPOINT work": 0 };
  const committed = groupCommit({
    prepare(sql) {
      const statement = db.prepare(sql);
      return {
        run: (...args: unknown[]) => {
          if (sql in counts) counts[sql as keyof typeof counts]++;
          if (sql === "COMMIT" && failingCommit) throw new Error("disk I/O error");
          return statement.run(...args);
        },
      };
    },
  });
  const insert = db.prepare("INSERT INTO t (x) VALUES (?)");
  const values = () => (db.prepare("SELECT x FROM t ORDER BY x").all() as { x: number }[]).map((row) => row.x);
  return { db, counts, committed, insert: (x: number) => Number(insert.run(x).changes), values };
}

describe("groupCommit", () => {
  it("commits the writes queued in one turn in one transaction, answering each with its own result", async () => {
    const { db, counts, committed, insert, values } = connection();
    expect(await Promise.all([1, 2, 3].map((x) => committed(() => insert(x) * x)))).toEqual([1, 2, 3]);
    // no savepoint while no write throws
    expect(counts).toEqual({ "BEGIN IMMEDIATE": 1, COMMIT: 1, "SAVEPOINT work": 0 });
    expect(values()).toEqual([1, 2, 3]);
    await committed(() => insert(4));
    expect(counts).toEqual({ "BEGIN IMMEDIATE": 2, COMMIT: 2, "SAVEPOINT work": 0 });
    expect(db.inTransaction).toBe(false);
  });

  it("undoes a write that throws, alone: the others of its batch commit", async () => {
    const { db, counts, committed, insert, values } = connection();
    const outcomes = await Promise.allSettled([
      committed(() => insert(1)),
      committed(() => {
        insert(2);
        insert(1); // a UNIQUE violation after a write of its own: both undone
      }),
      committed(() => insert(3)),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(values()).toEqual([1, 3]);
    // the batch ran again, each write in a savepoint, after its first transaction was rolled back
    expect(counts).toEqual({ "BEGIN IMMEDIATE": 2, COMMIT: 1, "SAVEPOINT work": 3 });
    expect(db.inTransaction).toBe(false);
  });

  it("rejects every write of a batch whose commit fails, and keeps none of them", async () => {
    const { db, committed, insert, values } = connection({ failingCommit: true });
    const outcomes = await Promise.allSettled([committed(() => insert(1)), committed(() => insert(2))]);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected"]);
    expect(db.inTransaction).toBe(false);
    expect(values()).toEqual([]);
  });
});
