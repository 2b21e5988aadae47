import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "libsql";
import { describe, expect, it } from "vitest";
import { reservation } from "../../../test/contracts/ledger.js";
import { describeTaskContract, newTask } from "../../../test/contracts/tasks.js";
import { createLogger } from "../../http/logger.js";
import { systemClock } from "../clock.js";
import { openAnalyticsStores } from "../open-stores.js";
import { openSqliteLedger } from "../payments/ledger/sqlite-ledger.js";
import { MIGRATIONS } from "../payments/ledger/sqlite-schema.js";

describeTaskContract("SQLite", async () => {
  const ledger = openSqliteLedger(":memory:");
  return { tasks: ledger.tasks, close: () => ledger.close() };
});

const ledgerFile = () => join(mkdtempSync(join(tmpdir(), "tasks-")), "ledger.db");

describe("SQLite task store in the ledger's file", () => {
  it("keeps its tasks and their claims when the file is opened again", async () => {
    const file = ledgerFile();
    const first = openSqliteLedger(file);
    const task = newTask(Date.now());
    await first.tasks.create(task);
    await first.tasks.claim(task.id, "pay-a", task.createdAt + 30_000, task.createdAt);
    await first.close();
    const reopened = openSqliteLedger(file);
    expect(await reopened.tasks.get(task.id, task.createdAt)).toMatchObject({
      ...task,
      paymentRef: "pay-a",
      claimedUntil: task.createdAt + 30_000,
    });
    await reopened.close();
  });

  it("is the analytics stores' task store, kept in the ledger's file", async () => {
    const file = ledgerFile();
    const sqlite = { file, synchronous: "normal" as const };
    const stores = await openAnalyticsStores(
      { workers: 1 },
      { sqlite, clock: systemClock, logger: createLogger("silent") },
    );
    const task = newTask(Date.now());
    await stores.tasks.create(task);
    await stores.close();
    const ledger = openSqliteLedger(file);
    expect((await ledger.tasks.get(task.id, task.createdAt))?.id).toBe(task.id);
    await ledger.close();
  });

  it("writes tasks and payments of one turn in the ledger's commit", async () => {
    const ledger = openSqliteLedger(":memory:");
    const tasks = [newTask(), newTask()];
    const [reserved] = await Promise.all([
      ledger.reserve(reservation("base-sepolia:0xp:turn")),
      ...tasks.map((task) => ledger.tasks.create(task)),
    ]);
    expect(reserved).toMatchObject({ reserved: true });
    for (const task of tasks) expect((await ledger.tasks.get(task.id, task.createdAt))?.id).toBe(task.id);
    await ledger.close();
  });

  it("migrates a ledger file written before the task table, keeping its payments", async () => {
    const file = ledgerFile();
    const before = MIGRATIONS.findIndex((sql) => sql.includes("CREATE TABLE agent_tasks"));
    expect(before).toBeGreaterThan(0);
    const old = new Database(file);
    old.exec("CREATE TABLE schema_version (version INTEGER NOT NULL)");
    MIGRATIONS.slice(0, before).forEach((sql, i) => {
      old.exec(sql);
      old.prepare("INSERT INTO schema_version (version) VALUES (?)").run(i + 1);
    });
    old.exec(`INSERT INTO payments (payment_key, network, payer, amount, endpoint, request_id, status, created_at, updated_at)
              VALUES ('base-sepolia:0xold', 'base-sepolia', '0xp', 1000, 'defiTvl', 'r1', 'settled', 1, 1)`);
    old.close();

    const ledger = openSqliteLedger(file);
    expect((await ledger.rows()).map((row) => [row.key, row.status])).toEqual([["base-sepolia:0xold", "settled"]]);
    const task = newTask(Date.now());
    await ledger.tasks.create(task);
    expect((await ledger.tasks.get(task.id, task.createdAt))?.id).toBe(task.id);
    await ledger.close();
    const migrated = new Database(file);
    const { v } = migrated.prepare("SELECT MAX(version) AS v FROM schema_version").get() as { v: number };
    migrated.close();
    expect(v).toBe(MIGRATIONS.length);
  });
});
