import { afterAll, describe, expect, it } from "vitest";
import { describeLedgerContract } from "../../../../test/contracts/ledger.js";
import { databaseSettings, dropSchema, hasPostgres, uniqueName } from "../../../../test/support/services.js";
import { openDatabase } from "../../../db/database.js";
import { openPostgresLedger } from "./postgres-ledger.js";

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
});
