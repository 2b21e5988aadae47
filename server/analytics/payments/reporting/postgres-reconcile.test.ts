import { afterAll, describe } from "vitest";
import { describeReconcile } from "../../../../test/contracts/reconcile.js";
import { databaseSettings, dropSchema, hasPostgres, uniqueName } from "../../../../test/support/services.js";
import { openDatabase } from "../../../db/database.js";
import { openPostgresLedger } from "../ledger/postgres-ledger.js";

const schema = uniqueName("reconcile");
afterAll(() => dropSchema(schema));

describe.skipIf(!hasPostgres())("PostgreSQL", () => {
  describeReconcile("PostgreSQL", async () => {
    const database = openDatabase(databaseSettings(schema));
    const ledger = await openPostgresLedger(database);
    return { ...ledger, close: () => database.close() };
  });
});
