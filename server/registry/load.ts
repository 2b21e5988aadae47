/**
 * The one way records enter a store (the seed and the import command): the whole batch is checked
 * first, against the contract, the record rules, itself and the store, every problem at once; then
 * written in one transaction, so a refused batch leaves the store as it was.
 *
 * With `upsert`, a record naming a passport the store holds updates it: the fields it gives replace
 * the stored ones, the others are kept (a given `manifest` or `card` replaces the whole document),
 * and the merged passport is checked like any other.
 */
import { checkImport, type Problem } from "./records.js";
import { type RegistryStore, StoreConflict } from "./store.js";

export type LoadResult = { ok: true; agents: number; updated: number; skillFamilies: number } | { ok: false; problems: Problem[] };

/** `data` with each record that names a held passport merged over the stored one (only the fields it gives change). */
function mergedWithStored(data: unknown, store: RegistryStore): { data: unknown; updated: number } {
  const file = data as { agents?: unknown };
  if (typeof data !== "object" || data === null || !Array.isArray(file.agents)) return { data, updated: 0 };
  let updated = 0;
  const agents = file.agents.map((record: unknown) => {
    const name = (record as { name?: unknown } | null)?.name;
    const stored = typeof name === "string" ? store.record(name) : undefined;
    if (!stored || typeof record !== "object") return record;
    updated += 1;
    return { ...stored, ...record };
  });
  return { data: { ...data, agents }, updated };
}

export function loadRecords(store: RegistryStore, data: unknown, { upsert = false }: { upsert?: boolean } = {}): LoadResult {
  const merged = upsert ? mergedWithStored(data, store) : { data, updated: 0 };
  const check = checkImport(merged.data, store.skills(), { holders: store, upsert });
  if (!check.ok) return check;
  try {
    store.write(check.batch, { upsert });
  } catch (error) {
    if (error instanceof StoreConflict) return { ok: false, problems: [{ at: error.at, message: error.message }] };
    throw error;
  }
  return { ok: true, agents: check.batch.agents.length, updated: merged.updated, skillFamilies: check.batch.skills?.length ?? 0 };
}
