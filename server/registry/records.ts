/**
 * Checks an import file (or the seed) as a whole before anything is written: the contract's
 * `RegistryImport` schema, the rules documented on `PassportRecord` that a schema cannot express,
 * values given twice in the file, and values the store already holds (read through `Holders`). It
 * reports every problem it finds in one pass, naming the record and field of each.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { registryDocument } from "./document.js";
import { checkName } from "./names.js";
import type { RegistryImport, SkillFamily } from "./store.js";

/** One thing wrong with a file: where (`agents[3].ownerWallet`) and what. */
export type Problem = { at: string; message: string };

export function formatProblem({ at, message }: Problem): string {
  return `${at}: ${message}`;
}

export type ImportCheck = { ok: true; batch: RegistryImport } | { ok: false; problems: Problem[] };

/** The import file's schema, compiled on the first check (a start on a seeded store needs none). */
let validateFile: ValidateFunction | undefined;

/** The fields no two passports may share, in report order. */
export const UNIQUE_FIELDS = ["name", "assetAddress", "primarySol"] as const;
export type UniqueField = (typeof UNIQUE_FIELDS)[number];

/** Who already holds a unique value in the store (read-only; the check stays free of writes). */
export interface Holders {
  holderOf(field: UniqueField, value: string): { name: string; kind: string } | undefined;
}

export interface CheckOptions {
  /** The store's holders: values already held are problems (except a passport's own, when updating). */
  holders?: Holders;
  /** Records naming a held passport update it (the caller merged the stored fields in first). */
  upsert?: boolean;
}

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Checks `data` against the contract, the record rules, the other records of the file and the
 * store, all in one pass: every problem is reported, each with its location, whatever else is
 * wrong. `catalog` is the store's skill catalog.
 */
export function checkImport(
  data: unknown,
  catalog: SkillFamily[],
  { holders, upsert = false }: CheckOptions = {},
): ImportCheck {
  validateFile ??= importSchema();
  const problems = validateFile(data) ? [] : (validateFile.errors ?? []).map(schemaProblem);
  const file = isObject(data) ? data : {};
  const agents = Array.isArray(file.agents) ? file.agents : [];
  const families = (Array.isArray(file.skills) ? file.skills : []).filter(
    (family): family is SkillFamily =>
      isObject(family) && typeof family.id === "string" && Array.isArray(family.options),
  );
  const known = new Set(
    [...catalog, ...families].flatMap((family) =>
      family.options.filter(isObject).map((option) => `${family.id}:${option.id}`),
    ),
  );
  for (const [index, record] of agents.entries()) {
    if (!isObject(record)) continue;
    for (const { at, message } of recordProblems(record, known))
      problems.push({ at: `agents[${index}]${at}`, message });
  }
  problems.push(...duplicateProblems(agents), ...(holders ? heldProblems(agents, holders, upsert) : []));
  return problems.length ? { ok: false, problems: ordered(problems) } : { ok: true, batch: data as RegistryImport };
}

/** Problems in file order (`agents[2]` before `agents[10]`), each reported once. */
function ordered(problems: Problem[]): Problem[] {
  const unique = [...new Map(problems.map((p) => [`${p.at}\u0000${p.message}`, p])).values()];
  return unique.sort((a, b) => a.at.localeCompare(b.at, "en", { numeric: true }));
}

/** Each unique value given twice in the file: the later record is at fault. Names compare normalized. */
function duplicateProblems(agents: unknown[]): Problem[] {
  const first = new Map<string, number>();
  const problems: Problem[] = [];
  for (const [index, record] of agents.entries()) {
    if (!isObject(record)) continue;
    for (const field of UNIQUE_FIELDS) {
      const value = record[field];
      if (typeof value !== "string") continue;
      const name = field === "name" ? checkName(value) : undefined;
      const key = `${field}:${name && name.status !== "invalid" ? name.normalized : value}`;
      const earlier = first.get(key);
      if (earlier === undefined) first.set(key, index);
      else
        problems.push({
          at: `agents[${index}].${field}`,
          message: `"${value}" is also given by agents[${earlier}].${field}`,
        });
    }
  }
  return problems;
}

/** Each unique value another passport of the store already holds. */
function heldProblems(agents: unknown[], holders: Holders, upsert: boolean): Problem[] {
  const problems: Problem[] = [];
  for (const [index, record] of agents.entries()) {
    if (!isObject(record)) continue;
    for (const field of UNIQUE_FIELDS) {
      const value = record[field];
      const holder = typeof value === "string" ? holders.holderOf(field, value) : undefined;
      if (!holder || (upsert && holder.name === record.name)) continue;
      const hint = field === "name" && !upsert ? " (--upsert updates it)" : "";
      problems.push({
        at: `agents[${index}].${field}`,
        message: `"${value}" is already held by the ${holder.kind} passport "${holder.name}"${hint}`,
      });
    }
  }
  return problems;
}

/** Problems of one record, whatever its schema problems; `at` is relative to the record. */
function recordProblems(record: Loose, capabilities: ReadonlySet<string>): Problem[] {
  const problems: Problem[] = [];
  if (typeof record.name !== "string") return problems;
  const name = checkName(record.name);
  if (name.status === "invalid") problems.push({ at: ".name", message: name.message });
  else if (name.status === "reserved") problems.push({ at: ".name", message: `"${record.name}" is a reserved name` });
  else if (name.normalized !== record.name) {
    problems.push({
      at: ".name",
      message: `must be normalized: use "${name.normalized}" (keep the original casing in displayName)`,
    });
  }
  const spellsName = (raw: unknown) => {
    const check = typeof raw === "string" ? checkName(raw) : undefined;
    return check !== undefined && check.status !== "invalid" && check.normalized === record.name;
  };
  if (typeof record.displayName === "string" && !spellsName(record.displayName)) {
    problems.push({ at: ".displayName", message: `must normalize to the name "${record.name}"` });
  }
  if (record.kind === "byoa" && record.displayName === undefined) {
    problems.push({ at: ".displayName", message: "is required on a byoa passport (its original casing)" });
  }
  const manifest = isObject(record.manifest) ? record.manifest : undefined;
  if (manifest && typeof manifest.name === "string" && !spellsName(manifest.name)) {
    problems.push({ at: ".manifest.name", message: `must normalize to the name "${record.name}"` });
  }
  for (const [index, id] of (Array.isArray(manifest?.capabilities) ? manifest.capabilities : []).entries()) {
    if (typeof id === "string" && !capabilities.has(id)) {
      problems.push({
        at: `.manifest.capabilities[${index}]`,
        message: `"${id}" does not resolve in the skill catalog`,
      });
    }
  }
  return problems;
}

/** Ajv 2020 over the document's components, so every `$ref` of the import schema resolves in place. */
function importSchema(): ValidateFunction {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  ajv.addSchema({ $id: "registry", components: registryDocument.components });
  const validate = ajv.getSchema("registry#/components/schemas/RegistryImport");
  if (!validate) throw new Error("the registry document has no RegistryImport schema");
  return validate;
}

function schemaProblem(error: ErrorObject): Problem {
  // The sealed records (`...Record<never>`) refuse an unknown field as `unevaluatedProperties: {not: {}}`.
  const unknownField = error.keyword === "not" && error.schemaPath.includes("/unevaluatedProperties/");
  return {
    at: fieldPath(error.instancePath),
    message: unknownField ? "is not a field of the import format" : (error.message ?? "is invalid"),
  };
}

/** `/agents/3/manifest/capabilities/0` → `agents[3].manifest.capabilities[0]`; the root is `file`. */
function fieldPath(pointer: string): string {
  const steps = pointer.split("/").slice(1).filter(Boolean);
  if (!steps.length) return "file";
  return steps
    .map((step, i) =>
      /^\d+$/.test(step) ? `[${step}]` : `${i ? "." : ""}${step.replace(/~1/g, "/").replace(/~0/g, "~")}`,
    )
    .join("");
}
