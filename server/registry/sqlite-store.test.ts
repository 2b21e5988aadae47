import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "libsql";
import { afterEach, describe, expect, it } from "vitest";
import { catalog, describeRegistryStoreContract, passport } from "../../test/contracts/registry.js";
import { openSqliteStore, SCHEMA_VERSION } from "./sqlite-store.js";

const folders: string[] = [];
function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), "registry-store-"));
  folders.push(folder);
  return folder;
}

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describeRegistryStoreContract("SQLite", async () => openSqliteStore(":memory:"));

describe("openSqliteStore", () => {
  it("creates the file and its folders, migrates once, and keeps the data, checkpointed, across reopening", async () => {
    const path = join(tempFolder(), "nested", "dir", "registry.db");
    const first = openSqliteStore(path);
    expect(await first.isEmpty()).toBe(true);
    await first.write({ agents: [passport("orbit-scout")], skills: catalog });
    await first.close();
    expect(statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0, "closing folds the WAL into the file").toBe(
      0,
    );

    const again = openSqliteStore(path);
    expect((await again.findPassport("orbit-scout"))?.name).toBe("orbit-scout");
    expect(await again.skills()).toEqual(catalog);
    await again.close();
    const db = new Database(path);
    expect(db.prepare("SELECT version FROM schema_version").all()).toEqual([{ version: SCHEMA_VERSION }]);
    db.close();
  });

  it("refuses a database migrated by newer code", async () => {
    const path = join(tempFolder(), "registry.db");
    await openSqliteStore(path).close();
    const db = new Database(path);
    db.prepare("INSERT INTO schema_version (version) VALUES (?)").run(SCHEMA_VERSION + 1);
    db.close();
    expect(() => openSqliteStore(path)).toThrow(/schema version 2 is newer than this code supports \(1\)/);
  });
});
