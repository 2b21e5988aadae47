import { describe, expect, it } from "vitest";
import { describeTaskContract, newTask } from "../../../test/contracts/tasks.js";
import { databasePerTest, hasPostgres } from "../../../test/support/services.js";
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
