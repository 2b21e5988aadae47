import { afterAll, describe, expect, it, vi } from "vitest";
import { reservation } from "../../test/contracts/ledger.js";
import { partitionableProxy } from "../../test/support/partition.js";
import { freePort } from "../../test/support/processes.js";
import { adminQuery, databaseSettings, dropSchema, hasPostgres, uniqueName } from "../../test/support/services.js";
import { openPostgresLedger } from "../analytics/payments/ledger/postgres-ledger.js";
import { openDatabase } from "./database.js";
import { isConnectionLoss, StoreUnavailable } from "./unavailable.js";

const schemas: string[] = [];
afterAll(async () => {
  for (const schema of schemas) await dropSchema(schema);
});
const fresh = (what: string) => {
  const schema = uniqueName(what);
  schemas.push(schema);
  return schema;
};

/** `promise`'s outcome, or a failure once `ms` have passed: "it fails rather than hangs". */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("connection loss", () => {
  it("is told apart from a statement the database refused", () => {
    expect(
      isConnectionLoss(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" })),
    ).toBe(true);
    expect(
      isConnectionLoss(
        Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }),
      ),
    ).toBe(true);
    expect(
      isConnectionLoss(Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" })),
    ).toBe(true);
    expect(isConnectionLoss(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isConnectionLoss(Object.assign(new Error("duplicate key value"), { code: "23505" }))).toBe(false);
    expect(isConnectionLoss(Object.assign(new Error("syntax error"), { code: "42601" }))).toBe(false);
  });

  it("makes every statement of a database nobody listens for fail as StoreUnavailable", async () => {
    const port = await freePort();
    const database = openDatabase(databaseSettings("public", { url: `postgres://postgres@127.0.0.1:${port}/test` }));
    await expect(database.query("SELECT 1")).rejects.toBeInstanceOf(StoreUnavailable);
    await expect(database.transaction((q) => q("SELECT 1"))).rejects.toBeInstanceOf(StoreUnavailable);
    await database.close();
  });
});

describe.skipIf(!hasPostgres())("PostgreSQL database", () => {
  it("migrates once when several instances start together, each in its own pool", async () => {
    const schema = fresh("migrate");
    const databases = Array.from({ length: 5 }, () => openDatabase(databaseSettings(schema, { poolSize: 2 })));
    const migrations = ["CREATE TABLE one (id INTEGER PRIMARY KEY)", "CREATE TABLE two (id INTEGER PRIMARY KEY)"];
    await Promise.all(databases.map((database) => database.migrate("demo", migrations)));
    const [first] = databases as [ReturnType<typeof openDatabase>];
    expect(await first.query("SELECT component, version FROM schema_migrations ORDER BY version")).toEqual([
      { component: "demo", version: 1 },
      { component: "demo", version: 2 },
    ]);
    // a later start applies only what is new
    await first.migrate("demo", [...migrations, "CREATE TABLE three (id INTEGER PRIMARY KEY)"]);
    expect(await first.query("SELECT count(*)::int AS n FROM schema_migrations")).toEqual([{ n: 3 }]);
    await expect(first.migrate("demo", migrations)).rejects.toThrow(/newer than this code supports/);
    await Promise.all(databases.map((database) => database.close()));
  });

  it("fails a statement running past its timeout as StoreUnavailable", async () => {
    const database = openDatabase(databaseSettings("public", { statementTimeoutMs: 50 }));
    await expect(database.query("SELECT pg_sleep(1)")).rejects.toBeInstanceOf(StoreUnavailable);
    expect(await database.query("SELECT 1 AS one")).toEqual([{ one: 1 }]);
    await database.close();
  });

  it("fails statements, and the batched calls queued behind them, as StoreUnavailable across a network partition, and recovers", async () => {
    const schema = fresh("partition");
    const proxy = await partitionableProxy(databaseSettings("public").url, 5432);
    const statementTimeoutMs = 1_000;
    const poolSize = 4;
    const database = openDatabase(
      databaseSettings(schema, { url: proxy.url, poolSize, statementTimeoutMs, connectTimeoutMs: 1_000 }),
    );
    try {
      const ledger = await openPostgresLedger(database);
      // Every connection of the pool open beforehand: the statements are sent, then never answered.
      await Promise.all(Array.from({ length: poolSize }, () => database.query("SELECT pg_sleep(0.05)")));
      proxy.partition();

      const alone = database.query("SELECT 1");
      const inTransaction = database.transaction((q) => q("SELECT 1"));
      // The ledger keeps two reservation statements on the wire; the calls made meanwhile wait in its queue.
      const onTheWire = [ledger.reserve(reservation("base-sepolia:0xp:0x1", {}, Date.now()))];
      await turn();
      onTheWire.push(ledger.reserve(reservation("base-sepolia:0xp:0x2", {}, Date.now())));
      await turn();
      const queued = Array.from({ length: 5 }, (_, i) =>
        ledger.reserve(reservation(`base-sepolia:0xp:0x1${i}`, {}, Date.now())),
      );

      const outcomes = await within(
        Promise.allSettled([alone, inTransaction, ...onTheWire, ...queued]),
        10 * statementTimeoutMs,
      );
      expect(outcomes.map((o) => (o.status === "rejected" ? o.reason.constructor.name : "fulfilled"))).toEqual(
        Array(outcomes.length).fill("StoreUnavailable"),
      );
      // A connection that missed a reply is closed, never handed out again.
      await vi.waitFor(() => expect(proxy.open()).toBe(0), { timeout: 10 * statementTimeoutMs });

      proxy.heal();
      expect(await database.query("SELECT 1 AS one")).toEqual([{ one: 1 }]);
      // (a fresh key: the statements held across the partition may have run once it healed)
      expect(await ledger.reserve(reservation("base-sepolia:0xp:0x99", {}, Date.now()))).toMatchObject({
        reserved: true,
      });
    } finally {
      await proxy.close();
      await database.close();
    }
  });

  it("works in a schema named by a word SQL reserves (DATABASE_SCHEMA=user)", async () => {
    schemas.push("user");
    const database = openDatabase(databaseSettings("user"));
    try {
      await database.migrate("reserved-word", ["CREATE TABLE notes (n int)"]);
      expect(await database.query("SELECT count(*)::int AS n FROM notes")).toEqual([{ n: 0 }]);
    } finally {
      await database.close();
    }
  });

  it("keeps the schema when DATABASE_URL carries server options of its own, and keeps those too", async () => {
    const schema = fresh("options");
    const url = new URL(databaseSettings(schema).url);
    url.searchParams.set("options", "-c work_mem=8MB");
    const database = openDatabase(databaseSettings(schema, { url: url.toString() }));
    try {
      await database.migrate("with-options", ["CREATE TABLE notes (n int)"]);
      expect(await database.query("SHOW work_mem")).toEqual([{ work_mem: "8MB" }]);
      expect(await database.query("SELECT current_schema() AS s")).toEqual([{ s: schema }]);
      const placed = await adminQuery(
        `SELECT table_schema FROM information_schema.tables WHERE table_name = 'notes' AND table_schema = '${schema}'`,
      );
      expect(placed.rows).toEqual([{ table_schema: schema }]);
    } finally {
      await database.close();
    }
  });

  it("lets exactly one of two instances reserve each payment they race for", async () => {
    const schema = fresh("race");
    const [a, b] = [openDatabase(databaseSettings(schema)), openDatabase(databaseSettings(schema))];
    const [mine, theirs] = [await openPostgresLedger(a), await openPostgresLedger(b)];
    const keys = Array.from({ length: 40 }, (_, i) => `base-sepolia:0xp:0x${i}`);
    const won = await Promise.all(
      keys.flatMap((key) =>
        [mine, theirs, mine, theirs].map((ledger) => ledger.reserve(reservation(key, {}, Date.now()))),
      ),
    );
    expect(won.filter((r) => r.reserved)).toHaveLength(keys.length);
    expect((await mine.rows()).length).toBe(keys.length);
    await Promise.all([a.close(), b.close()]);
  });

  it("keeps every table in its own schema", async () => {
    const schema = fresh("own");
    const database = openDatabase(databaseSettings(schema));
    await openPostgresLedger(database);
    const { rows } = await adminQuery(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = '${schema}' ORDER BY 1`,
    );
    expect(rows.map((r) => r.table_name)).toEqual([
      "agent_tasks",
      "answers",
      "payments",
      "schema_migrations",
      "splits",
    ]);
    await database.close();
  });
});
