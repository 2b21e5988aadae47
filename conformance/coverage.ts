/**
 * Coverage of a conformance run, computed from the documents and the exchanges the suite recorded
 * (observations.ts), with no I/O: for each operation × prefix, the documented statuses answered and
 * not, each request parameter (path, query, documented header, body field) sent valid and, where its
 * schema constrains it, invalid, and each documented response header seen; a percentage per
 * dimension. Statuses and headers no black-box run can provoke from a healthy service are listed
 * but not counted (NOT_PROVOKABLE).
 */
import { NETWORKS } from "../lib/networks.js";
import type { Exchange, ObservedService } from "./observations.js";
import { type OpenApiDoc, type Operation, operations, parametersOf, type Schema } from "./openapi-doc.js";
import { createResponseValidator, type ResponseValidator } from "./schema-validator.js";
import { effective, propertiesOf } from "./schemas.js";

export type Dimension = "statuses" | "parameters" | "headers";
export const DIMENSIONS: readonly Dimension[] = ["statuses", "parameters", "headers"];

/** Statuses only a failing dependency gives, and why; a run that provokes one still reports it, uncounted. */
export const NOT_PROVOKABLE: Record<number, string> = {
  500: "a correct service never answers it",
  502: "it needs an upstream (a data provider, the facilitator) that fails",
  503: "it needs an unreachable ledger or store, an answer later than its payment's deadline, or two attempts racing one payment",
};
/** Why a 400 is not counted on an operation that takes no input (no parameter, no body). */
export const NO_INPUT_400 = "the operation takes no input, so nothing a caller sends can be invalid";
/** Response headers only such a failure sends, as `status header`. */
export const NOT_PROVOKABLE_HEADERS: Record<string, string> = {
  "402 PAYMENT-RESPONSE":
    "only a settlement that fails after verification accepted the payment sends it (a failing facilitator or chain)",
};

export interface Ratio {
  covered: number;
  total: number;
  percent: number;
}

export interface ParameterCoverage {
  location: "path" | "query" | "header" | "body";
  name: string;
  /** Whether some value (or leaving it out) breaks its schema: only then is an invalid one expected. */
  constrained: boolean;
  valid: boolean;
  invalid: boolean;
}

export interface OperationCoverage {
  service: ObservedService;
  operationId: string;
  method: string;
  /** The document's path. */
  path: string;
  /** Summary row and column, as the suite's test titles name them. */
  row: string;
  column: string;
  exchanges: number;
  /** Documented statuses answered; counted ones never answered; those not counted (NOT_PROVOKABLE, NO_INPUT_400). */
  statuses: { exercised: number[]; missing: number[]; notCounted: number[] };
  parameters: ParameterCoverage[];
  headers: { status: number; name: string; seen: boolean; counted: boolean }[];
}

export interface Coverage {
  summary: Record<Dimension, Ratio>;
  operations: OperationCoverage[];
  /** Exchanges that are no operation of the documents (an undocumented method or path). */
  unmatched: Exchange[];
}

/** What the run covered: the services it checked and, of the paid operations, the prefixes (by network name). */
export interface Scope {
  services: readonly ObservedService[];
  prefixes: readonly string[];
}

export type Documents = Record<ObservedService, OpenApiDoc>;

export interface Located {
  service: ObservedService;
  method: string;
  path: string;
  op: Operation;
  row: string;
  column: string;
  pattern: RegExp;
  literal: number;
}

/** Every operation of the scope, with its summary row and column and a pattern of its concrete paths. */
export function operationsInScope(docs: Documents, scope: Scope): Located[] {
  return scope.services.flatMap((service) =>
    operations(docs[service]).flatMap(({ method, path, op }) => {
      const prefix = op["x-payment-info"]?.network.prefix;
      const network = prefix === undefined ? undefined : NETWORKS.find((n) => n.prefix === prefix);
      if (network && !scope.prefixes.includes(network.name)) return [];
      const column = network?.name ?? (service === "registry" ? "registry" : "free");
      const source = path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{[^}]+\\?\}/g, "[^/]+");
      return [
        {
          service,
          method: method.toUpperCase(),
          path,
          op,
          row: `${method.toUpperCase()} ${path.slice(prefix?.length ?? 0)}`,
          column,
          pattern: new RegExp(`^${source}$`),
          literal: path.replace(/\{[^}]+\}/g, "").length,
        },
      ];
    }),
  );
}

/** The operation an exchange is: its service's, its method, the most literal path template that matches. */
function locate(located: Located[], exchange: Exchange): Located | undefined {
  const path = exchange.path.split("?")[0] as string;
  return located
    .filter((l) => l.service === exchange.service && l.method === exchange.method && l.pattern.test(path))
    .sort((a, b) => b.literal - a.literal)[0];
}

const CONSTRAINTS = [
  "enum",
  "const",
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
];

/** Whether a schema refuses some value; over the wire (not a body) a plain string parameter takes any text. */
function constrains(schema: Schema, location: ParameterCoverage["location"]): boolean {
  if (CONSTRAINTS.some((keyword) => keyword in schema) || typeof schema.format === "string") return true;
  if (location === "body")
    return Object.keys(schema).some((key) => !["description", "example", "examples", "title"].includes(key));
  return schema.type !== undefined && schema.type !== "string";
}

/** A parameter's text as the values it can stand for: itself, a number, a boolean, a comma-separated list. */
function readings(text: string): unknown[] {
  const found: unknown[] = [text];
  if (text.trim() !== "" && !Number.isNaN(Number(text))) found.push(Number(text));
  if (text === "true" || text === "false") found.push(text === "true");
  found.push(text.split(","));
  return found;
}

interface Input {
  location: ParameterCoverage["location"];
  name: string;
  schema: Schema;
  required: boolean;
  /** The values an exchange sent for it (none when left out), and whether they are texts to read. */
  valuesOf(exchange: Exchange, path: string, query: URLSearchParams): unknown[] | undefined;
}

/** The inputs of an operation: path, query and header parameters, and the JSON body's top-level fields. */
function inputsOf(doc: OpenApiDoc, located: Located): Input[] {
  const segments = located.path.split("/");
  const inputs: Input[] = parametersOf(doc, located.op).flatMap((p) => {
    if (!p?.name || !p.schema || !["path", "query", "header"].includes(p.in ?? "")) return [];
    const name = p.name;
    const location = p.in as "path" | "query" | "header";
    const at = segments.indexOf(`{${name}}`);
    return [
      {
        location,
        name,
        schema: p.schema,
        required: p.required ?? false,
        valuesOf: (exchange: Exchange, path: string, query: URLSearchParams) => {
          const text =
            location === "path"
              ? path.split("/")[at]
              : location === "query"
                ? (query.get(name) ?? undefined)
                : exchange.headers[name.toLowerCase()];
          if (text === undefined) return undefined;
          const value = location === "path" ? safeDecode(text) : text;
          return location === "header" ? [value] : readings(value);
        },
      },
    ];
  });
  const body = located.op.requestBody?.content["application/json"]?.schema;
  if (located.method === "POST" && body)
    for (const field of propertiesOf(doc, body))
      inputs.push({
        location: "body",
        ...field,
        valuesOf: (exchange) => {
          const sent = exchange.body as Record<string, unknown> | undefined;
          if (!sent || typeof sent !== "object" || Array.isArray(sent) || !(field.name in sent)) return undefined;
          return [sent[field.name]];
        },
      });
  return inputs;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const ratio = (covered: number, total: number): Ratio => ({
  covered,
  total,
  percent: total ? Math.floor((covered / total) * 1000) / 10 : 100,
});

/** The exchanges of each operation of `scope`, and those of the scope's services that are none of them. */
export function groupExchanges(docs: Documents, exchanges: readonly Exchange[], scope: Scope) {
  const located = operationsInScope(docs, scope);
  const byOperation = new Map<Located, Exchange[]>(located.map((l) => [l, []]));
  const unmatched: Exchange[] = [];
  for (const exchange of exchanges) {
    if (!scope.services.includes(exchange.service)) continue;
    const found = locate(located, exchange);
    if (found) byOperation.get(found)?.push(exchange);
    else unmatched.push(exchange);
  }
  return { byOperation, unmatched };
}

/** The coverage of `exchanges` over the operations of `scope`. */
export function computeCoverage(docs: Documents, exchanges: readonly Exchange[], scope: Scope): Coverage {
  const { byOperation, unmatched } = groupExchanges(docs, exchanges, scope);
  const validators = new Map<ObservedService, ResponseValidator>();
  const validatorOf = (service: ObservedService) => {
    let validator = validators.get(service);
    if (!validator) {
      validator = createResponseValidator(docs[service]);
      validators.set(service, validator);
    }
    return validator;
  };
  const totals = { statuses: [0, 0], parameters: [0, 0], headers: [0, 0] } as Record<Dimension, [number, number]>;
  const coverage = [...byOperation].map(([l, seen]): OperationCoverage => {
    const documented = Object.keys(l.op.responses)
      .map(Number)
      .filter((status) => Number.isInteger(status));
    const answered = new Set(seen.map((e) => e.status));
    const inputs = inputsOf(docs[l.service], l);
    const uncounted = (status: number) => status in NOT_PROVOKABLE || (status === 400 && !inputs.length);
    const counted = documented.filter((status) => !uncounted(status));
    const exercised = documented.filter((status) => answered.has(status));
    totals.statuses[0] += counted.filter((status) => answered.has(status)).length;
    totals.statuses[1] += counted.length;

    const validator = validatorOf(l.service);
    const parameters = inputs.map((input): ParameterCoverage => {
      const schema = effective(docs[l.service], input.schema);
      const constrained = input.required || constrains(schema, input.location);
      let valid = false;
      let invalid = false;
      for (const exchange of seen) {
        const [path = "", search = ""] = exchange.path.split("?");
        const values = input.valuesOf(exchange, path, new URLSearchParams(search));
        if (values === undefined) {
          if (input.required) invalid = true;
          continue;
        }
        if (values.some((value) => !validator.validateValue(input.schema, value).length)) valid = true;
        else invalid = true;
      }
      totals.parameters[0] += Number(valid) + Number(constrained && invalid);
      totals.parameters[1] += 1 + Number(constrained);
      return { location: input.location, name: input.name, constrained, valid, invalid };
    });

    const headers = documented.flatMap((status) =>
      Object.keys(l.op.responses[String(status)]?.headers ?? {}).map((name) => {
        const seenHere = seen.some((e) => e.status === status && e.responseHeaders.includes(name.toLowerCase()));
        const isCounted = !uncounted(status) && !(`${status} ${name}` in NOT_PROVOKABLE_HEADERS);
        if (isCounted) {
          totals.headers[0] += Number(seenHere);
          totals.headers[1] += 1;
        }
        return { status, name, seen: seenHere, counted: isCounted };
      }),
    );

    return {
      service: l.service,
      operationId: l.op.operationId,
      method: l.method,
      path: l.path,
      row: l.row,
      column: l.column,
      exchanges: seen.length,
      statuses: {
        exercised,
        missing: counted.filter((status) => !answered.has(status)),
        notCounted: documented.filter(uncounted),
      },
      parameters,
      headers,
    };
  });

  const summary = Object.fromEntries(DIMENSIONS.map((d) => [d, ratio(...totals[d])])) as Record<Dimension, Ratio>;
  return { summary, operations: coverage, unmatched };
}

/** The dimensions below `minimum` percent, each with its figure. */
export function belowMinimum(coverage: Coverage, minimum: number): { dimension: Dimension; percent: number }[] {
  return DIMENSIONS.filter((d) => coverage.summary[d].percent < minimum).map((d) => ({
    dimension: d,
    percent: coverage.summary[d].percent,
  }));
}
