/**
 * Checks an import file (or the seed) as a whole before anything is written: the contract's
 * `RegistryImport` schema first, then the rules documented on `PassportRecord` that a schema cannot
 * express. Pure: it reports every problem it finds, naming the record and field of each.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { registryDocument } from "./document.js";
import { checkName } from "./names.js";
import type { PassportRecord, RegistryImport, SkillFamily } from "./store.js";

/** One thing wrong with a file: where (`agents[3].ownerWallet`) and what. */
export type Problem = { at: string; message: string };

export function formatProblem({ at, message }: Problem): string {
  return `${at}: ${message}`;
}

export type ImportCheck = { ok: true; batch: RegistryImport } | { ok: false; problems: Problem[] };

const validateFile = importSchema();

/** Checks `data` against the contract and the record rules; `catalog` is the store's skill catalog. */
export function checkImport(data: unknown, catalog: SkillFamily[]): ImportCheck {
  if (!validateFile(data)) return { ok: false, problems: (validateFile.errors ?? []).map(schemaProblem) };
  const batch = data as RegistryImport;
  const known = new Set(
    [...catalog, ...(batch.skills ?? [])].flatMap((family) => family.options.map((option) => `${family.id}:${option.id}`)),
  );
  const problems = batch.agents.flatMap((record, index) =>
    recordProblems(record, known).map(({ at, message }) => ({ at: `agents[${index}]${at}`, message })),
  );
  return problems.length ? { ok: false, problems } : { ok: true, batch };
}

/** Problems of one record that already matches the schema; `at` is relative to the record. */
function recordProblems(record: PassportRecord, capabilities: ReadonlySet<string>): Problem[] {
  const problems: Problem[] = [];
  const name = checkName(record.name);
  if (name.status === "invalid") problems.push({ at: ".name", message: name.message });
  else if (name.status === "reserved") problems.push({ at: ".name", message: `"${record.name}" is a reserved name` });
  else if (name.normalized !== record.name) {
    problems.push({ at: ".name", message: `must be normalized: use "${name.normalized}" (keep the original casing in displayName)` });
  }
  const spellsName = (raw: string) => {
    const check = checkName(raw);
    return check.status !== "invalid" && check.normalized === record.name;
  };
  if (record.displayName !== undefined && !spellsName(record.displayName)) {
    problems.push({ at: ".displayName", message: `must normalize to the name "${record.name}"` });
  }
  if (record.kind === "byoa" && record.displayName === undefined) {
    problems.push({ at: ".displayName", message: "is required on a byoa passport (its original casing)" });
  }
  if (record.manifest && !spellsName(record.manifest.name)) {
    problems.push({ at: ".manifest.name", message: `must normalize to the name "${record.name}"` });
  }
  for (const [index, id] of (record.manifest?.capabilities ?? []).entries()) {
    if (!capabilities.has(id)) {
      problems.push({ at: `.manifest.capabilities[${index}]`, message: `"${id}" does not resolve in the skill catalog` });
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
    .map((step, i) => (/^\d+$/.test(step) ? `[${step}]` : `${i ? "." : ""}${step.replace(/~1/g, "/").replace(/~0/g, "~")}`))
    .join("");
}
