/**
 * The built-in seed (seed.json, in the import format) and the store every command opens: created,
 * migrated, and seeded when empty, so the service and the import command see the same registry
 * whichever runs first. The seed goes through the same checks as any import.
 */
import { readFileSync } from "node:fs";
import { loadRecords } from "./load.js";
import { formatProblem } from "./records.js";
import { openSqliteStore } from "./sqlite-store.js";
import type { RegistryStore } from "./store.js";

export function readSeed(): unknown {
  return JSON.parse(readFileSync(new URL("./seed.json", import.meta.url), "utf8"));
}

export function openRegistryStore(path: string): RegistryStore {
  const store = openSqliteStore(path);
  if (!store.isEmpty()) return store;
  const result = loadRecords(store, readSeed());
  if (result.ok) return store;
  store.close();
  throw new Error(`the registry seed is invalid: ${result.problems.map(formatProblem).join("; ")}`);
}
