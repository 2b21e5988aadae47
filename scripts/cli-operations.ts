/**
 * The command line's view of the contract: every paid operation (its POST at the root, named by
 * operation name or path), its body fields with their JSON Schema types, and the coercion of
 * `--field value` strings into the body the operation expects. Read from the generated document.
 */
import {
  type AnalyticsContract,
  loadAnalyticsContract,
  type PaidRoute,
} from "../server/analytics/contract/analytics-contract.js";

type Schema = {
  $ref?: string;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  type?: string | string[];
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
  default?: unknown;
};

export interface Field {
  name: string;
  types: string[];
  required: boolean;
  enum?: unknown[];
  items?: Schema;
  description?: string;
  default?: unknown;
}

export interface CliOperation {
  name: string;
  path: string;
  summary: string;
  description: string;
  /** USD, e.g. `0.001`. */
  price: string;
  fields: Field[];
}

export class UsageError extends Error {
  override readonly name = "UsageError";
}

function resolver(contract: AnalyticsContract) {
  const schemas = (contract.document.components as { schemas: Record<string, Schema> }).schemas;
  const resolve = (schema: Schema | undefined): Schema => {
    if (!schema) return {};
    if (schema.$ref) return resolve(schemas[decodeURIComponent(schema.$ref.split("/").pop() as string)]);
    if (schema.allOf?.length === 1) return { ...resolve(schema.allOf[0]), ...schema, allOf: undefined };
    return schema;
  };
  const typesOf = (schema: Schema): string[] => {
    const s = resolve(schema);
    if (s.type) return Array.isArray(s.type) ? s.type : [s.type];
    const members = s.anyOf ?? s.oneOf;
    if (members) return [...new Set(members.flatMap(typesOf))];
    return s.enum ? ["string"] : [];
  };
  return { resolve, typesOf };
}

function operationOf(
  route: PaidRoute,
  contract: AnalyticsContract,
  { resolve, typesOf }: ReturnType<typeof resolver>,
): CliOperation {
  const op = contract.document.paths[route.path]?.post as
    | { requestBody?: { content: Record<string, { schema: Schema }> } }
    | undefined;
  const body = resolve(op?.requestBody?.content["application/json"]?.schema);
  const fields = Object.entries(body.properties ?? {}).map(([name, raw]): Field => {
    const schema = resolve(raw);
    return {
      name,
      types: typesOf(schema),
      required: body.required?.includes(name) ?? false,
      ...(schema.enum ? { enum: schema.enum } : {}),
      ...(schema.items ? { items: resolve(schema.items) } : {}),
      ...(schema.description ? { description: schema.description } : {}),
      ...(schema.default === undefined ? {} : { default: schema.default }),
    };
  });
  return {
    name: route.name,
    path: route.path,
    summary: route.summary,
    description: route.description,
    price: route.payment.price.amount,
    fields,
  };
}

let cached: CliOperation[] | undefined;

/** Every paid operation, in contract order. */
export function cliOperations(): CliOperation[] {
  if (!cached) {
    const contract = loadAnalyticsContract();
    const schema = resolver(contract);
    cached = contract.paid
      .filter((r) => r.method === "post" && !r.legacy && r.payment.network.prefix === "")
      .map((r) => operationOf(r, contract, schema));
  }
  return cached;
}

/** By operation name (`defiTvl`) or root path (`/defi/tvl`, `defi/tvl`). */
export function findOperation(nameOrPath: string): CliOperation {
  const path = nameOrPath.startsWith("/") ? nameOrPath : `/${nameOrPath}`;
  const found = cliOperations().find((op) => op.name === nameOrPath || op.path === path);
  if (!found) throw new UsageError(`unknown operation "${nameOrPath}"; \`--help\` lists them`);
  return found;
}

function coerce(field: Field, raw: string, types = field.types): unknown {
  if (types.includes("array"))
    return raw
      .split(",")
      .map((item) => coerce(field, item.trim(), field.items ? [String(field.items.type)] : ["string"]));
  if (types.includes("boolean") && (raw === "true" || raw === "false")) return raw === "true";
  if ((types.includes("integer") || types.includes("number")) && /^-?\d+(\.\d+)?$/.test(raw)) {
    const value = Number(raw);
    if (types.includes("integer") && !types.includes("number") && !Number.isInteger(value))
      throw new UsageError(`--${field.name} must be an integer`);
    return value;
  }
  if (types.length === 0 || types.includes("string")) return raw;
  throw new UsageError(`--${field.name} must be ${types.join(" or ")}, got "${raw}"`);
}

/** The JSON body from `--field value` pairs; `-` in a flag name stands for `_`. */
export function bodyOf(operation: CliOperation, params: Map<string, string | true>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [flag, raw] of params) {
    const field = operation.fields.find((f) => f.name === flag || f.name === flag.replaceAll("-", "_"));
    if (!field) {
      const known = operation.fields.map((f) => `--${f.name}`).join(", ") || "none";
      throw new UsageError(`${operation.name} has no parameter --${flag} (parameters: ${known})`);
    }
    if (raw === true && !field.types.includes("boolean")) throw new UsageError(`--${flag} needs a value`);
    body[field.name] = raw === true ? true : coerce(field, raw);
  }
  const missing = operation.fields.filter((f) => f.required && !(f.name in body));
  if (missing.length) throw new UsageError(`${operation.name} needs ${missing.map((f) => `--${f.name}`).join(", ")}`);
  return body;
}
