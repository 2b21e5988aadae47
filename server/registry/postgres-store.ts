/**
 * The registry store on PostgreSQL, shared by every instance: the same tables and constraints as on
 * SQLite (one `passports` table keyed by the normalized name, so the database refuses a second
 * holder of a name whatever its kind; capabilities reference the skill catalog). A batch is one
 * transaction; a refused passport is rolled back to its savepoint, its holder named from inside the
 * transaction (so that earlier records of the batch count), then the whole batch rolled back.
 */
import { type Database, type Query, type Row, violation } from "../db/database.js";
import type { UniqueField } from "./records.js";
import type { PassportRecord, RegistryStore, SkillFamily } from "./store.js";
import {
  cardOf,
  catalogOf,
  type DocumentsRow,
  heldBy,
  listItem,
  manifestOf,
  PASSPORT_COLUMNS,
  type PassportRow,
  passportOf,
  passportValues,
  REPLACE_COLUMNS,
  recordOf,
  UNIQUE_COLUMNS,
  unknownCapability,
} from "./store-rows.js";

/** Append only: each entry is one statement, applied once under the migration lock. */
export const REGISTRY_MIGRATIONS: readonly string[] = [
  `CREATE TABLE passports (
     name TEXT PRIMARY KEY,
     kind TEXT NOT NULL CHECK (kind IN ('native', 'byoa')),
     display_name TEXT,
     asset_address TEXT NOT NULL UNIQUE,
     owner_wallet TEXT NOT NULL,
     description TEXT NOT NULL,
     created_at BIGINT NOT NULL,
     primary_sol TEXT UNIQUE,
     manifest TEXT,
     card TEXT
   )`,
  'CREATE INDEX passports_newest ON passports (created_at DESC, name COLLATE "C")',
  `CREATE TABLE skill_families (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     description TEXT NOT NULL,
     position INTEGER NOT NULL
   )`,
  `CREATE TABLE skill_options (
     family_id TEXT NOT NULL REFERENCES skill_families (id),
     id TEXT NOT NULL,
     name TEXT NOT NULL,
     description TEXT NOT NULL,
     position INTEGER NOT NULL,
     PRIMARY KEY (family_id, id)
   )`,
  `CREATE TABLE capabilities (
     agent TEXT NOT NULL REFERENCES passports (name),
     family_id TEXT NOT NULL,
     option_id TEXT NOT NULL,
     PRIMARY KEY (agent, family_id, option_id),
     FOREIGN KEY (family_id, option_id) REFERENCES skill_options (family_id, id)
   )`,
];

const SQL = {
  list: `SELECT ${PASSPORT_COLUMNS} FROM passports ORDER BY created_at DESC, name COLLATE "C" LIMIT $1`,
  passport: `SELECT ${PASSPORT_COLUMNS} FROM passports WHERE name = $1`,
  documents: "SELECT manifest, card FROM passports WHERE name = $1",
  families: "SELECT id, name, description FROM skill_families ORDER BY position",
  options: 'SELECT family_id, id, name, description FROM skill_options ORDER BY family_id COLLATE "C", position',
  counts: "SELECT (SELECT count(*) FROM passports) + (SELECT count(*) FROM skill_families) AS n",
  upsertFamily: `INSERT INTO skill_families (id, name, description, position)
                 VALUES ($1, $2, $3, (SELECT coalesce(max(position), -1) + 1 FROM skill_families))
                 ON CONFLICT (id) DO UPDATE SET name = excluded.name, description = excluded.description`,
  upsertOption: `INSERT INTO skill_options (family_id, id, name, description, position)
                 VALUES ($1, $2, $3, $4, (SELECT coalesce(max(position), -1) + 1 FROM skill_options WHERE family_id = $1))
                 ON CONFLICT (family_id, id) DO UPDATE SET name = excluded.name, description = excluded.description`,
  insertPassport: `INSERT INTO passports (${PASSPORT_COLUMNS}, manifest, card) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
  replacePassport: `INSERT INTO passports (${PASSPORT_COLUMNS}, manifest, card) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
                    ON CONFLICT (name) DO UPDATE SET ${REPLACE_COLUMNS}`,
  dropCapabilities: "DELETE FROM capabilities WHERE agent = $1",
  // A capability listed twice in one manifest is one capability.
  insertCapability: "INSERT INTO capabilities (agent, family_id, option_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
  holders: new Map(
    [...UNIQUE_COLUMNS].map(([column, field]) => [field, `SELECT name, kind FROM passports WHERE ${column} = $1`]),
  ),
  holdersOf: `SELECT name, kind, asset_address, primary_sol FROM passports WHERE name = $1 OR asset_address = $2 OR primary_sol = $3`,
};

/** The holders of `record`'s unique values, read with `q` (inside the refused write's transaction). */
async function holdersOf(q: Query, record: PassportRecord) {
  const rows = await q(SQL.holdersOf, [record.name, record.assetAddress, record.primarySol ?? null]);
  const column: Record<UniqueField, string> = {
    name: "name",
    assetAddress: "asset_address",
    primarySol: "primary_sol",
  };
  return (field: UniqueField, value: string) => {
    const row = rows.find((r) => r[column[field]] === value);
    return row && { name: row.name as string, kind: row.kind as string };
  };
}

async function insertPassport(q: Query, record: PassportRecord, at: string, upsert: boolean): Promise<void> {
  if (upsert) await q(SQL.dropCapabilities, [record.name]);
  await q("SAVEPOINT passport");
  try {
    await q(upsert ? SQL.replacePassport : SQL.insertPassport, passportValues(record));
  } catch (error) {
    if (violation(error) !== "unique") throw error;
    await q("ROLLBACK TO SAVEPOINT passport");
    throw heldBy(record, at, upsert, await holdersOf(q, record)) ?? error;
  }
  for (const [index, id] of (record.manifest?.capabilities ?? []).entries()) {
    const [family, option] = id.split(":");
    try {
      await q(SQL.insertCapability, [record.name, family, option]);
    } catch (error) {
      throw violation(error) === "foreign_key" ? unknownCapability(at, index, id) : error;
    }
  }
}

async function writeFamily(q: Query, family: SkillFamily): Promise<void> {
  await q(SQL.upsertFamily, [family.id, family.name, family.description]);
  for (const option of family.options)
    await q(SQL.upsertOption, [family.id, option.id, option.name, option.description]);
}

/** The registry in `database` (migrated first). Closing it leaves the database open: its owner closes that. */
export async function openPostgresStore(database: Database): Promise<RegistryStore> {
  await database.migrate("registry", REGISTRY_MIGRATIONS);
  const { query } = database;
  const one = async (sql: string, values: unknown[]) => (await query(sql, values))[0];
  const passport = async (name: string) => (await one(SQL.passport, [name])) as PassportRow | undefined;
  const documents = async (name: string) => (await one(SQL.documents, [name])) as DocumentsRow | undefined;

  return {
    async listAgents(limit) {
      return ((await query(SQL.list, [limit])) as PassportRow[]).map(listItem);
    },
    async findPassport(name) {
      const row = await passport(name);
      return row && passportOf(row);
    },
    manifest: async (name) => manifestOf(await documents(name)),
    card: async (name) => cardOf(await documents(name)),
    async skills() {
      const [families, options] = await Promise.all([query(SQL.families), query(SQL.options)]);
      return catalogOf(families as Omit<SkillFamily, "options">[], options as Parameters<typeof catalogOf>[1]);
    },
    async isEmpty() {
      return Number((await one(SQL.counts, []))?.n) === 0;
    },
    async holderOf(field, value) {
      const row: Row | undefined = await one(SQL.holders.get(field) as string, [value]);
      return row && { name: row.name as string, kind: row.kind as string };
    },
    async record(name) {
      const row = await passport(name);
      return row && recordOf(row, (await documents(name)) ?? {});
    },
    async write(batch, { upsert = false } = {}) {
      await database.transaction(async (q) => {
        for (const family of batch.skills ?? []) await writeFamily(q, family);
        for (const [index, record] of batch.agents.entries())
          await insertPassport(q, record, `agents[${index}]`, upsert);
      });
    },
    // A round trip to the database; the readiness probe bounds how long it may take.
    async ping() {
      await database.query("SELECT 1");
    },
    async close() {},
  };
}
