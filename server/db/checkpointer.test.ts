// WAL checkpoints on their own thread: the WAL stays bounded while the connection never checkpoints itself, and a
// thread that cannot run hands checkpoints back to the connection, saying so.
import { mkdtempSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "libsql";
import { describe, expect, it } from "vitest";
import { runModule, specifier } from "../../test/support/processes.js";
import { checkpointOffThread } from "./checkpointer.js";
import { useWal } from "./wal.js";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function openFile() {
  const file = join(mkdtempSync(join(tmpdir(), "checkpointer-")), "db.sqlite");
  const db = new Database(file);
  useWal(db);
  db.exec("CREATE TABLE t (body TEXT NOT NULL)");
  return { db, file };
}

/**
 * Writes about `megabytes` MB in 100 KB commits, a pause every ten, as a service's group commits come. Each pause
 * spans more than two of the thread's 20 ms intervals: with 10 ms, a slow machine's thread sometimes caught up too
 * rarely to start the WAL over, and the bound below failed one run in two there.
 */
async function write(db: Database.Database, megabytes: number) {
  const insert = db.prepare("INSERT INTO t (body) VALUES (?)");
  for (let i = 0; i < megabytes * 10; i++) {
    insert.run("x".repeat(100_000));
    if (i % 10 === 9) await pause(50);
  }
}

const autocheckpoint = (db: Database.Database) =>
  (db.pragma("wal_autocheckpoint") as { wal_autocheckpoint: number }[])[0]?.wal_autocheckpoint;

describe("checkpoints off the event loop", () => {
  it("keep the WAL bounded while the connection's own checkpoints wait for a WAL ten times larger", async () => {
    const { db, file } = openFile();
    const warnings: string[] = [];
    const checkpoints = checkpointOffThread(db, file, {
      synchronous: "normal",
      intervalMs: 20,
      onError: (m) => warnings.push(m),
    });
    expect(autocheckpoint(db)).toBe(10_000);
    await write(db, 20);
    await pause(200);
    // The thread copied the commits into the database file; each time it had caught up, the next commit started the WAL over.
    expect(statSync(file).size).toBeGreaterThan(19_000_000);
    expect(statSync(`${file}-wal`).size).toBeLessThan(15_000_000);
    await checkpoints.stop();
    expect(warnings).toEqual([]);
    db.close();
  });

  it("without the thread the same writes grow the WAL by all of them (the test above can fail)", async () => {
    const { db, file } = openFile();
    db.pragma("wal_autocheckpoint = 10000");
    await write(db, 20);
    await pause(200);
    expect(statSync(file).size).toBeLessThan(1_000_000);
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(20_000_000);
    db.close();
  });

  it("hands checkpoints back to the connection, and says so, when the thread cannot run", async () => {
    const { db } = openFile();
    const warnings: string[] = [];
    // a path the thread cannot open as a database: it fails at once
    checkpointOffThread(db, join(tmpdir(), "no-such-dir", "x", "db.sqlite"), {
      synchronous: "normal",
      onError: (m) => warnings.push(m),
    });
    for (let i = 0; i < 100 && !warnings.length; i++) await pause(20);
    expect(warnings).toEqual([
      expect.stringMatching(/^the ledger's checkpoint thread stopped \(.+\); its connection checkpoints for itself$/),
    ]);
    expect(autocheckpoint(db)).toBe(1000);
    db.close();
  });

  it("lets a process whose last wait is their stop finish it (the thread is unreferenced while it runs)", () => {
    const dir = mkdtempSync(join(tmpdir(), "checkpointer-"));
    const file = join(dir, "db.sqlite");
    const child = runModule(
      `import Database from ${specifier(createRequire(import.meta.url).resolve("libsql"))};
      import { checkpointOffThread } from ${specifier(new URL("./checkpointer.ts", import.meta.url))};
      const db = new Database(${JSON.stringify(file)});
      db.pragma("journal_mode = WAL");
      await checkpointOffThread(db, ${JSON.stringify(file)}, { synchronous: "normal", onError: console.error }).stop();
      console.log("stopped");`,
    );
    expect({ status: child.status, stdout: child.stdout }).toEqual({ status: 0, stdout: "stopped" });
  });
});
