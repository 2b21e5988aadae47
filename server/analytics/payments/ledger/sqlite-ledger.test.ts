import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "libsql";
import { describe, expect, it } from "vitest";
import { describeLedgerContract, reservation } from "../../../../test/contracts/ledger.js";
import { StoreUnavailable } from "../../../db/unavailable.js";
import { splitPayment } from "./split.js";
import { openSqliteLedger } from "./sqlite-ledger.js";

describe("splitPayment", () => {
  it("gives the treasury the floor of 10% and the service the rest", () => {
    expect(splitPayment(1000n, 1000)).toEqual({ service: 900n, treasury: 100n });
    expect(splitPayment(25_000n, 1000)).toEqual({ service: 22_500n, treasury: 2_500n });
    expect(splitPayment(15n, 1000)).toEqual({ service: 14n, treasury: 1n });
    expect(splitPayment(9n, 1000)).toEqual({ service: 9n, treasury: 0n });
  });

  it("always adds up to the amount", () => {
    for (let amount = 0n; amount < 2_000n; amount += 7n) {
      const { service, treasury } = splitPayment(amount, 1000);
      expect(service + treasury).toBe(amount);
      expect(service).toBeGreaterThanOrEqual(treasury);
    }
  });

  it("rejects impossible inputs", () => {
    expect(() => splitPayment(-1n, 1000)).toThrow(RangeError);
    expect(() => splitPayment(1n, 10_001)).toThrow(RangeError);
  });
});

describeLedgerContract("SQLite", async (start) => {
  let now = start;
  return {
    ledger: openSqliteLedger(":memory:", { now: () => now }),
    advance: (ms) => {
      now += ms;
    },
    now: () => now,
  };
});

describe("SQLite ledger file", () => {
  it("refuses a file a newer version of the code migrated, writing nothing to it", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "ledger-")), "ledger.db");
    await openSqliteLedger(file).close();
    const db = new Database(file);
    const version = Number((db.prepare("SELECT MAX(version) AS v FROM schema_version").get() as { v: number }).v);
    db.prepare("INSERT INTO schema_version (version) VALUES (?)").run(version + 1);
    db.close();
    expect(() => openSqliteLedger(file)).toThrow(
      `the ledger's schema is at version ${version + 1}, newer than this code supports (${version})`,
    );
  });

  it("lets only one of two processes sharing the database file reserve the same payment", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "ledger-")), "ledger.db");
    const mine = openSqliteLedger(file);
    const keys = Array.from({ length: 40 }, (_, i) => `base-sepolia:0xp:0x${i}`);
    const script = `
      import { openSqliteLedger } from ${JSON.stringify(new URL("./sqlite-ledger.ts", import.meta.url).pathname)};
      const ledger = openSqliteLedger(${JSON.stringify(file)});
      let won = 0;
      for (const key of ${JSON.stringify(keys)}) {
        const r = { key, network: "base-sepolia", payer: "p", amount: 1n, endpoint: "e", requestId: "child", fingerprint: "f",
                    payload: "{}", deadlineAt: Date.now() + 30000, expiresAt: Date.now() + 60000, holder: "child", transport: "http" };
        if ((await ledger.reserve(r)).reserved) won++;
      }
      console.log(won);`;
    const child = new Promise<number>((resolve, reject) =>
      execFile(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], (error, stdout) =>
        error ? reject(error) : resolve(Number(stdout.trim())),
      ),
    );
    // the child needs a moment to load; racing it key by key while it runs
    await new Promise((resolve) => setTimeout(resolve, 400));
    let mineWon = 0;
    for (const key of keys) if ((await mine.reserve(reservation(key, {}, Date.now()))).reserved) mineWon++;
    const theirs = await child;
    expect(mineWon + theirs).toBe(keys.length);
    expect((await mine.rows()).length).toBe(keys.length);
    await mine.close();
  });

  it("is out of reach (StoreUnavailable: a 503, the payment released) while another process keeps the file locked, and back after", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "ledger-")), "ledger.db");
    const ledger = openSqliteLedger(file);
    const other = new Database(file);
    other.exec("BEGIN IMMEDIATE"); // past the ledger's busy timeout (5 s), which it waits for first
    const request = reservation("base-sepolia:0xp:locked", {}, Date.now());
    await expect(ledger.reserve(request)).rejects.toBeInstanceOf(StoreUnavailable);
    // recovery's own writes too
    await expect(ledger.dropExpiredAnswers(Date.now())).rejects.toBeInstanceOf(StoreUnavailable);
    other.exec("COMMIT");
    expect(await ledger.reserve(request)).toMatchObject({ reserved: true });
    other.close();
    await ledger.close();
  }, 30_000);

  it("opens a new file while another process holds its lock (workers starting together), waiting instead of failing", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "ledger-")), "ledger.db");
    // the other process creates the file and holds its write lock for 1 s
    const script = `
      import Database from "libsql";
      const db = new Database(${JSON.stringify(file)});
      db.exec("BEGIN IMMEDIATE; CREATE TABLE other (x INTEGER)");
      console.log("locked");
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
      db.exec("COMMIT");`;
    const holder = execFile(process.execPath, ["--input-type=module", "-e", script], { cwd: process.cwd() });
    await new Promise<void>((resolve) => holder.stdout?.once("data", () => resolve()));
    const ledger = openSqliteLedger(file);
    expect((await ledger.reserve(reservation("base-sepolia:0xp:0x1", {}, Date.now()))).reserved).toBe(true);
    await ledger.close();
  });

  it("migrates a ledger written by the previous schema, keeping its payments and splits", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "ledger-")), "old.db");
    const old = new Database(file);
    old.exec(`CREATE TABLE schema_version (version INTEGER NOT NULL);
      CREATE TABLE payments (id INTEGER PRIMARY KEY, payment_key TEXT NOT NULL, reservation_key TEXT UNIQUE, network TEXT NOT NULL,
        payer TEXT NOT NULL, amount INTEGER NOT NULL CHECK (amount >= 0), endpoint TEXT NOT NULL, request_id TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('verified', 'settled', 'failed', 'not_charged')), settlement_tx TEXT,
        simulated INTEGER NOT NULL DEFAULT 0, reason TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
      CREATE TABLE splits (payment_id INTEGER NOT NULL REFERENCES payments(id), account TEXT NOT NULL, address TEXT NOT NULL,
        amount INTEGER NOT NULL, PRIMARY KEY (payment_id, account));
      CREATE INDEX payments_key ON payments(payment_key);
      INSERT INTO schema_version VALUES (1), (2), (3);
      INSERT INTO payments VALUES (1, 'base-sepolia:0xn1', 'base-sepolia:0xn1', 'base-sepolia', '0xp', 1000, 'defiTvl', 'r1', 'settled', '0xtx', 0, NULL, 1, 1);
      INSERT INTO payments VALUES (2, 'base-sepolia:0xn2', 'base-sepolia:0xn2', 'base-sepolia', '0xp', 2000, 'defiYields', 'r2', 'verified', NULL, 0, NULL, 2, 2);
      INSERT INTO splits VALUES (1, 'service', '0xs', 900), (1, 'treasury', '0xt', 100);`);
    old.close();

    const ledger = openSqliteLedger(file);
    const rows = await ledger.rows();
    expect(rows.map((r) => [r.key, r.status, r.amount, r.transaction])).toEqual([
      ["base-sepolia:0xn1", "settled", 1000n, "0xtx"],
      ["base-sepolia:0xn2", "verified", 2000n, null],
    ]);
    expect((await ledger.totals()).byAccount.map((a) => a.amount)).toEqual([900n, 100n]);
    // the old process's unanswered payment is past any deadline: recovery will release it
    expect((await ledger.pending(Date.now(), 10)).map((p) => p.key)).toEqual(["base-sepolia:0xn2"]);
    await ledger.close();
    // opening again runs no migration twice
    await openSqliteLedger(file).close();
    // every index a write pays for is one a query uses: payment_key's (a random nonce) is gone
    const migrated = new Database(file);
    const indexes = migrated
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
      .all();
    migrated.close();
    // the identifier and transaction indexes are partial: only payments with one pay for them (`bound`, `lookup` read them)
    expect(indexes.map((row) => (row as { name: string }).name)).toEqual([
      "agent_tasks_expiry",
      "answers_expiry",
      "payments_identifier",
      "payments_identifier_record",
      "payments_pending",
      "payments_transaction",
    ]);
  });
});
