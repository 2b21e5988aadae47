/**
 * The built-in seed (seed.json, in the import format) and the store every command opens: created,
 * migrated, and seeded when empty, so the service and the import command see the same registry
 * whichever runs first. The seed goes through the same checks as any import.
 */
import { readFileSync } from "node:fs";
import type { Database } from "../db/database.js";
import { loadRecords } from "./load.js";
import { openPostgresStore } from "./postgres-store.js";
import { formatProblem } from "./records.js";
import { openSqliteStore } from "./sqlite-store.js";
import type { RegistryStore } from "./store.js";

export function readSeed(): unknown {
  return JSON.parse(readFileSync(new URL("./seed.json", import.meta.url), "utf8"));
}

/** The store in a SQLite file (`:memory:` for tests) or in a PostgreSQL database. */
export async function openRegistryStore(location: string | Database): Promise<RegistryStore> {
  const store = typeof location === "string" ? openSqliteStore(location) : await openPostgresStore(location);
  if (!(await store.isEmpty())) return store;
  const result = await loadRecords(store, readSeed());
  // Instances starting together on one database: one seeds, the others' batch conflicts and finds the seed written.
  if (result.ok || !(await store.isEmpty())) return store;
  await store.close();
  throw new Error(`the registry seed is invalid: ${result.problems.map(formatProblem).join("; ")}`);
}
