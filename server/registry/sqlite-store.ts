/**
 * The registry store on SQLite (libsql, synchronous). One `passports` table keyed by the normalized
 * name holds native passports and bring-your-own-agent slugs alike, so the database itself refuses
 * a second holder of a name whatever its kind; `capabilities` references `skill_options`, so no
 * stored manifest can name a skill the catalog lacks.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "libsql";
import {
  type AgentListItem,
  type IdentityCard,
  type Manifest,
  type PassportRecord,
  type RegistryStore,
  type SkillFamily,
  StoreConflict,
} from "./store.js";

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
  db.exec("PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000");
  // WAL lets the service keep reading while an import writes from another process.
  if (path !== ":memory:") db.exec("PRAGMA journal_mode = WAL");
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
      throw new Error(`registry database schema version ${current} is newer than this code supports (${MIGRATIONS.length})`);
    }
    for (const [index, sql] of MIGRATIONS.entries()) {
      if (index < current) continue;
      db.exec(sql);
      db.prepare("INSERT INTO schema_version (version) VALUES (?)").run(index + 1);
    }
  }).immediate();
}

function schemaVersion(db: Db): number {
  const row = db.prepare("SELECT coalesce(max(version), 0) AS version FROM schema_version").get() as { version: number };
  return row.version;
}

type PassportRow = {
  name: string;
  kind: "native" | "byoa";
  display_name: string | null;
  asset_address: string;
  owner_wallet: string;
  description: string;
  created_at: number;
  primary_sol: string | null;
};

const PASSPORT_COLUMNS = "name, kind, display_name, asset_address, owner_wallet, description, created_at, primary_sol";

/** Unique `passports` columns a write can collide on, with the record field that fills each, in report order. */
const UNIQUE_FIELDS = new Map<string, "name" | "assetAddress" | "primarySol">([
  ["name", "name"],
  ["asset_address", "assetAddress"],
  ["primary_sol", "primarySol"],
]);

function sqliteStore(db: Db): RegistryStore {
  const sql = {
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
    insertPassport: db.prepare(`INSERT INTO passports (${PASSPORT_COLUMNS}, manifest, card) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    replacePassport: db.prepare(
      `INSERT INTO passports (${PASSPORT_COLUMNS}, manifest, card) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET ${PASSPORT_COLUMNS.split(", ")
         .slice(1)
         .concat("manifest", "card")
         .map((column) => `${column} = excluded.${column}`)
         .join(", ")}`,
    ),
    dropCapabilities: db.prepare("DELETE FROM capabilities WHERE agent = ?"),
    holders: new Map(
      [...UNIQUE_FIELDS].map(([column, field]) => [field, db.prepare(`SELECT name, kind FROM passports WHERE ${column} = ?`)] as const),
    ),
    // A capability listed twice in one manifest is one capability.
    insertCapability: db.prepare("INSERT OR IGNORE INTO capabilities (agent, family_id, option_id) VALUES (?, ?, ?)"),
  };

  const documents = (name: string) => sql.documents.get(name) as { manifest: string | null; card: string | null } | undefined;

  function insertPassport(record: PassportRecord, at: string, upsert: boolean): void {
    try {
      if (upsert) sql.dropCapabilities.run(record.name);
      (upsert ? sql.replacePassport : sql.insertPassport).run(
        record.name,
        record.kind ?? "native",
        record.displayName ?? null,
        record.assetAddress,
        record.ownerWallet,
        record.description,
        record.createdAt,
        record.primarySol ?? null,
        record.manifest ? JSON.stringify(record.manifest) : null,
        record.card ? JSON.stringify(record.card) : null,
      );
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== "SQLITE_CONSTRAINT_PRIMARYKEY" && code !== "SQLITE_CONSTRAINT_UNIQUE") throw error;
      throw heldBy(record, at, upsert) ?? error;
    }
    for (const [index, id] of (record.manifest?.capabilities ?? []).entries()) {
      const [family, option] = id.split(":");
      try {
        sql.insertCapability.run(record.name, family, option);
      } catch (error) {
        if ((error as { code?: string }).code !== "SQLITE_CONSTRAINT_FOREIGNKEY") throw error;
        throw new StoreConflict(`${at}.manifest.capabilities[${index}]`, `"${id}" does not resolve in the skill catalog`);
      }
    }
  }

  const holderOf: RegistryStore["holderOf"] = (field, value) => {
    const row = sql.holders.get(field)?.get(value) as { name: string; kind: string } | undefined;
    return row && { name: row.name, kind: row.kind };
  };

  /** The first unique field of `record` another passport already holds (or, without upsert, its name), as a conflict. */
  function heldBy(record: PassportRecord, at: string, upsert: boolean): StoreConflict | undefined {
    for (const field of UNIQUE_FIELDS.values()) {
      const value = record[field];
      const holder = value == null ? undefined : holderOf(field, value);
      if (holder && !(upsert && holder.name === record.name))
        return new StoreConflict(`${at}.${field}`, `"${value}" is already held by the ${holder.kind} passport "${holder.name}"`);
    }
    return undefined;
  }

  function writeFamily(family: SkillFamily): void {
    sql.upsertFamily.run(family.id, family.name, family.description);
    for (const option of family.options) sql.upsertOption.run(family.id, option.id, option.name, option.description);
  }

  return {
    listAgents(limit) {
      return (sql.list.all(limit) as PassportRow[]).map(listItem);
    },
    findPassport(name) {
      const row = sql.passport.get(name) as PassportRow | undefined;
      return row && { ...listItem(row), displayName: row.display_name ?? row.name, primarySol: row.primary_sol };
    },
    manifest(name) {
      const json = documents(name)?.manifest;
      return json ? (JSON.parse(json) as Manifest) : undefined;
    },
    card(name) {
      const json = documents(name)?.card;
      return json ? (JSON.parse(json) as IdentityCard) : undefined;
    },
    skills() {
      const options = sql.options.all() as { family_id: string; id: string; name: string; description: string }[];
      return (sql.families.all() as Omit<SkillFamily, "options">[]).map((family) => ({
        id: family.id,
        name: family.name,
        description: family.description,
        options: options.filter((o) => o.family_id === family.id).map(({ id, name, description }) => ({ id, name, description })),
      }));
    },
    isEmpty() {
      return (sql.counts.get() as { n: number }).n === 0;
    },
    holderOf,
    record(name) {
      const row = sql.passport.get(name) as PassportRow | undefined;
      if (!row) return undefined;
      const { manifest, card } = documents(name) ?? {};
      return {
        ...listItem(row),
        ...(row.kind === "native" && row.display_name !== null ? { displayName: row.display_name } : {}),
        ...(row.primary_sol !== null ? { primarySol: row.primary_sol } : {}),
        ...(manifest ? { manifest: JSON.parse(manifest) } : {}),
        ...(card ? { card: JSON.parse(card) } : {}),
      };
    },
    write(batch, { upsert = false } = {}) {
      db.transaction(() => {
        for (const family of batch.skills ?? []) writeFamily(family);
        for (const [index, record] of batch.agents.entries()) insertPassport(record, `agents[${index}]`, upsert);
      }).immediate();
    },
    close() {
      // Fold the WAL into the main file, so the .db file alone holds everything once closed.
      db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
      db.close();
    },
  };
}

/** The list shape: only bring-your-own-agent passports carry their kind and original casing. */
function listItem(row: PassportRow): AgentListItem {
  const item: AgentListItem = {
    name: row.name,
    assetAddress: row.asset_address,
    ownerWallet: row.owner_wallet,
    description: row.description,
    createdAt: row.created_at,
  };
  return row.kind === "byoa" ? { ...item, kind: "byoa", displayName: row.display_name ?? row.name } : item;
}
