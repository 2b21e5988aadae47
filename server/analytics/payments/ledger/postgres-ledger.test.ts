import { afterAll, describe, expect, it } from "vitest";
import { attemptOf, describeLedgerContract, reservation, split } from "../../../../test/contracts/ledger.js";
import { partitionableProxy } from "../../../../test/support/partition.js";
import { databaseSettings, dropSchema, hasPostgres, uniqueName } from "../../../../test/support/services.js";
import { openDatabase } from "../../../db/database.js";
import { openPostgresLedger } from "./postgres-ledger.js";
import type { Attempt, LedgerStore } from "./store.js";

const schemas: string[] = [];
afterAll(async () => {
  for (const schema of schemas) await dropSchema(schema);
});

function ownSchema() {
  const schema = uniqueName("ledger");
  schemas.push(schema);
  return { schema, database: openDatabase(databaseSettings(schema)) };
}

describe.skipIf(!hasPostgres())("PostgreSQL", () => {
  // Each test gets a schema of its own; closing its ledger closes its pool.
  describeLedgerContract("PostgreSQL", async (start) => {
    let now = start;
    const { database } = ownSchema();
    const ledger = await openPostgresLedger(database, { now: () => now });
    return {
      ledger: { ...ledger, close: () => database.close() },
      advance: (ms) => {
        now += ms;
      },
      now: () => now,
    };
  });

  it("indexes only what a query looks up: payment_key (a random nonce) has none", async () => {
    const { schema, database } = ownSchema();
    await openPostgresLedger(database);
    const rows = await database.query(
      "SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename IN ('payments', 'splits', 'answers') ORDER BY indexname",
      [schema],
    );
    expect(rows.map((row) => row.indexname)).toEqual([
      "answers_expiry",
      "answers_pkey",
      // partial: only payments with an identifier (a transaction) pay for them; `bound` and `lookup` read them
      "payments_identifier",
      "payments_identifier_record",
      "payments_pending",
      "payments_pkey",
      "payments_reservation_key_key",
      "payments_transaction",
      "splits_pkey",
    ]);
    await database.close();
  });

  it("keeps the reservations' unflushed commit inside their own transactions: the connection's next commits, a settlement's, wait for the flush", async () => {
    const { schema } = ownSchema();
    // one connection: the reservations, the settlement and the read below share its session
    const database = openDatabase(databaseSettings(schema, { poolSize: 1 }));
    try {
      const ledger = await openPostgresLedger(database);
      const setting = async () => (await database.query("SHOW synchronous_commit"))[0]?.synchronous_commit;
      const before = await setting();
      const alone = await attemptOf(ledger, reservation("base-sepolia:0xp:alone"));
      const batch = await Promise.all(
        [1, 2, 3].map((i) => attemptOf(ledger, reservation(`base-sepolia:0xp:batch${i}`))),
      );
      expect(await setting()).toBe(before);
      expect(before).toBe("on");
      const settled = { transaction: "0xtx", simulated: false, split: split(1000n) };
      expect(await ledger.settleWithAnswer(alone, settled, { status: 200, body: "{}" })).toEqual({ moved: true });
      expect(
        await Promise.all(
          batch.map((attempt) => ledger.settleWithAnswer(attempt, settled, { status: 200, body: "{}" })),
        ),
      ).toEqual([{ moved: true }, { moved: true }, { moved: true }]);
    } finally {
      await database.close();
    }
  });

  it("plans its settlement batches for the ledger as it has grown, not as it was when they were first prepared", async () => {
    const schema = uniqueName("ledger");
    schemas.push(schema);
    // one connection: the plans the batches ran with are the ones this test reads
    const database = openDatabase(databaseSettings(schema, { poolSize: 1 }));
    try {
      const ledger = await openPostgresLedger(database);
      const settled = { transaction: "0xtx", simulated: false, split: split(1000n) };
      // Eight batches of three each time: past its fifth run, a prepared statement may keep a generic plan.
      const batches = async (name: string) => {
        for (let round = 0; round < 8; round++) {
          const keys = [0, 1, 2].map((i) => `base-sepolia:0xp:${name}${round}-${i}`);
          const entries = await Promise.all(keys.map((key) => attemptOf(ledger, reservation(key))));
          expect(
            await Promise.all(
              entries.map((entry) => ledger.settleWithAnswer(entry, settled, { status: 200, body: "{}" })),
            ),
          ).toEqual([{ moved: true }, { moved: true }, { moved: true }]);
        }
      };
      await batches("early");
      await database.query(
        `INSERT INTO payments (payment_key, reservation_key, network, payer, amount, endpoint, request_id, status, fingerprint,
                               payload, deadline_at, expires_at, created_at, updated_at)
         SELECT 'k' || g, 'k' || g, 'base-sepolia', '0xp', 1, 'defiTvl', 'r', 'verified', 'f', '{}', 9e15, 9e15, 0, 0
         FROM generate_series(1, 20000) g`,
      );
      await batches("late");
      const plans = [];
      for (const { name } of await database.query(
        // the settlement batches' texts (this statement's own text names both, and the view)
        "SELECT name FROM pg_prepared_statements WHERE statement LIKE '%unnest%INSERT INTO answers%' AND statement NOT LIKE '%FROM pg_prepared_statements%' ORDER BY prepare_time",
      ))
        plans.push(
          (
            await database.query(
              // in the order the statement names them: entries to attempts, the time, the stages it leaves
              `EXPLAIN EXECUTE ${name}('{1}', '{0xtx}', '{f}', '{s}', '{1}', '{t}', '{1}', '{"{}"}', '{200}', '{h}', 0, '{verified}')`,
            )
          )
            .map((row) => row["QUERY PLAN"])
            .join("\n"),
        );
      expect(plans.length).toBeGreaterThan(1);
      expect(plans.at(-1)).toMatch(/payments_pkey/);
      expect(plans.at(-1)).not.toMatch(/payments_pending|Seq Scan on payments/);
    } finally {
      await database.close();
    }
  });

  const lateWrites = {
    "the settlement with its answer": (ledger: LedgerStore, attempt: Attempt) =>
      ledger.settleWithAnswer(
        attempt,
        { transaction: "0xtx", simulated: false, split: split(1000n) },
        { status: 200, body: '{"data":{}}' },
      ),
    "the move to settling (a facilitator's settlement)": (ledger: LedgerStore, attempt: Attempt) =>
      ledger.beginSettling(attempt, { status: 200, body: '{"data":{}}' }, Date.now() + 60_000),
  };
  for (const [what, write] of Object.entries(lateWrites))
    it(`does not apply ${what} when a partition delivers it after its deadline, alone or batched: the payments stay releasable`, async () => {
      const { schema } = ownSchema();
      const proxy = await partitionableProxy(databaseSettings(schema).url, 5432);
      const database = openDatabase(databaseSettings(schema, { url: proxy.url }));
      const direct = openDatabase(databaseSettings(schema));
      const statusOf = async (entry: number) =>
        (await direct.query("SELECT status FROM payments WHERE id = $1", [entry]))[0]?.status;
      try {
        const ledger = await openPostgresLedger(database, { databaseClock: true });
        const deadline = Date.now() + 1_000;
        const late = await Promise.all(
          [1, 2, 3, 4].map((i) =>
            attemptOf(ledger, { ...reservation(`base-sepolia:0xp:late${i}`, {}, Date.now()), deadlineAt: deadline }),
          ),
        );
        const onTime = await attemptOf(ledger, reservation("base-sepolia:0xp:on-time", {}, Date.now()));
        proxy.partition();
        // sent before their deadline (the paid path batches concurrent settlements), held by the partition
        const settling = Promise.all(late.map((attempt) => write(ledger, attempt)));
        await new Promise((resolve) => setTimeout(resolve, deadline - Date.now() + 200));
        proxy.heal(); // they reach the database only now, past their deadline
        // refused by the deadline as the database's clock read it when they ran
        const tooLate = { moved: false, refusedBy: "before deadline", stage: "verified" };
        expect(await settling).toEqual([tooLate, tooLate, tooLate, tooLate]);
        for (const attempt of late) {
          expect(await statusOf(attempt.entry)).toBe("verified");
          expect(await ledger.release(attempt, "its answer was too late")).toEqual({ moved: true });
        }
        expect(await write(ledger, onTime)).toEqual({ moved: true });
        expect(await statusOf(onTime.entry)).not.toBe("verified");
      } finally {
        await database.close();
        await direct.close();
        await proxy.close();
      }
    });
});
