/**
 * `npm run registry:import -- file.json [--db path] [--upsert]`: loads passports and skill families
 * into the registry store (default: the PostgreSQL database of `DATABASE_URL` when set, else the
 * SQLite file of `REGISTRY_DB`, else `data/registry.db`).
 *
 * The file has the contract's `RegistryImport` shape (spec/registry/import.tsp):
 * `{ "agents": [PassportRecord, ...], "skills"?: [SkillFamily, ...] }`, where a PassportRecord is an
 * `AgentListItem` (`name` already normalized) plus optional `primarySol`, `manifest` and `card`.
 * server/registry/seed.json is a complete example. The whole file is checked first and written in
 * one transaction: a bad file prints every problem at once, naming record and field, exits 1 and
 * writes nothing. `--upsert` lets a record update the passport of its name with the fields it gives.
 * Exit codes: 0 imported, 1 refused, 2 usage.
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { registryConfig } from "../config/registry.js";
import { storeSettings } from "../config/store-settings.js";
import { type Database, openDatabase } from "../db/database.js";
import { loadRecords } from "./load.js";
import { formatProblem } from "./records.js";
import { openRegistryStore } from "./seed.js";

const USAGE = `usage: npm run registry:import -- <file.json> [--db <path>] [--upsert]

Loads passports and skill families into the registry store, all or nothing, in one transaction. The file is
{ "agents": [PassportRecord...], "skills"?: [SkillFamily...] } (spec/registry/import.tsp; server/registry/seed.json
is a full example). Every problem of the file is reported at once, each with its place (agents[3].ownerWallet):
the schema, the name rule, capabilities that do not resolve in the catalog, values given twice in the file, and
values another passport already holds.

  --db <path>   the SQLite registry database (default: the PostgreSQL database of DATABASE_URL when set,
                else REGISTRY_DB, else data/registry.db)
  --upsert      a record naming a passport that exists updates it: only the fields it gives change
                (e.g. { "agents": [{ "name": "orbit-scout", "description": "New text." }] })
  --help        this text

Exit: 0 imported, 1 refused (nothing written), 2 wrong usage.`;

/** Runs the command; returns the exit code and what to print on stdout or stderr. */
export async function runImport(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number; out?: string; err?: string }> {
  let file: string;
  let dbPath: string | undefined;
  let upsert: boolean;
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { db: { type: "string" }, upsert: { type: "boolean" }, help: { type: "boolean", short: "h" } },
      allowPositionals: true,
    });
    if (values.help) return { code: 0, out: USAGE };
    if (positionals.length !== 1) return { code: 2, err: USAGE };
    file = positionals[0] as string;
    dbPath = values.db;
    upsert = values.upsert ?? false;
  } catch (error) {
    return { code: 2, err: `${(error as Error).message}\n${USAGE}` };
  }
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    return { code: 1, err: `${file} was refused, nothing was written: ${(error as Error).message}` };
  }
  const settings = dbPath === undefined ? storeSettings(env).database : undefined;
  const database: Database | undefined = settings && openDatabase(settings);
  const target = database ?? dbPath ?? registryConfig(env).dbPath;
  const where = settings ? `the PostgreSQL schema ${settings.schema}` : (target as string);
  const store = await openRegistryStore(target).catch(async (error) => {
    await database?.close();
    throw error;
  });
  try {
    const result = await loadRecords(store, data, { upsert });
    if (!result.ok) {
      const lines = result.problems.map((problem) => `  ${formatProblem(problem)}`);
      return {
        code: 1,
        err: [
          `${file} was refused, nothing was written (${plural(result.problems.length, "problem")}):`,
          ...lines,
        ].join("\n"),
      };
    }
    return {
      code: 0,
      out: `imported ${plural(result.agents, "passport")}${upsert ? ` (${result.updated} updated)` : ""} and ${plural(result.skillFamilies, "skill family", "skill families")} from ${file} into ${where}`,
    };
  } finally {
    await store.close();
    await database?.close();
  }
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { code, out, err } = await runImport(process.argv.slice(2));
  if (out) console.log(out);
  if (err) console.error(err);
  process.exitCode = code;
}
