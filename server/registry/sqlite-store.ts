/**
 * The registry store on SQLite (libsql, synchronous). One `passports` table keyed by the normalized
 * name holds native passports and bring-your-own-agent slugs alike, so the database itself refuses
 * a second holder of a name whatever its kind; `capabilities` references `skill_options`, so no
 * stored manifest can name a skill the catalog lacks.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "libsql";
import { useWal } from "../db/wal.js";
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

type Db = InstanceType<typeof Database>;

/** Schema changes in order; `schema_version` records how many have been applied. Append only. */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE passports (
     name TEXT PRIMARY KEY,
     kind TEXT NOT NULL CHECK (kind IN ('native', 'byoa')),
     display_name TEXT,
     asset_address TEXT NOT NULL UNIQUE,
     owner_wallet TEXT NOT NULL,
     description TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     primary_sol TEXT UNIQUE,
     manifest TEXT,
     card TEXT
   ) STRICT;
   CREATE INDEX passports_newest ON passports (created_at DESC, name);
   CREATE TABLE skill_families (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     description TEXT NOT NULL,
     position INTEGER NOT NULL
   ) STRICT;
   CREATE TABLE skill_options (
     family_id TEXT NOT NULL REFERENCES skill_families (id),
     id TEXT NOT NULL,
     name TEXT NOT NULL,
     description TEXT NOT NULL,
     position INTEGER NOT NULL,
     PRIMARY KEY (family_id, id)
   ) STRICT;
   CREATE TABLE capabilities (
     agent TEXT NOT NULL REFERENCES passports (name),
     family_id TEXT NOT NULL,
     option_id TEXT NOT NULL,
     PRIMARY KEY (agent, family_id, option_id),
     FOREIGN KEY (family_id, option_id) REFERENCES skill_options (family_id, id)
   ) STRICT;`,
];

/** Opens (creating its folder and file) and migrates the store at `path`; `:memory:` for tests. */
export function openSqliteStore(path: string): RegistryStore {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.exec("PRAGMA foreign_keys = ON");
  // WAL lets the service keep reading while an import writes from another process.
  useWal(db);
  migrate(db);
  return sqliteStore(db);
}

export const SCHEMA_VERSION = MIGRATIONS.length;

function migrate(db: Db): void {
  db.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL) STRICT");
  // IMMEDIATE takes the write lock first, so two processes opening a new file migrate it once.
  db.transaction(() => {
    const current = schemaVersion(db);
    if (current > MIGRATIONS.length) {
      throw new Error(
        `registry database schema version ${current} is newer than this code supports (${MIGRATIONS.length})`,
      );
    }
    for (const [index, sql] of MIGRATIONS.entries()) {
      if (index < current) continue;
      db.exec(sql);
      db.prepare("INSERT INTO schema_version (version) VALUES (?)").run(index + 1);
    }
  }).immediate();
}

function schemaVersion(db: Db): number {
  const row = db.prepare("SELECT coalesce(max(version), 0) AS version FROM schema_version").get() as {
    version: number;
  };
  return row.version;
}

/** Every statement of the store, prepared once. */
function statements(db: Db) {
  return {
    list: db.prepare(`SELECT ${PASSPORT_COLUMNS} FROM passports ORDER BY created_at DESC, name LIMIT ?`),
    passport: db.prepare(`SELECT ${PASSPORT_COLUMNS} FROM passports WHERE name = ?`),
    documents: db.prepare("SELECT manifest, card FROM passports WHERE name = ?"),
    families: db.prepare("SELECT id, name, description FROM skill_families ORDER BY position"),
    options: db.prepare("SELECT family_id, id, name, description FROM skill_options ORDER BY family_id, position"),
    counts: db.prepare("SELECT (SELECT count(*) FROM passports) + (SELECT count(*) FROM skill_families) AS n"),
    upsertFamily: db.prepare(
      `INSERT INTO skill_families (id, name, description, position)
       VALUES (?, ?, ?, (SELECT coalesce(max(position), -1) + 1 FROM skill_families))
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, description = excluded.description`,
    ),
    upsertOption: db.prepare(
      `INSERT INTO skill_options (family_id, id, name, description, position)
       VALUES (?1, ?2, ?3, ?4, (SELECT coalesce(max(position), -1) + 1 FROM skill_options WHERE family_id = ?1))
       ON CONFLICT (family_id, id) DO UPDATE SET name = excluded.name, description = excluded.description`,
    ),
    insertPassport: db.prepare(
      `INSERT INTO passports (${PASSPORT_COLUMNS}, manifest, card) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    replacePassport: db.prepare(
      `INSERT INTO passports (${PASSPORT_COLUMNS}, manifest, card) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET ${REPLACE_COLUMNS}`,
    ),
    dropCapabilities: db.prepare("DELETE FROM capabilities WHERE agent = ?"),
    holders: new Map(
      [...UNIQUE_COLUMNS].map(
        ([column, field]) => [field, db.prepare(`SELECT name, kind FROM passports WHERE ${column} = ?`)] as const,
      ),
    ),
    // A capability listed twice in one manifest is one capability.
    insertCapability: db.prepare("INSERT OR IGNORE INTO capabilities (agent, family_id, option_id) VALUES (?, ?, ?)"),
  };
}

type Statements = ReturnType<typeof statements>;

const documentsOf = (sql: Statements, name: string) => sql.documents.get(name) as DocumentsRow | undefined;

function holderOf(sql: Statements, field: UniqueField, value: string) {
  const row = sql.holders.get(field)?.get(value) as { name: string; kind: string } | undefined;
  return row && { name: row.name, kind: row.kind };
}

function insertPassport(sql: Statements, record: PassportRecord, at: string, upsert: boolean): void {
  try {
    if (upsert) sql.dropCapabilities.run(record.name);
    (upsert ? sql.replacePassport : sql.insertPassport).run(...passportValues(record));
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== "SQLITE_CONSTRAINT_PRIMARYKEY" && code !== "SQLITE_CONSTRAINT_UNIQUE") throw error;
    throw heldBy(record, at, upsert, (field, value) => holderOf(sql, field, value)) ?? error;
  }
  for (const [index, id] of (record.manifest?.capabilities ?? []).entries()) {
    const [family, option] = id.split(":");
    try {
      sql.insertCapability.run(record.name, family, option);
    } catch (error) {
      if ((error as { code?: string }).code !== "SQLITE_CONSTRAINT_FOREIGNKEY") throw error;
      throw unknownCapability(at, index, id);
    }
  }
}

function writeFamily(sql: Statements, family: SkillFamily): void {
  sql.upsertFamily.run(family.id, family.name, family.description);
  for (const option of family.options) sql.upsertOption.run(family.id, option.id, option.name, option.description);
}

function sqliteStore(db: Db): RegistryStore {
  const sql = statements(db);
  return {
    async listAgents(limit) {
      return (sql.list.all(limit) as PassportRow[]).map(listItem);
    },
    async findPassport(name) {
      const row = sql.passport.get(name) as PassportRow | undefined;
      return row && passportOf(row);
    },
    async manifest(name) {
      return manifestOf(documentsOf(sql, name));
    },
    async card(name) {
      return cardOf(documentsOf(sql, name));
    },
    async skills() {
      return catalogOf(
        sql.families.all() as Omit<SkillFamily, "options">[],
        sql.options.all() as Parameters<typeof catalogOf>[1],
      );
    },
    async isEmpty() {
      return (sql.counts.get() as { n: number }).n === 0;
    },
    async holderOf(field, value) {
      return holderOf(sql, field, value);
    },
    async record(name) {
      const row = sql.passport.get(name) as PassportRow | undefined;
      return row && recordOf(row, documentsOf(sql, name) ?? {});
    },
    async write(batch, { upsert = false } = {}) {
      db.transaction(() => {
        for (const family of batch.skills ?? []) writeFamily(sql, family);
        for (const [index, record] of batch.agents.entries()) insertPassport(sql, record, `agents[${index}]`, upsert);
      }).immediate();
    },
    // A synchronous read of the file: nothing to abort, and it holds no lock a writer waits for.
    async ping() {
      schemaVersion(db);
    },
    async close() {
      // Fold the WAL into the main file, so the .db file alone holds everything once closed.
      db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      db.close();
    },
  };
}
