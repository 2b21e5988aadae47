/**
 * The one check of a paid call's input, compiled from the generated contract: a POST's body or a tool's
 * arguments against the operation's request schema, a legacy GET's query string and path against its
 * parameters (their strings read as the types the schemas give), unknown query keys refused on both.
 * Every error is reported, each naming its field where it was sent, worded as the contract's 400 words
 * it (errors.ts); defaults are filled in. A legacy GET's input becomes its POST's body: the fields it
 * carries over the body's defaults, so that one handler serves both.
 *
 * Each operation's schemas are compiled on its first call, once per contract (the three prefixes and
 * every app built from one contract share them), with Ajv, JSON Schema 2020-12 as the 3.1 documents use.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { parametersOf } from "../../../lib/openapi-refs.mjs";
import { type FieldError, NOT_A_FIELD } from "../../http/errors.js";
import { DECIMAL, nonFiniteFields } from "../../http/input-guard.js";
import type { AnalyticsContract, PaidRoute } from "../contract/analytics-contract.js";
import { type CompileSchema, contractCompiler } from "../contract/schema-compiler.js";

/** What a transport read of a call: a POST's body or a tool's arguments, and a request's query string and path. */
export interface CallInput {
  /** A POST's parsed body or a tool's arguments; absent for a GET. */
  body?: unknown;
  /** The query string's fields, each given once, percent-decoded. */
  query: Readonly<Record<string, string>>;
  /** The path's parameters, percent-decoded. */
  path: Readonly<Record<string, string>>;
  /**
   * What made the request unreadable before any field could be checked (a body that is not JSON, a repeated query
   * field, a GET with a body), when the front still passes it on: a request without payment gets its challenge.
   */
  unread?: FieldError[];
}

export type CheckedInput = { input: Record<string, unknown> } | { errors: FieldError[] };

/** The operation's input from what the call sent, or every field that breaks the contract. */
export type InputCheck = (call: CallInput) => CheckedInput;

/**
 * The numeric formats of OpenAPI's format registry that the contract uses: JSON Schema leaves them open.
 * `int32` and `int64` bound an integer to its width (an int64 past 2^53 cannot reach the service exactly
 * from JSON, so the safe integers are its range here); `double` and `float` admit any finite number.
 */
const OPENAPI_FORMATS = {
  int32: { type: "number", validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 },
  int64: { type: "number", validate: (n: number) => Number.isSafeInteger(n) },
  float: { type: "number", validate: Number.isFinite },
  double: { type: "number", validate: Number.isFinite },
} as const;

/** A compiler of the contract's schemas: a body's types are kept as sent; a query's or path's strings are read as the type. */
function compilerOf(contract: AnalyticsContract, coerceTypes: boolean): CompileSchema {
  const ajv = new Ajv2020({
    strict: false,
    strictNumbers: true,
    validateSchema: false,
    allErrors: true,
    useDefaults: true,
    coerceTypes,
  });
  for (const [name, format] of Object.entries(OPENAPI_FORMATS)) ajv.addFormat(name, format);
  (addFormats as unknown as (a: Ajv2020, options: { mode: "fast" }) => void)(ajv, { mode: "fast" });
  return contractCompiler(contract, ajv);
}

/**
 * Ajv's errors as fields (`location` where the input was sent): the missing, unknown or unevaluated property
 * named, an enum's message listing its values, a closed body's extra field said to be none of the request's.
 */
function fieldErrors(location: FieldError["location"], errors: ErrorObject[]): FieldError[] {
  return errors.map((e) => {
    const params = e.params as {
      allowedValues?: unknown[];
      missingProperty?: string;
      additionalProperty?: string;
      unevaluatedProperty?: string;
    };
    const named = params.missingProperty ?? params.additionalProperty ?? params.unevaluatedProperty;
    const path = (named === undefined ? e.instancePath : `${e.instancePath}/${named}`).slice(1).split("/").join(".");
    // The contract closes its bodies with `unevaluatedProperties: {not: {}}`: a failed `not` is a field it does not have.
    const message =
      e.keyword === "not"
        ? NOT_A_FIELD
        : e.keyword === "enum" && params.allowedValues
          ? `${e.message}: ${params.allowedValues.join(", ")}`
          : (e.message ?? "");
    return { location, field: path || location, message };
  });
}

type Parameter = { name: string; in: string; required?: boolean; schema?: unknown };

const isNumeric = (schema: unknown) => {
  const type = (schema as { type?: unknown } | undefined)?.type;
  return type === "number" || type === "integer";
};

/** A parameters object's schema: its properties, the required ones; unknown keys are refused before it runs. */
const parametersSchema = (parameters: Parameter[]) => ({
  type: "object",
  properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema ?? {}])),
  required: parameters.filter((p) => p.required).map((p) => p.name),
});

/** Every query key the operation does not take, named. */
function unknownQueryKeys(query: CallInput["query"], known: ReadonlySet<string>): FieldError[] {
  const errors: FieldError[] = [];
  for (const field in query)
    if (!known.has(field)) errors.push({ location: "query", field, message: `Unknown query parameter '${field}'` });
  return errors;
}

/** A POST's check: its body against the request schema; any query key is unknown (a POST takes none). */
function bodyCheck(compile: CompileSchema, schema: unknown): InputCheck {
  let validate: ValidateFunction | undefined;
  const none = new Set<string>();
  return ({ body, query }) => {
    const unknown = unknownQueryKeys(query, none);
    if (unknown.length) return { errors: unknown };
    validate ??= compile(schema);
    if (!validate(body)) return { errors: fieldErrors("body", validate.errors ?? []) };
    const nonFinite = nonFiniteFields(body);
    if (nonFinite.length)
      return { errors: nonFinite.map((field) => ({ location: "body", field, message: "must be a finite number" })) };
    return { input: body as Record<string, unknown> };
  };
}

/** The numeric query fields whose text reads as no finite number (`1e309`, `Infinity`): JSON cannot carry them. */
function infiniteNumbers(raw: CallInput["query"], numeric: ReadonlySet<string>): FieldError[] {
  const errors: FieldError[] = [];
  for (const field in raw)
    if (numeric.has(field) && Math.abs(Number(raw[field])) === Number.POSITIVE_INFINITY)
      errors.push({ location: "query", field, message: "must be a finite number" });
  return errors;
}

/** The query fields read as numbers that were not written as decimals (`0x10` and ` 10` read as 16 and 10). */
function undecimalNumbers(raw: CallInput["query"], read: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  for (const [field, value] of Object.entries(read))
    if (typeof value === "number" && raw[field] !== undefined && !DECIMAL.test(raw[field]))
      errors.push({ location: "query", field, message: "must be a decimal number" });
  return errors;
}

/** A legacy GET's check: its query and path parameters, then its input as the POST's body (`venue` only selects). */
function parametersCheck(compile: CompileSchema, route: PaidRoute, parameters: Parameter[]): InputCheck {
  const inQuery = parameters.filter((p) => p.in === "query");
  const inPath = parameters.filter((p) => p.in === "path");
  const known = new Set(inQuery.map((p) => p.name));
  const numeric = new Set(inQuery.filter((p) => isNumeric(p.schema)).map((p) => p.name));
  let validate: { query: ValidateFunction; path: ValidateFunction } | undefined;
  return ({ query, path }) => {
    const unknown = unknownQueryKeys(query, known);
    if (unknown.length) return { errors: unknown };
    validate ??= { query: compile(parametersSchema(inQuery)), path: compile(parametersSchema(inPath)) };
    // A number JSON cannot carry is named as such, not also as out of its schema's range.
    const infinite = infiniteNumbers(query, numeric);
    const read = { query: { ...query } as Record<string, unknown>, path: { ...path } as Record<string, unknown> };
    for (const { field } of infinite) read.query[field] = 0;
    const schema = [
      ...(validate.query(read.query) ? [] : fieldErrors("query", validate.query.errors ?? [])),
      ...(validate.path(read.path) ? [] : fieldErrors("path", validate.path.errors ?? [])),
    ];
    // As written: only once every field has its schema's type is a number's spelling looked at.
    const spelled = schema.length ? schema : undecimalNumbers(query, read.query);
    const errors = [...spelled.filter((e) => !infinite.some(({ field }) => field === e.field)), ...infinite];
    if (errors.length) return { errors };
    const { venue: _venue, ...pathFields } = read.path;
    return { input: { ...route.bodyDefaults, ...read.query, ...pathFields } };
  };
}

const built = new WeakMap<AnalyticsContract, (route: PaidRoute) => InputCheck>();

/** Each paid route's input check, built once per contract. */
export function inputChecks(contract: AnalyticsContract): (route: PaidRoute) => InputCheck {
  let checks = built.get(contract);
  if (!checks) {
    const body = compilerOf(contract, false);
    const parameters = compilerOf(contract, true);
    checks = (route) => {
      const operation = contract.document.paths[route.path]?.[route.method] as
        | { parameters?: { $ref?: string }[]; requestBody?: { content?: Record<string, { schema?: unknown }> } }
        | undefined;
      if (!operation) throw new Error(`the contract has no ${route.method.toUpperCase()} ${route.path}`);
      if (route.method === "get")
        return parametersCheck(parameters, route, parametersOf(contract.document, operation.parameters) as Parameter[]);
      const schema = operation.requestBody?.content?.["application/json"]?.schema;
      if (!schema) throw new Error(`${route.operationId} takes no JSON body`);
      return bodyCheck(body, schema);
    };
    built.set(contract, checks);
  }
  return checks;
}
