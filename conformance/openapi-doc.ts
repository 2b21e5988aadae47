/** Reading the generated OpenAPI documents: loading, `$ref` resolution and walking schemas by field path. */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parametersOf as resolveParameters } from "../lib/openapi-refs.mjs";

export type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  [key: string]: unknown;
};

export type Operation = {
  operationId: string;
  summary?: string;
  parameters?: {
    $ref?: string;
    name?: string;
    in?: string;
    required?: boolean;
    description?: string;
    schema?: Schema;
    example?: unknown;
  }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<
    string,
    {
      headers?: Record<string, { required?: boolean; schema?: Schema }>;
      content?: Record<string, { schema: Schema; example?: unknown }>;
    }
  >;
  "x-payment-info"?: PaymentInfo;
  [key: string]: unknown;
};

export type PaymentInfo = {
  price: { mode: string; currency: string; amount: string };
  protocols: unknown[];
  maxAmountRequired: string;
  asset: { symbol: string; decimals: number };
  network: {
    prefix: string;
    family: "svm" | "evm";
    gas: string;
    mainnet: { network: string; asset: string; chainId?: number; eip712?: { name: string; version: string } };
    testnet: { network: string; asset: string; chainId?: number; eip712?: { name: string; version: string } };
  };
  split: { serviceBps: number; treasuryBps: number; remainder: string };
};

export type OpenApiDoc = {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, Schema>;
    parameters?: Record<string, NonNullable<Operation["parameters"]>[number]>;
  };
  [key: string]: unknown;
};

export function loadDoc(version: "3.1" | "3.0", service: "analytics" | "registry" | `analytics-${string}`): OpenApiDoc {
  const file = fileURLToPath(new URL(`../generated/openapi/${version}/${service}.json`, import.meta.url));
  return JSON.parse(readFileSync(file, "utf8"));
}

/** Follows `$ref`s and single-member `allOf` wrappers (TypeSpec wraps documented refs that way). */
export function resolve(doc: OpenApiDoc, schema: Schema): Schema {
  let current = schema;
  for (;;) {
    if (current.$ref) {
      const name = decodeURIComponent(current.$ref.replace("#/components/schemas/", ""));
      const target = doc.components.schemas[name];
      if (!target) throw new Error(`unresolved ${current.$ref}`);
      current = target;
    } else if (current.allOf?.length === 1 && !current.properties) {
      current = current.allOf[0] as Schema;
    } else {
      return current;
    }
  }
}

/** The JSON types a schema admits, e.g. `["string", "null"]`. */
export function typesOf(doc: OpenApiDoc, schema: Schema): string[] {
  const s = resolve(doc, schema);
  if (s.anyOf) return [...new Set(s.anyOf.flatMap((member) => typesOf(doc, member)))].sort();
  if (Array.isArray(s.type)) return [...s.type].sort();
  if (s.type) return [s.type];
  if (s.properties) return ["object"];
  return [];
}

/** The non-null branch of a nullable schema, or the schema itself. */
function nonNull(doc: OpenApiDoc, schema: Schema): Schema {
  const s = resolve(doc, schema);
  const branches = s.anyOf?.filter((member) => !typesOf(doc, member).includes("null"));
  return branches?.length === 1 ? resolve(doc, branches[0] as Schema) : s;
}

/** The schema at a dotted field path (`chains[].name`, `flows.whales.net_flow_usd`), or undefined. */
export function schemaAt(doc: OpenApiDoc, root: Schema, path: string): Schema | undefined {
  let current: Schema | undefined = nonNull(doc, root);
  for (const step of path.split(".")) {
    const [, name, arrays] = /^([^[]*)((?:\[\])*)$/.exec(step) ?? [];
    if (name) current = current?.properties?.[name] ? nonNull(doc, current.properties[name]) : undefined;
    for (let i = 0; i < (arrays?.length ?? 0) / 2; i++)
      current = current?.items ? nonNull(doc, current.items) : undefined;
    if (!current) return undefined;
  }
  return current;
}

/** The schema at a path, keeping nullability (used to read a field's own type). */
export function fieldSchema(doc: OpenApiDoc, root: Schema, path: string): Schema | undefined {
  const dot = path.lastIndexOf(".");
  const parent = dot < 0 ? nonNull(doc, root) : schemaAt(doc, root, path.slice(0, dot));
  const last = path.slice(dot + 1);
  if (last.endsWith("[]")) return schemaAt(doc, root, path);
  const property = parent?.properties?.[last];
  return property ? resolve(doc, property) : undefined;
}

/** Every operation of a document with its method and path. */
export function operations(doc: OpenApiDoc): { method: string; path: string; op: Operation }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ method, path, op })),
  );
}

/** Parameters of an operation with component `$ref`s resolved. */
/** An operation's parameters, each `$ref` read from the components. */
export const parametersOf = (doc: OpenApiDoc, op: Operation) => resolveParameters(doc, op.parameters);

/** Integer micro-USDC of a USD decimal string, without floating point. */
export function microUsdc(price: string): string {
  const [whole, fraction = ""] = price.split(".");
  return (BigInt(whole as string) * 1_000_000n + BigInt(fraction.padEnd(6, "0"))).toString();
}
