/**
 * The analytics contract as the server uses it: read once from the generated 3.1 document at
 * start-up. Every route, price, network and signal vocabulary comes from here, so the server has
 * no hand-kept list of paths that could drift from the spec.
 */
import { readFileSync } from "node:fs";
import { NETWORKS, type PaymentNetwork } from "../../../lib/networks.js";
import { parametersOf } from "../../../lib/openapi-refs.mjs";
import { inlineRefs } from "../../schemas/inline-refs.js";
import type { OperationName } from "./operation-types.js";

export interface PaymentInfo {
  price: { amount: string };
  maxAmountRequired: string;
  /** The entry of the network table this route's prefix settles on. */
  network: PaymentNetwork;
  split: { serviceBps: number; treasuryBps: number };
}

/** One paid route: a (prefix, POST or legacy GET) instance of an operation. */
export interface PaidRoute {
  operationId: string;
  name: OperationName;
  method: "get" | "post";
  /** OpenAPI path, e.g. `/base/lp/{venue}/pools/{address}`. */
  path: string;
  /** Express path, e.g. `/base/lp/:venue/pools/:address`. */
  expressPath: string;
  legacy: boolean;
  summary: string;
  description: string;
  tags: string[];
  payment: PaymentInfo;
  /** The operation's signal words (from the 200 envelope schema). */
  signals: readonly string[];
  /** JSON Schema properties of the body (POST) or query (legacy GET), for discovery; self-contained (no `$ref`). */
  inputFields: Record<string, unknown>;
  /** A legacy GET that cannot be called without query parameters (a question, an address). */
  queryRequired: boolean;
  /**
   * Defaults of the operation's POST body. A legacy GET carries only some of the body's fields, and
   * its handler is the POST's: the fields it cannot send take these defaults.
   */
  bodyDefaults: Record<string, unknown>;
  /**
   * The input fields that are a `SolanaAddress`, and where the request carries them. Its pattern
   * admits 32 to 44 base58 characters, some of which decode to more or fewer than an address's 32
   * bytes: the service refuses those too (a 400 naming the field), where no schema can.
   */
  solanaAddresses: { location: "body" | "query" | "path"; field: string }[];
}

export interface FreeRoute {
  operationId: string;
  path: string;
}

export interface DevelopmentDefaults {
  evm: { payTo: string; treasury: string };
  svm: { payTo: string; treasury: string; feePayer: string };
  maxTimeoutSeconds: number;
}

export interface OpenApiDocument {
  info: { version: string; title: string };
  paths: Record<
    string,
    Record<
      string,
      { responses: Record<string, { content?: Record<string, { schema: unknown }> }>; [key: string]: unknown }
    >
  >;
  components: Record<string, unknown>;
  [key: string]: unknown;
}

export interface AnalyticsContract {
  document: OpenApiDocument;
  /**
   * The document restricted to one prefix's paid operations and the free ones, by prefix name
   * (`solana`, `base`, `skale`: the operation ids' first part), as `npm run generate` writes them.
   */
  byNetwork: Record<string, OpenApiDocument>;
  paid: PaidRoute[];
  free: FreeRoute[];
  /** Operation names in declaration order (28). */
  operations: OperationName[];
  developmentDefaults: DevelopmentDefaults;
}

type RawSchema = {
  $ref?: string;
  allOf?: RawSchema[];
  enum?: unknown[];
  default?: unknown;
  properties?: Record<string, RawSchema>;
};
type RawOperation = {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { $ref?: string; name?: string; in?: string; required?: boolean; schema?: RawSchema }[];
  requestBody?: { content: Record<string, { schema: RawSchema }> };
  responses: Record<string, { content?: Record<string, { schema: RawSchema }> }>;
  "x-payment-info"?: PaymentInfo;
};

/** Whether `schema` is the component `name`, directly or as the one member of an `allOf` (a property with its own description). */
const refersTo = (schema: RawSchema | undefined, name: string): boolean =>
  schema?.$ref === `#/components/schemas/${name}` || (schema?.allOf?.length === 1 && refersTo(schema.allOf[0], name));

export function loadAnalyticsContract(
  file = new URL("../../../generated/openapi/3.1/analytics.json", import.meta.url),
): AnalyticsContract {
  const document = JSON.parse(readFileSync(file, "utf8"));
  const schemas: Record<string, RawSchema> = document.components.schemas;
  const resolve = (schema: RawSchema | undefined): RawSchema | undefined => {
    let current = schema;
    while (current?.$ref || (current?.allOf?.length === 1 && !current.properties)) {
      current = current.$ref
        ? schemas[decodeURIComponent(current.$ref.split("/").pop() as string)]
        : current.allOf?.[0];
    }
    return current;
  };
  const paid: PaidRoute[] = [];
  const free: FreeRoute[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, RawOperation>>)) {
    for (const [method, op] of Object.entries(item)) {
      const payment = op["x-payment-info"];
      if (!payment) {
        free.push({ operationId: op.operationId, path });
        continue;
      }
      const base = op.operationId.slice(op.operationId.indexOf("_") + 1);
      const legacy = base.endsWith("Legacy");
      const envelope = resolve(op.responses["200"]?.content?.["application/json"]?.schema);
      const signals = (resolve(envelope?.properties?.signal)?.enum ?? []).map(String);
      const body = resolve(op.requestBody?.content["application/json"]?.schema);
      const parameters = parametersOf(document, op.parameters) as NonNullable<RawOperation["parameters"]>;
      const queryParameters = parameters.filter((p) => p.in === "query");
      const inputs: [string, string, RawSchema | undefined][] = [
        ...Object.entries(body?.properties ?? {}).map(
          ([name, schema]) => ["body", name, schema] as [string, string, RawSchema],
        ),
        ...parameters.map(
          (p) => [p.in as string, p.name as string, p.schema] as [string, string, RawSchema | undefined],
        ),
      ];
      const query = Object.fromEntries(queryParameters.map((p) => [p.name as string, p.schema]));
      paid.push({
        operationId: op.operationId,
        name: (legacy ? base.slice(0, -"Legacy".length) : base) as OperationName,
        method: method as "get" | "post",
        path,
        expressPath: path.replace(/\{([^}]+)\}/g, ":$1"),
        legacy,
        summary: op.summary ?? op.operationId,
        description: op.description ?? op.summary ?? op.operationId,
        tags: op.tags ?? [],
        payment,
        signals,
        inputFields: inlineRefs(legacy ? query : (body?.properties ?? {}), schemas) as Record<string, unknown>,
        queryRequired: queryParameters.some((p) => p.required),
        bodyDefaults: {},
        solanaAddresses: inputs
          .filter(([, , schema]) => refersTo(schema, "SolanaAddress"))
          .map(([location, field]) => ({ location: location as "body" | "query" | "path", field })),
      });
    }
  }
  const defaultsOf = (schema: RawSchema | undefined) =>
    Object.fromEntries(
      Object.entries(schema?.properties ?? {}).flatMap(([name, p]) =>
        p.default === undefined ? [] : [[name, p.default]],
      ),
    );
  for (const route of paid) {
    const twin = paid.find(
      (r) => !r.legacy && r.name === route.name && r.payment.network.prefix === route.payment.network.prefix,
    ) as PaidRoute;
    const op = (document.paths as Record<string, Record<string, RawOperation>>)[twin.path]?.post;
    route.bodyDefaults = defaultsOf(resolve(op?.requestBody?.content["application/json"]?.schema));
  }
  const operations = [...new Set(paid.filter((r) => !r.legacy).map((r) => r.name))];
  const byNetwork = Object.fromEntries(
    NETWORKS.map(({ name }) => [name, JSON.parse(readFileSync(new URL(`analytics-${name}.json`, file), "utf8"))]),
  );
  return { document, byNetwork, paid, free, operations, developmentDefaults: document["x-x402-development-defaults"] };
}
