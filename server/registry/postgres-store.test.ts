import { afterAll, describe, expect, it } from "vitest";
import { describeRegistryStoreContract, passport } from "../../test/contracts/registry.js";
import { databaseSettings, dropSchema, hasPostgres, uniqueName } from "../../test/support/services.js";
import { type Database, openDatabase } from "../db/database.js";
import { openPostgresStore } from "./postgres-store.js";
import { openRegistryStore, readSeed } from "./seed.js";
import type { RegistryImport } from "./store.js";

const schemas: string[] = [];
const databases: Database[] = [];
afterAll(async () => {
  await Promise.all(databases.map((database) => database.close()));
  for (const schema of schemas) await dropSchema(schema);
});

/** A database in a schema of its own. */
function freshDatabase(): Database {
  const schema = uniqueName("registry");
  schemas.push(schema);
  const database = openDatabase(databaseSettings(schema, { poolSize: 4 }));
  databases.push(database);
  return database;
}

describe.skipIf(!hasPostgres())("PostgreSQL", () => {
  describeRegistryStoreContract("PostgreSQL", () => openPostgresStore(freshDatabase()));

  it("is seeded once when several instances open it together, and shared by them", async () => {
    const database = freshDatabase();
    const others = Array.from({ length: 3 }, () =>
      openDatabase(databaseSettings(schemas.at(-1) as string, { poolSize: 2 })),
    );
    databases.push(...others);
    const stores = await Promise.all([database, ...others].map((db) => openRegistryStore(db)));
    const seed = readSeed() as RegistryImport;
    for (const store of stores) expect(await store.listAgents(100)).toHaveLength(seed.agents.length);
    await stores[0]?.write({ agents: [passport("late-comer", { createdAt: 1795000000000 })] });
    expect((await stores[3]?.listAgents(1))?.[0]?.name).toBe("late-comer");
  });
});
