/**
 * The one way records enter a store (the seed and the import command): the whole batch is checked
 * first, against the contract, the record rules, itself and the store, every problem at once; then
 * written in one transaction, so a refused batch leaves the store as it was.
 *
 * With `upsert`, a record naming a passport the store holds updates it: the fields it gives replace
 * the stored ones, the others are kept (a given `manifest` or `card` replaces the whole document),
 * and the merged passport is checked like any other.
 */
import { checkImport, type Holders, type Problem, UNIQUE_FIELDS } from "./records.js";
import { type RegistryStore, StoreConflict } from "./store.js";

export type LoadResult =
  | { ok: true; agents: number; updated: number; skillFamilies: number }
  | { ok: false; problems: Problem[] };

/** `data` with each record that names a held passport merged over the stored one (only the fields it gives change). */
async function mergedWithStored(data: unknown, store: RegistryStore): Promise<{ data: unknown; updated: number }> {
  const file = data as { agents?: unknown };
  if (typeof data !== "object" || data === null || !Array.isArray(file.agents)) return { data, updated: 0 };
  let updated = 0;
  const agents = await Promise.all(
    file.agents.map(async (record: unknown) => {
      const name = (record as { name?: unknown } | null)?.name;
      const stored = typeof name === "string" ? await store.record(name) : undefined;
      if (!stored || typeof record !== "object") return record;
      updated += 1;
      return { ...stored, ...record };
    }),
  );
  return { data: { ...data, agents }, updated };
}

/** The store's holders of every unique value the file gives, read before the (synchronous) check. */
async function heldValues(data: unknown, store: RegistryStore): Promise<Holders> {
  const agents = (data as { agents?: unknown } | null)?.agents;
  const asked = (Array.isArray(agents) ? agents : []).flatMap((record) =>
    UNIQUE_FIELDS.flatMap((field) => {
      const value = (record as Record<string, unknown> | null)?.[field];
      return typeof value === "string" ? [[field, value] as const] : [];
    }),
  );
  const held = new Map(
    await Promise.all(
      asked.map(async ([field, value]) => [`${field}:${value}`, await store.holderOf(field, value)] as const),
    ),
  );
  return { holderOf: (field, value) => held.get(`${field}:${value}`) };
}

export async function loadRecords(
  store: RegistryStore,
  data: unknown,
  { upsert = false }: { upsert?: boolean } = {},
): Promise<LoadResult> {
  const merged = upsert ? await mergedWithStored(data, store) : { data, updated: 0 };
  const check = checkImport(merged.data, await store.skills(), {
    holders: await heldValues(merged.data, store),
    upsert,
  });
  if (!check.ok) return check;
  try {
    await store.write(check.batch, { upsert });
  } catch (error) {
    if (error instanceof StoreConflict) return { ok: false, problems: [{ at: error.at, message: error.message }] };
    throw error;
  }
  return {
    ok: true,
    agents: check.batch.agents.length,
    updated: merged.updated,
    skillFamilies: check.batch.skills?.length ?? 0,
  };
}
