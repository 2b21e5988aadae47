/**
 * The one case builder: every operation of both 3.1 documents, under every selected prefix, as a
 * request built from the document's own examples plus what the interface says to expect (price,
 * networks, signal vocabulary), and the negative cases derived from the request schemas. Each case
 * carries a label (`operationId [prefix]`) that every failure message starts with, and a row and
 * column of the summary table (`POST /defi/tvl` × `base`).
 */
import type { CaseRequest } from "./http.js";
import { ENDPOINT_SIGNALS, LEGACY, type PaidPath, PRICES, REGISTRY_PATHS, UNSHOWN_LEGACY } from "./interface.js";
import {
  loadDoc,
  microUsdc,
  type OpenApiDoc,
  type Operation,
  operations,
  type PaymentInfo,
  parametersOf,
  type Schema,
} from "./openapi-doc.js";
import { admitsType, effective, propertiesOf } from "./schemas.js";
import type { Prefix } from "./targets.js";

export type Service = "analytics" | "registry";
export const DOCS: Record<Service, OpenApiDoc> = {
  analytics: loadDoc("3.1", "analytics"),
  registry: loadDoc("3.1", "registry"),
};

interface CaseBase {
  service: Service;
  operationId: string;
  method: "GET" | "POST";
  /** The document's path, e.g. `/base/lp/{venue}/pools`. */
  template: string;
  /** Summary row: method and unprefixed path. */
  row: string;
  /** Summary column: the prefix's network name, `free` or `registry`. */
  column: string;
  /** `operationId [column]`: the start of every failure message. */
  label: string;
  request: CaseRequest;
}

export interface PaidCase extends CaseBase {
  kind: "paid";
  prefix: Prefix;
  legacy: boolean;
  /** The interface's price, in USD and in micro-USDC. */
  price: { usd: string; micro: string };
  /** Networks the prefix may settle on (mainnet and testnet profile) → their USDC asset. */
  assets: Record<string, string>;
  signals: readonly string[];
  payment: PaymentInfo;
}

export interface FreeCase extends CaseBase {
  kind: "free";
}

export interface RegistryCase extends CaseBase {
  kind: "registry";
  /** The same operation for a name no agent holds (only operations that answer 404 for it). */
  unknownName?: CaseRequest;
  /** A read with an ETag (the document gives it a 304); the operators' endpoints are never cached. */
  cacheable: boolean;
}

export type Mutation = "missing" | "maximum" | "enum" | "type" | "pattern" | "unknown" | "nameRule" | "notAddress";

export interface NegativeCase extends CaseBase {
  kind: "negative";
  mutation: Mutation;
  location: "body" | "query" | "path";
  field: string;
  /** e.g. `body.limit above its maximum 50`. */
  description: string;
  /** The paid case it breaks (an analytics operation's: its price, networks, signals); none for the registry's. */
  paid?: PaidCase;
}

export const UNKNOWN_AGENT = "no-such-agent-zz9";

/** Summary-table test title: `row · column · check`. */
export const title = (c: Pick<CaseBase, "row" | "column">, check: string) => `${c.row} · ${c.column} · ${check}`;

const upper = (method: string) => method.toUpperCase() as "GET" | "POST";

/** The request the operation's examples describe: path and query parameters, and the body. */
export function exampleRequest(
  doc: OpenApiDoc,
  method: string,
  template: string,
  op: Operation,
  pathValues: Record<string, string> = {},
) {
  const params = parametersOf(doc, op);
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = pathValues[name] ?? params.find((p) => p?.in === "path" && p.name === name)?.example;
    if (value === undefined) throw new Error(`${op.operationId}: path parameter ${name} has no example`);
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const p of params)
    if (p?.in === "query" && p.name && p.example !== undefined) query.set(p.name, String(p.example));
  const media = op.requestBody?.content["application/json"] as { example?: unknown } | undefined;
  const body = method === "post" ? (media?.example ?? {}) : undefined;
  const search = query.toString();
  // An answer that is not JSON (a page, the metrics text) is asked for by its own media type.
  const answers = Object.keys(op.responses["200"]?.content ?? {});
  const accept =
    answers.length && !answers.includes("application/json") ? { headers: { accept: answers[0] as string } } : {};
  return { method: upper(method), path: `${path}${search ? `?${search}` : ""}`, body, ...accept } satisfies CaseRequest;
}

/** What every case of an operation shares; `row` is the unprefixed path, `column` the prefix's network or the service. */
function baseCase(
  service: Service,
  method: string,
  path: string,
  op: Operation,
  row: string,
  column: string,
): CaseBase {
  const verb = upper(method);
  return {
    service,
    operationId: op.operationId,
    method: verb,
    template: path,
    row: `${verb} ${row}`,
    column,
    label: `${op.operationId} [${column}]`,
    request: exampleRequest(DOCS[service], method, path, op),
  };
}

/** Every paid operation (POST and legacy GET) under the given prefixes. */
export function paidCases(prefixes: readonly Prefix[]): PaidCase[] {
  return operations(DOCS.analytics).flatMap(({ method, path, op }) => {
    const payment = op["x-payment-info"];
    const prefix = prefixes.find((p) => p.prefix === payment?.network.prefix);
    if (!payment || !prefix) return [];
    const bare = path.slice(prefix.prefix.length);
    const legacy = method === "get";
    const shown = LEGACY.find((l) => l.path === bare)?.of;
    const twin = (legacy ? (shown ?? UNSHOWN_LEGACY.find((path) => path === bare)) : bare) as PaidPath | undefined;
    if (!twin || !(twin in PRICES)) throw new Error(`${op.operationId}: ${path} is not in the interface's price table`);
    return [
      {
        ...baseCase("analytics", method, path, op, bare, prefix.name),
        kind: "paid",
        prefix,
        legacy,
        price: { usd: PRICES[twin], micro: microUsdc(PRICES[twin]) },
        assets: {
          [prefix.mainnet]: payment.network.mainnet.asset,
          [prefix.testnet]: payment.network.testnet.asset,
        },
        signals: ENDPOINT_SIGNALS[twin],
        payment,
      } satisfies PaidCase,
    ];
  });
}

/** Whether an analytics operation is a payment lookup (`GET {prefix}/payments/...`): free, but its ids are the target's own. */
const isLookup = (op: Operation) => ((op as { tags?: string[] }).tags ?? []).includes("Payments");

/** The free analytics endpoints (no `x-payment-info`), but for the payment lookups (`lookupCases`). */
export function freeCases(): FreeCase[] {
  return operations(DOCS.analytics)
    .filter(({ op }) => !op["x-payment-info"] && !isLookup(op))
    .map(({ method, path, op }) => ({ ...baseCase("analytics", method, path, op, path, "free"), kind: "free" }));
}

/** The payment lookups under the given prefixes, by identifier and by transaction; their example ids name no payment. */
export function lookupCases(prefixes: readonly Prefix[]): (FreeCase & { prefix: Prefix; by: "id" | "transaction" })[] {
  return operations(DOCS.analytics).flatMap(({ method, path, op }) => {
    const prefix = prefixes.find((p) => p.name === op.operationId.split("_")[0]?.toLowerCase());
    if (!isLookup(op) || !prefix) return [];
    const by = path.endsWith("{id}") ? ("id" as const) : ("transaction" as const);
    const row = path.slice(prefix.prefix.length);
    return [{ ...baseCase("analytics", method, path, op, row, prefix.name), kind: "free" as const, prefix, by }];
  });
}

/** The registry read operations; those that name an agent also get an unknown-name request. */
export function registryCases(): RegistryCase[] {
  return operations(DOCS.registry).map(({ method, path, op }) => {
    const named = REGISTRY_PATHS.find((r) => r.path === path)?.named ?? false;
    return {
      ...baseCase("registry", method, path, op, path, "registry"),
      kind: "registry",
      unknownName: named ? exampleRequest(DOCS.registry, method, path, op, { name: UNKNOWN_AGENT }) : undefined,
      cacheable: "304" in op.responses,
    };
  });
}

const MUTATION_TEXT: Record<Mutation, (s: Schema) => string> = {
  missing: () => "missing (required)",
  maximum: (s) => `above its maximum ${s.maximum ?? s.exclusiveMaximum}`,
  enum: () => "not one of its enum values",
  type: () => "of the wrong type",
  pattern: (s) => `not matching ${s.pattern}`,
  unknown: () => "not a field of the body (which is closed)",
  nameRule: () => "breaking the name rule documented on AgentName (3 to 32 characters once normalized)",
  notAddress: () => "base58 of 33 bytes, not a Solana address (documented on SolanaAddress)",
};

/** A field no body has: a closed body (`...Record<never>`) refuses it rather than ignoring it. */
const UNKNOWN_FIELD = "not_a_field";

/** An agent name its schema admits (1 to 128 characters) but the name rule, which no schema of the raw path can state, refuses. */
const MISNAMED_AGENT = "x";

/** Base58 text the SolanaAddress pattern admits (32 to 44 characters) that decodes to 33 bytes: not an address. */
const NOT_AN_ADDRESS = "z".repeat(44);

/** Invalid values for one input field; `undefined` means "leave it out". */
function mutationsOf(doc: OpenApiDoc, schema: Schema, required: boolean, location: NegativeCase["location"]) {
  const s = effective(doc, schema);
  const found: { mutation: Mutation; value: unknown }[] = [];
  if (required && location !== "path") found.push({ mutation: "missing", value: undefined });
  const max = typeof s.exclusiveMaximum === "number" ? s.exclusiveMaximum : s.maximum;
  if (typeof max === "number")
    found.push({ mutation: "maximum", value: typeof s.exclusiveMaximum === "number" ? max : max + 1 });
  if (s.enum?.every((v) => typeof v === "string")) found.push({ mutation: "enum", value: "not-a-listed-value" });
  // Over the wire a parameter is text: only a non-string parameter can have the wrong type.
  const candidates =
    location === "body" ? [12345, "not-a-number", true, ["unexpected"]] : ["not-a-number", "not-a-boolean"];
  const wrong = candidates.find(
    (value) => !admitsType(doc, s, value) && (location === "body" || !admitsText(doc, s, value)),
  );
  if (wrong !== undefined) found.push({ mutation: "type", value: wrong });
  const pattern = typeof s.pattern === "string" ? new RegExp(s.pattern) : undefined;
  const mismatch = ["!not-valid!", "0"].find((value) => pattern && !pattern.test(value));
  if (mismatch !== undefined) found.push({ mutation: "pattern", value: mismatch });
  return found.map((m) => ({ ...m, text: MUTATION_TEXT[m.mutation](s) }));
}

/** Whether a text parameter value parses as the schema's (non-string) type. */
function admitsText(doc: OpenApiDoc, schema: Schema, text: unknown): boolean {
  const value = Number(text);
  return (
    (!Number.isNaN(value) && admitsType(doc, schema, value)) ||
    ((text === "true" || text === "false") && admitsType(doc, schema, true))
  );
}

function withQuery(request: CaseRequest, name: string, value: unknown): CaseRequest {
  const [path, search = ""] = request.path.split("?");
  const query = new URLSearchParams(search);
  if (value === undefined) query.delete(name);
  else query.set(name, String(value));
  return { ...request, path: `${path}${query.size ? `?${query}` : ""}` };
}

function withPathParam(doc: OpenApiDoc, c: CaseBase, op: Operation, name: string, value: unknown): CaseRequest {
  const fresh = exampleRequest(doc, c.method.toLowerCase(), c.template, op, { [name]: String(value) });
  return {
    ...fresh,
    path: `${fresh.path.split("?")[0]}${c.request.path.includes("?") ? `?${c.request.path.split("?")[1]}` : ""}`,
  };
}

function withBodyField(request: CaseRequest, name: string, value: unknown): CaseRequest {
  const body = { ...(request.body as Record<string, unknown>) };
  if (value === undefined) delete body[name];
  else body[name] = value;
  return { ...request, body };
}

/** Negative cases of one positive case: each body field, query and path parameter, each way it can be invalid. */
function negativesOf(doc: OpenApiDoc, c: CaseBase, op: Operation): NegativeCase[] {
  const fields: { location: NegativeCase["location"]; name: string; schema: Schema; required: boolean }[] = [];
  const body = op.requestBody?.content["application/json"]?.schema;
  if (c.method === "POST" && body) for (const p of propertiesOf(doc, body)) fields.push({ location: "body", ...p });
  for (const p of parametersOf(doc, op)) {
    if (p?.name && p.schema && (p.in === "query" || p.in === "path"))
      fields.push({ location: p.in, name: p.name, schema: p.schema, required: p.required ?? false });
  }
  const negative = (
    mutation: Mutation,
    location: NegativeCase["location"],
    field: string,
    text: string,
    request: CaseRequest,
  ) =>
    ({
      ...c,
      kind: "negative",
      mutation,
      location,
      field,
      description: `${location}.${field} ${text}`,
      request,
    }) satisfies NegativeCase;
  const closed = c.method === "POST" && body !== undefined && effective(doc, body).unevaluatedProperties !== undefined;
  const unknown = closed
    ? [
        negative(
          "unknown",
          "body",
          UNKNOWN_FIELD,
          MUTATION_TEXT.unknown({}),
          withBodyField(c.request, UNKNOWN_FIELD, 1),
        ),
      ]
    : [];
  const withField = (field: (typeof fields)[number], value: unknown) =>
    field.location === "body"
      ? withBodyField(c.request, field.name, value)
      : field.location === "query"
        ? withQuery(c.request, field.name, value)
        : withPathParam(doc, c, op, field.name, value);
  const misnamed = fields
    .filter((field) => field.location === "path" && field.schema.$ref === "#/components/schemas/AgentName")
    .map((field) =>
      negative("nameRule", "path", field.name, MUTATION_TEXT.nameRule({}), withField(field, MISNAMED_AGENT)),
    );
  // A SolanaAddress field (its pattern, whether the field refers to it or is resolved already): no pattern can say "32 bytes".
  const solana = (doc.components.schemas.SolanaAddress as Schema | undefined)?.pattern;
  const misaddressed = fields
    .filter((field) => solana !== undefined && effective(doc, field.schema).pattern === solana)
    .map((field) =>
      negative(
        "notAddress",
        field.location,
        field.name,
        MUTATION_TEXT.notAddress({}),
        withField(field, NOT_AN_ADDRESS),
      ),
    );
  return [...unknown, ...misnamed, ...misaddressed].concat(
    fields.flatMap((field) =>
      mutationsOf(doc, field.schema, field.required, field.location).map(({ mutation, value, text }) =>
        negative(mutation, field.location, field.name, text, withField(field, value)),
      ),
    ),
  );
}

/** Every negative case: the paid operations under the given prefixes, and the registry's. */
export function negativeCases(prefixes: readonly Prefix[]): NegativeCase[] {
  const opOf = (service: Service, c: CaseBase) =>
    DOCS[service].paths[c.template]?.[c.method.toLowerCase()] as Operation;
  return [
    ...paidCases(prefixes).flatMap((c) =>
      negativesOf(DOCS.analytics, c, opOf("analytics", c)).map((n) => ({ ...n, paid: c })),
    ),
    ...registryCases().flatMap((c) => negativesOf(DOCS.registry, c, opOf("registry", c))),
  ];
}
