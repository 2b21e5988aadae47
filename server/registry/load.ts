/**
 * The one way records enter a store (the seed and the import command): the whole batch is checked
 * first, then written in one transaction, so a refused batch leaves the store as it was.
 */
import { checkImport, type Problem } from "./records.js";
import { type RegistryStore, StoreConflict } from "./store.js";

export type LoadResult = { ok: true; agents: number; skillFamilies: number } | { ok: false; problems: Problem[] };

export function loadRecords(store: RegistryStore, data: unknown): LoadResult {
  const check = checkImport(data, store.skills());
  if (!check.ok) return check;
  try {
    store.write(check.batch);
  } catch (error) {
    if (error instanceof StoreConflict) return { ok: false, problems: [{ at: error.at, message: error.message }] };
    throw error;
  }
  return { ok: true, agents: check.batch.agents.length, skillFamilies: check.batch.skills?.length ?? 0 };
}
