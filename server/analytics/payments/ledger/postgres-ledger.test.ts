import { afterAll, describe } from "vitest";
import { describeLedgerContract } from "../../../../test/contracts/ledger.js";
import { databaseSettings, dropSchema, hasPostgres, uniqueName } from "../../../../test/support/services.js";
import { openDatabase } from "../../../db/database.js";
import { openPostgresLedger } from "./postgres-ledger.js";

const schemas: string[] = [];
afterAll(async () => {
  for (const schema of schemas) await dropSchema(schema);
});

describe.skipIf(!hasPostgres())("PostgreSQL", () => {
  // Each test gets a schema of its own; closing its ledger closes its pool.
  describeLedgerContract("PostgreSQL", async (start) => {
    let now = start;
    const schema = uniqueName("ledger");
    schemas.push(schema);
    const database = openDatabase(databaseSettings(schema));
    const ledger = await openPostgresLedger(database, { now: () => now });
    return {
      ledger: { ...ledger, close: () => database.close() },
      advance: (ms) => {
        now += ms;
      },
      now: () => now,
    };
  });
});
