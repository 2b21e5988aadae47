/**
 * The task store in the PostgreSQL ledger's database (postgres-ledger.ts builds it, after the ledger's migrations made
 * its table). Each write is one statement, atomic on its own: two instances claiming one task at once are ordered by
 * the row's lock, and the second's UPDATE, evaluated again on the row the first left, finds it held.
 */
import type { Database } from "../../db/database.js";
import { type NamedStatement, named } from "../../db/named.js";
import { StoreUnavailable } from "../../db/unavailable.js";
import { refusedClaim, storedTask, TASK_SQL } from "./task-sql.js";
import type { Claim, TaskStore } from "./task-store.js";

const SQL = {
  ...(Object.fromEntries(Object.entries(TASK_SQL).map(([name, text]) => [name, named(text)])) as Record<
    keyof typeof TASK_SQL,
    NamedStatement
  >),
  dropExpired: named(`WITH dropped AS (${TASK_SQL.dropExpired} RETURNING id) SELECT count(*) AS n FROM dropped`),
};

/** The task store on `database`, whose ledger migrations are applied. */
export function postgresTasks({ query }: Database): TaskStore {
  const run = (statement: keyof typeof SQL, params: Record<string, unknown>) =>
    query(SQL[statement].text, SQL[statement].values(params));
  const changed = async (statement: "settle" | "settleAndRelease" | "update", params: Record<string, unknown>) =>
    (await run(statement, params)).length === 1;

  /**
   * The claim, or what refused it, read by a statement of its own once the UPDATE changed no row. A row read that
   * would grant the claim changed between the two (a claim released, a lapsed one taken): the claim is tried again.
   */
  async function claim(id: string, paymentRef: string, until: number, now: number): Promise<Claim> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const [row] = await run("claim", { id, paymentRef, until, now });
      if (row) return { kind: "claimed", task: storedTask(row) };
      const [found] = await run("find", { id });
      const refused = refusedClaim(found, paymentRef, now);
      if (refused) return refused;
    }
    throw new StoreUnavailable(`task store (task ${id} changed hands three times during one claim)`);
  }

  return {
    async create(task) {
      await run("create", task);
    },
    async get(id, now) {
      const [row] = await run("get", { id, now });
      return row && storedTask(row);
    },
    claim,
    settle: (id, paymentRef, { release, ...change }, now) =>
      changed(release ? "settleAndRelease" : "settle", { ...change, id, paymentRef, now }),
    update: (id, change, now) => changed("update", { ...change, id, now }),
    async dropExpired(now) {
      const [row] = await run("dropExpired", { now });
      return Number(row?.n ?? 0);
    },
  };
}
