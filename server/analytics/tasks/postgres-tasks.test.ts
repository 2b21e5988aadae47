import { describe, expect, it } from "vitest";
import { describeTaskContract, newTask } from "../../../test/contracts/tasks.js";
import { databasePerTest, hasPostgres } from "../../../test/support/services.js";
import { createLogger } from "../../http/logger.js";
import { systemClock } from "../clock.js";
import { openAnalyticsStores } from "../open-stores.js";
import { openPostgresLedger } from "../payments/ledger/postgres-ledger.js";
import { LEDGER_MIGRATIONS } from "../payments/ledger/postgres-schema.js";

const ownDatabase = databasePerTest("tasks");

describe.skipIf(!hasPostgres())("PostgreSQL", () => {
  // Each test gets a schema of its own, and a pool of several connections: concurrent claims race for real.
  describeTaskContract("PostgreSQL", async () => {
    const database = ownDatabase();
    const { tasks } = await openPostgresLedger(database);
    return { tasks, close: () => database.close() };
  });

  it("is the analytics stores' task store when a database is configured, kept in that database", async () => {
    const database = ownDatabase();
    try {
      const stores = await openAnalyticsStores(
        { workers: 1 },
        {
          sqlite: { file: ":memory:", synchronous: "normal" },
          database,
          clock: systemClock,
          logger: createLogger("silent"),
        },
      );
      const task = newTask(Date.now());
      await stores.tasks.create(task);
      await stores.close();
      const { tasks } = await openPostgresLedger(database);
      expect((await tasks.get(task.id, task.createdAt))?.id).toBe(task.id);
    } finally {
      await database.close();
    }
  });

  it("migrates a ledger made before the task table, and keeps tasks beside its payments", async () => {
    const database = ownDatabase();
    try {
      const before = LEDGER_MIGRATIONS.findIndex((sql) => sql.includes("CREATE TABLE agent_tasks"));
      expect(before).toBeGreaterThan(0);
      await database.migrate("ledger", LEDGER_MIGRATIONS.slice(0, before));
      const { tasks } = await openPostgresLedger(database);
      const task = newTask(Date.now());
      await tasks.create(task);
      expect((await tasks.get(task.id, task.createdAt))?.id).toBe(task.id);
      const [row] = await database.query("SELECT max(version) AS v FROM schema_migrations WHERE component = 'ledger'");
      expect(Number(row?.v)).toBe(LEDGER_MIGRATIONS.length);
    } finally {
      await database.close();
    }
  });
});
