// `npm run breaking-changes [-- --rev REV]`: compares the generated OpenAPI 3.1 documents of the working tree with
// those of a git revision and fails on any breaking change not acknowledged (with a reason) in
// conformance/breaking-changes.acknowledged.json.
//
// Or against a running deployment: `--base-url URL [--registry-url URL]` compares with the documents it serves.
//
// Default revision: `main` when that branch exists, else HEAD. On main itself that is the last commit, so the
// check sees exactly what the working tree changes; on a feature branch it sees everything the branch changes.
// CI on a pull request can pass `--rev origin/main` (or BREAKING_BASE_REV).
//
// Breaking: a removed operation or response, a removed response field, a changed type (a response that may now
// carry a type the client did not expect; a request that no longer accepts one it did), a narrowed request enum
// or range (raised minimum, lowered maximum, shorter maximum length, new or changed pattern), a new required parameter or body field (or a body that became required), a changed price.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { commandLine } from "../lib/command-line.mjs";
import { parameterOf } from "../lib/openapi-refs.mjs";

const SERVICES = ["analytics", "registry"];
const ACKNOWLEDGED = "conformance/breaking-changes.acknowledged.json";
const MAX_DEPTH = 12;

/** A schema reduced to what compatibility depends on: types, enum, properties (with required), items. */
function shapeOf(doc, schema, depth = 0, refs = []) {
  const shape = {
    types: new Set(),
    enum: undefined,
    properties: new Map(),
    required: new Set(),
    items: undefined,
    bounds: {},
  };
  if (!schema || typeof schema !== "object" || depth > MAX_DEPTH) return shape;
  if (schema.$ref) {
    if (refs.includes(schema.$ref)) return shape;
    const target = schema.$ref.split("/").pop();
    return merge(
      shapeOf(doc, doc.components?.schemas?.[decodeURIComponent(target)], depth + 1, [...refs, schema.$ref]),
      own(doc, schema, depth, refs),
    );
  }
  return own(doc, schema, depth, refs, shape);
}

const BOUNDS = ["minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "minLength", "maxLength", "pattern"];

function own(
  doc,
  schema,
  depth,
  refs,
  shape = { types: new Set(), properties: new Map(), required: new Set(), bounds: {} },
) {
  for (const key of BOUNDS) if (schema[key] !== undefined) shape.bounds[key] = schema[key];
  for (const type of [schema.type ?? []].flat()) shape.types.add(type);
  if (schema.type === undefined && schema.properties) shape.types.add("object");
  if (Array.isArray(schema.enum)) shape.enum = schema.enum.map(String);
  // an object closed to fields it does not name: `false`, or `{not: {}}` as TypeSpec writes `...Record<never>`
  const closing = (rest) => rest === false || JSON.stringify(rest) === '{"not":{}}';
  if (closing(schema.unevaluatedProperties) || closing(schema.additionalProperties)) shape.closed = true;
  if (schema.const !== undefined) shape.enum = [String(schema.const)];
  for (const [name, property] of Object.entries(schema.properties ?? {}))
    shape.properties.set(name, shapeOf(doc, property, depth + 1, refs));
  for (const name of schema.required ?? []) shape.required.add(name);
  if (schema.items) shape.items = shapeOf(doc, schema.items, depth + 1, refs);
  for (const member of schema.allOf ?? []) merge(shape, shapeOf(doc, member, depth + 1, refs));
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const shapes = branches.map((branch) => shapeOf(doc, branch, depth + 1, refs));
    for (const branch of shapes) merge(shape, { ...branch, required: new Set() });
    const enums = shapes.map((s) => s.enum);
    if (enums.every(Boolean)) shape.enum = [...new Set(enums.flat())];
  }
  return shape;
}

function merge(into, from) {
  for (const type of from.types) into.types.add(type);
  for (const [name, property] of from.properties)
    into.properties.set(name, into.properties.has(name) ? merge(into.properties.get(name), property) : property);
  for (const name of from.required) into.required.add(name);
  into.enum ??= from.enum;
  into.bounds = { ...from.bounds, ...into.bounds };
  into.items ??= from.items;
  into.closed ||= from.closed;
  return into;
}

/** A request bound that rejects values the old one accepted: a raised minimum, a lowered maximum, a new or changed pattern. */
function narrowedBounds(before, after) {
  const lower = (b) => Math.max(b.minimum ?? -Infinity, b.exclusiveMinimum ?? -Infinity);
  const upper = (b) => Math.min(b.maximum ?? Infinity, b.exclusiveMaximum ?? Infinity);
  const strictLow = (b) => b.exclusiveMinimum !== undefined && b.exclusiveMinimum >= (b.minimum ?? -Infinity);
  const strictHigh = (b) => b.exclusiveMaximum !== undefined && b.exclusiveMaximum <= (b.maximum ?? Infinity);
  const found = [];
  if (lower(after) > lower(before) || (lower(after) === lower(before) && strictLow(after) && !strictLow(before)))
    found.push(`minimum ${lower(before)} → ${strictLow(after) ? ">" : ""}${lower(after)}`);
  if (upper(after) < upper(before) || (upper(after) === upper(before) && strictHigh(after) && !strictHigh(before)))
    found.push(`maximum ${upper(before)} → ${strictHigh(after) ? "<" : ""}${upper(after)}`);
  if ((after.minLength ?? 0) > (before.minLength ?? 0))
    found.push(`minLength ${before.minLength ?? 0} → ${after.minLength}`);
  if ((after.maxLength ?? Infinity) < (before.maxLength ?? Infinity))
    found.push(`maxLength ${before.maxLength ?? "none"} → ${after.maxLength}`);
  if (after.pattern !== undefined && after.pattern !== before.pattern)
    found.push(`pattern ${before.pattern ?? "none"} → ${after.pattern}`);
  return found;
}

const admits = (types, type) => types.size === 0 || types.has(type) || (type === "integer" && types.has("number"));
const list = (set) => [...set].sort().join("|") || "any";

/** Changes between two shapes; `mode` is "request" (what the server accepts) or "response" (what clients receive). */
function compareShapes(before, after, mode, field, add) {
  const [narrower, wider] = mode === "request" ? [after, before] : [before, after];
  if ([...wider.types].some((type) => !admits(narrower.types, type)))
    add("changed-type", `${field} type changed from ${list(before.types)} to ${list(after.types)}`);
  if (mode === "request")
    for (const change of narrowedBounds(before.bounds, after.bounds)) add("narrowed-range", `${field} ${change}`);
  if (mode === "request" && after.enum) {
    const removed = (before.enum ?? ["(any value)"]).filter((value) => !after.enum.includes(value));
    if (removed.length) add("narrowed-enum", `${field} no longer accepts ${removed.join(", ")}`);
  }
  for (const [name, property] of before.properties) {
    const inner = `${field}.${name}`;
    if (!after.properties.has(name)) {
      if (mode === "response") add("removed-field", `${inner} removed`);
      continue;
    }
    compareShapes(property, after.properties.get(name), mode, inner, add);
  }
  if (mode === "request")
    for (const name of after.required)
      if (!before.required.has(name)) add("new-required-field", `${field}.${name} is now required`);
  if (mode === "request" && after.closed && !before.closed)
    add("closed-object", `${field} no longer accepts fields it does not name`);
  if (before.items && after.items) compareShapes(before.items, after.items, mode, `${field}[]`, add);
}

const jsonSchema = (part) => part?.content?.["application/json"]?.schema;

/** Breaking changes from `before` to `after` (two OpenAPI 3.1 documents), each with a stable id to acknowledge. */
export function breakingChanges(before, after, service = "analytics") {
  const changes = [];
  for (const [path, item] of Object.entries(before.paths ?? {})) {
    for (const [method, old] of Object.entries(item)) {
      const operation = `${method.toUpperCase()} ${path}`;
      const add = (kind, detail) =>
        changes.push({ id: `${service}: ${operation}: ${detail}`, service, operation, kind, detail });
      const now = after.paths?.[path]?.[method];
      if (!now) {
        add("removed-operation", "operation removed");
        continue;
      }
      const params = (doc, op) =>
        new Map(
          (op.parameters ?? [])
            .map((p) => parameterOf(doc, p))
            .filter(Boolean)
            .map((p) => [`${p.in} parameter ${p.name}`, p]),
        );
      const [oldParams, newParams] = [params(before, old), params(after, now)];
      for (const [name, p] of newParams) {
        if (p.required && !oldParams.get(name)?.required) add("new-required-parameter", `${name} is now required`);
        if (oldParams.has(name))
          compareShapes(shapeOf(before, oldParams.get(name).schema), shapeOf(after, p.schema), "request", name, add);
      }
      if (now.requestBody?.required && !old.requestBody?.required)
        add("new-required-field", "request body is now required");
      if (jsonSchema(old.requestBody) && jsonSchema(now.requestBody))
        compareShapes(
          shapeOf(before, jsonSchema(old.requestBody)),
          shapeOf(after, jsonSchema(now.requestBody)),
          "request",
          "body",
          add,
        );
      for (const [status, response] of Object.entries(old.responses ?? {})) {
        if (!now.responses?.[status]) add("removed-response", `response ${status} removed`);
        else if (jsonSchema(response) && jsonSchema(now.responses[status]))
          compareShapes(
            shapeOf(before, jsonSchema(response)),
            shapeOf(after, jsonSchema(now.responses[status])),
            "response",
            `response ${status}`,
            add,
          );
      }
      const [was, is] = [old["x-payment-info"], now["x-payment-info"]];
      if (was && is && (was.price?.amount !== is.price?.amount || was.maxAmountRequired !== is.maxAmountRequired))
        add(
          "changed-price",
          `price changed from ${was.price?.amount} USD (${was.maxAmountRequired}) to ${is.price?.amount} USD (${is.maxAmountRequired})`,
        );
    }
  }
  return changes;
}

/** Splits changes into acknowledged and not; acknowledgements without a reason count as missing. */
export function judge(changes, acknowledgements) {
  const reasons = new Map(
    acknowledgements.filter((a) => typeof a.reason === "string" && a.reason.trim()).map((a) => [a.change, a.reason]),
  );
  return {
    acknowledged: changes.filter((c) => reasons.has(c.id)).map((c) => ({ ...c, reason: reasons.get(c.id) })),
    unacknowledged: changes.filter((c) => !reasons.has(c.id)),
    stale: acknowledgements.filter((a) => !changes.some((c) => c.id === a.change)),
  };
}

function git(args) {
  return execFileSync("git", args, {
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    stdio: ["ignore", "pipe", "pipe"],
  });
}

function defaultRev() {
  try {
    git(["rev-parse", "--verify", "--quiet", "main"]);
    return "main";
  } catch {
    return "HEAD";
  }
}

const USAGE = `usage: npm run breaking-changes [-- --rev REV | --base-url URL [--registry-url URL]]

Compares generated/openapi/3.1 (what this checkout would publish) with what a client already relies on, and fails
(exit 1) on any breaking change (a removed operation, response or response field, a changed type, a narrowed
request range or enum, a new required input, a changed price) not acknowledged with a reason in
${ACKNOWLEDGED}.

  --rev REV            the documents at a git revision (default: BREAKING_BASE_REV, else main when it exists,
                       else HEAD)
  --base-url URL       instead, the document a running analytics service serves (URL/openapi.json)
  --registry-url URL   and its registry's (checked only when given)
  --help               this text

Exit: 0 nothing unacknowledged breaks, 1 a breaking change, 2 wrong options or a deployment that cannot be read.`;

/** The documents to compare with, by service: from a deployment's /openapi.json, or from a git revision. */
async function baselines(values) {
  if (values["--base-url"] || values["--registry-url"]) {
    const urls = { analytics: values["--base-url"], registry: values["--registry-url"] };
    const docs = {};
    for (const [service, url] of Object.entries(urls)) {
      if (!url) continue;
      const at = `${url.replace(/\/+$/, "")}/openapi.json`;
      try {
        const response = await fetch(at, { signal: AbortSignal.timeout(15_000) });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        docs[service] = await response.json();
      } catch (error) {
        console.error(`breaking-changes: cannot read ${at} (${error.cause?.code ?? error.message}); nothing checked`);
        process.exit(2);
      }
    }
    return { label: Object.values(urls).filter(Boolean).join(" and "), docs };
  }
  let rev;
  try {
    rev = values["--rev"] ?? process.env.BREAKING_BASE_REV ?? defaultRev();
    git(["rev-parse", "--verify", "--quiet", `${rev}^{commit}`]);
  } catch {
    console.log(`breaking-changes: no git revision ${rev ?? "(none)"} to compare with; nothing checked`);
    return undefined;
  }
  const docs = {};
  for (const service of SERVICES) {
    const file = `generated/openapi/3.1/${service}.json`;
    try {
      docs[service] = JSON.parse(git(["show", `${rev}:${file}`]));
    } catch {
      console.log(`breaking-changes: ${file} is new since ${rev}`);
    }
  }
  return { label: rev, docs };
}

async function main() {
  const root = fileURLToPath(new URL("..", import.meta.url));
  process.chdir(root);
  const { values } = commandLine(USAGE, { valued: ["--rev", "--base-url", "--registry-url"] });
  const baseline = await baselines(values);
  if (!baseline) return;
  const changes = Object.entries(baseline.docs).flatMap(([service, before]) =>
    breakingChanges(before, JSON.parse(readFileSync(`generated/openapi/3.1/${service}.json`, "utf8")), service),
  );
  const { acknowledged, unacknowledged, stale } = judge(
    changes,
    JSON.parse(readFileSync(ACKNOWLEDGED, "utf8")).acknowledged ?? [],
  );
  console.log(
    `breaking-changes: generated/openapi/3.1 compared with ${baseline.label}: ${changes.length} breaking, ${acknowledged.length} acknowledged`,
  );
  for (const c of acknowledged) console.log(`  acknowledged: ${c.id} (${c.reason})`);
  for (const a of stale) console.log(`  note: acknowledgement matches no current change: ${a.change}`);
  if (!unacknowledged.length) return;
  console.error(`\n${unacknowledged.length} unacknowledged breaking change(s):`);
  for (const c of unacknowledged) console.error(`  [${c.kind}] ${c.id}`);
  console.error(`\nAcknowledge each one in ${ACKNOWLEDGED} as {"change": "<the line after [kind]>", "reason": "..."}.`);
  process.exitCode = 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await main();
