/**
 * The task store on the SQLite ledger's connection (sqlite-ledger.ts builds it). Its writes go through the ledger's
 * group commit: one connection runs one transaction at a time, so a task's write and the ledger's writes of the same
 * turn of the event loop commit together, and a claim's UPDATE and the read that names its refusal share a
 * transaction (nothing else writes between them). Reads are direct: they see what was committed.
 */
import type Database from "libsql";
import type { Row } from "../../db/database.js";
import type { GroupCommit } from "../../db/group-commit.js";
import { preparedNamed } from "../../db/named.js";
import { refusedClaim, storedTask, TASK_SQL } from "./task-sql.js";
import type { Claim, TaskStore } from "./task-store.js";

/** The task store on `db`, writing through `committed` (the ledger's group commit, its errors as the ledger's). */
export function sqliteTasks(db: Database.Database, committed: GroupCommit): TaskStore {
  const sql = Object.fromEntries(
    Object.entries(TASK_SQL).map(([name, text]) => [name, preparedNamed(db, text)]),
  ) as Record<keyof typeof TASK_SQL, ReturnType<typeof preparedNamed>>;
  const changed = (statement: "settle" | "settleAndRelease" | "update", params: Record<string, unknown>) =>
    sql[statement].get(params) !== undefined;
  return {
    async create(task) {
      await committed(() => sql.create.run(task));
    },
    async get(id, now) {
      const row = sql.get.get({ id, now }) as Row | undefined;
      return row && storedTask(row);
    },
    claim: (id, paymentRef, until, now) =>
      committed((): Claim => {
        const row = sql.claim.get({ id, paymentRef, until, now }) as Row | undefined;
        if (row) return { kind: "claimed", task: storedTask(row) };
        const refused = refusedClaim(sql.find.get({ id }) as Row | undefined, paymentRef, now);
        // The UPDATE and this read are one transaction of the only writer: the row cannot have changed between them.
        if (!refused) throw new Error(`task ${id}: its claim was refused by a row that grants it`);
        return refused;
      }),
    settle: (id, paymentRef, { release, ...change }, now) =>
      committed(() => changed(release ? "settleAndRelease" : "settle", { ...change, id, paymentRef, now })),
    update: (id, change, now) => committed(() => changed("update", { ...change, id, now })),
    dropExpired: (now) => committed(() => sql.dropExpired.run({ now }).changes),
  };
}
