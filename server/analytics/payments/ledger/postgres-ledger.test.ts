import { afterAll, describe, expect, it } from "vitest";
import { describeLedgerContract, entryOf, reservation, split } from "../../../../test/contracts/ledger.js";
import { partitionableProxy } from "../../../../test/support/partition.js";
import { databaseSettings, dropSchema, hasPostgres, uniqueName } from "../../../../test/support/services.js";
import { openDatabase } from "../../../db/database.js";
import { openPostgresLedger } from "./postgres-ledger.js";
import type { LedgerStore } from "./store.js";

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
      "payments_pending",
      "payments_pkey",
      "payments_reservation_key_key",
      "splits_pkey",
    ]);
    await database.close();
  });

  const lateWrites = {
    "the settlement with its answer": (ledger: LedgerStore, entry: number) =>
      ledger.settle(entry, { transaction: "0xtx", simulated: false, split: split(1000n) }, { status: 200, body: '{"data":{}}' }),
    "the move to settling (a facilitator's settlement)": (ledger: LedgerStore, entry: number) =>
      ledger.beginSettling(entry, { status: 200, body: '{"data":{}}' }, Date.now() + 60_000),
  };
  for (const [what, write] of Object.entries(lateWrites))
    it(`does not apply ${what} when a partition delivers it after its deadline, alone or batched: the payments stay releasable`, async () => {
      const { schema } = ownSchema();
      const proxy = await partitionableProxy(databaseSettings(schema).url, 5432);
      const database = openDatabase(databaseSettings(schema, { url: proxy.url }));
      const direct = openDatabase(databaseSettings(schema));
      const statusOf = async (entry: number) => (await direct.query("SELECT status FROM payments WHERE id = $1", [entry]))[0]?.status;
      try {
        const ledger = await openPostgresLedger(database, { databaseClock: true });
        const deadline = Date.now() + 1_000;
        const late = await Promise.all(
          [1, 2, 3, 4].map((i) => entryOf(ledger, { ...reservation(`base-sepolia:0xp:late${i}`, {}, Date.now()), deadlineAt: deadline })),
        );
        const onTime = await entryOf(ledger, reservation("base-sepolia:0xp:on-time", {}, Date.now()));
        proxy.partition();
        // sent before their deadline (the paid path batches concurrent settlements), held by the partition
        const settling = Promise.all(late.map((entry) => write(ledger, entry)));
        await new Promise((resolve) => setTimeout(resolve, deadline - Date.now() + 200));
        proxy.heal(); // they reach the database only now, past their deadline
        expect(await settling).toEqual([false, false, false, false]);
        for (const entry of late) {
          expect(await statusOf(entry)).toBe("verified");
          expect(await ledger.release(entry, "not_charged", "its answer was too late")).toBe(true);
        }
        expect(await write(ledger, onTime)).toBe(true);
        expect(await statusOf(onTime)).not.toBe("verified");
      } finally {
        await database.close();
        await direct.close();
        await proxy.close();
      }
    });
});
