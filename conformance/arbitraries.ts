/**
 * fast-check inputs derived from the request schemas: schema-valid values (enums, bounds, patterns,
 * formats, required keys) and their fuzzed counterparts (any field replaced by arbitrary JSON or
 * dropped, unknown keys added, non-object bodies, malformed JSON, garbage payment headers).
 */
import fc from "fast-check";
import type { CaseRequest } from "./http.js";
import { type OpenApiDoc, parametersOf, type Schema } from "./openapi-doc.js";
import { effective, propertiesOf } from "./schemas.js";

const PRINTABLE = fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code));
const MAX_ITEMS = 3;

function stringValue(s: Schema): fc.Arbitrary<string> {
  const min = typeof s.minLength === "number" ? s.minLength : 0;
  const max = Math.max(min, Math.min(typeof s.maxLength === "number" ? s.maxLength : 40, 40));
  if (s.format === "date-time")
    return fc.date({ min: new Date("2020-01-01"), max: new Date("2030-01-01"), noInvalidDate: true }).map((d) => d.toISOString());
  if (s.format === "date")
    return fc
      .date({ min: new Date("2020-01-01"), max: new Date("2030-01-01"), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  if (s.format === "uri") return fc.webUrl();
  if (typeof s.pattern === "string")
    return fc
      .stringMatching(new RegExp(s.pattern))
      .filter((v) => v.length >= min && v.length <= ((s.maxLength as number | undefined) ?? Infinity));
  return fc.string({ unit: PRINTABLE, minLength: min, maxLength: max });
}

function numberValue(s: Schema, integer: boolean): fc.Arbitrary<number> {
  const exMin = typeof s.exclusiveMinimum === "number" ? s.exclusiveMinimum : undefined;
  const exMax = typeof s.exclusiveMaximum === "number" ? s.exclusiveMaximum : undefined;
  const min = s.minimum ?? exMin ?? -1_000_000;
  const max = s.maximum ?? exMax ?? 1_000_000;
  if (integer)
    return fc.integer({ min: Math.ceil(exMin === undefined ? min : min + 1), max: Math.floor(exMax === undefined ? max : max - 1) });
  return fc.double({ min, max, minExcluded: exMin !== undefined, maxExcluded: exMax !== undefined, noNaN: true, noDefaultInfinity: true });
}

/** A value the schema accepts. */
export function validValue(doc: OpenApiDoc, schema: Schema, depth = 0): fc.Arbitrary<unknown> {
  const s = effective(doc, schema);
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.const !== undefined) return fc.constant(s.const);
  const branches = s.anyOf ?? s.oneOf;
  if (branches) return fc.oneof(...branches.map((branch) => validValue(doc, branch, depth + 1)));
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : s.properties ? ["object"] : [];
  if (types.length > 1) return fc.oneof(...types.map((type) => validValue(doc, { ...s, type }, depth)));
  switch (types[0]) {
    case "string":
      return stringValue(s);
    case "integer":
    case "number":
      return numberValue(s, types[0] === "integer");
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const minLength = typeof s.minItems === "number" ? s.minItems : 0;
      return fc.array(validValue(doc, s.items ?? {}, depth + 1), { minLength, maxLength: Math.max(minLength, MAX_ITEMS) });
    }
    case "object":
      return depth > 4 ? fc.constant({}) : validObject(doc, s, depth + 1);
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}

function validObject(doc: OpenApiDoc, schema: Schema, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const properties = propertiesOf(doc, schema);
  const model = Object.fromEntries(properties.map((p) => [p.name, validValue(doc, p.schema, depth)]));
  return fc.record(model, { requiredKeys: properties.filter((p) => p.required).map((p) => p.name) });
}

/** Any JSON value, small. */
const anyJson = fc.jsonValue({ maxDepth: 2 });

/** An object shaped like the schema whose fields may each be dropped, valid, or any JSON; plus unknown keys. */
function fuzzedObject(doc: OpenApiDoc, schema: Schema): fc.Arbitrary<Record<string, unknown>> {
  const properties = propertiesOf(doc, schema);
  const model = Object.fromEntries(properties.map((p) => [p.name, fc.oneof(validValue(doc, p.schema), anyJson)]));
  return fc
    .tuple(fc.record(model, { requiredKeys: [] }), fc.dictionary(fc.string({ unit: PRINTABLE, maxLength: 12 }), anyJson, { maxKeys: 2 }))
    .map(([known, unknown]) => ({ ...unknown, ...known }));
}

/** A request whose body is valid, fuzzed, not an object, or not JSON at all. */
export function fuzzedBody(doc: OpenApiDoc, schema: Schema, request: CaseRequest): fc.Arbitrary<CaseRequest> {
  return fc.oneof(
    { weight: 3, arbitrary: fuzzedObject(doc, schema).map((body) => ({ ...request, body })) },
    { weight: 1, arbitrary: validObject(doc, schema).map((body) => ({ ...request, body })) },
    { weight: 1, arbitrary: anyJson.map((body) => ({ ...request, body })) },
    { weight: 1, arbitrary: fc.string({ unit: PRINTABLE, maxLength: 60 }).map((rawBody) => ({ ...request, body: undefined, rawBody })) },
  );
}

/** A GET whose query and path parameters are each valid, arbitrary text, or (query only) left out. */
export function fuzzedParameters(doc: OpenApiDoc, template: string, op: Parameters<typeof parametersOf>[1], valid = false) {
  const params = parametersOf(doc, op).filter((p) => p?.schema && (p.in === "query" || p.in === "path"));
  const text = (p: (typeof params)[number]) => {
    const good = validValue(doc, p?.schema as Schema).map(String);
    return valid ? good : fc.oneof(good, fc.string({ unit: PRINTABLE, minLength: 1, maxLength: 50 }));
  };
  const model = Object.fromEntries(params.map((p) => [`${p?.in}:${p?.name}`, text(p)]));
  const requiredKeys = params.filter((p) => p?.in === "path" || p?.required).map((p) => `${p?.in}:${p?.name}`);
  return fc.record(model, { requiredKeys }).map((values): CaseRequest => {
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[`path:${name}`] ?? ""));
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(values)) if (key.startsWith("query:") && value !== undefined) query.set(key.slice(6), value);
    return { method: "GET", path: `${path}${query.size ? `?${query}` : ""}` };
  });
}

/** A schema-valid POST body. */
export const validBody = (doc: OpenApiDoc, schema: Schema, request: CaseRequest): fc.Arbitrary<CaseRequest> =>
  validObject(doc, schema).map((body) => ({ ...request, body }));

/** `X-PAYMENT` values that are not a valid payment: text, base64 of JSON, and x402-shaped payloads with random parts. */
export const garbagePayment: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 200 }),
  anyJson.map((value) => Buffer.from(JSON.stringify(value)).toString("base64")),
  fc
    .record({
      x402Version: fc.oneof(fc.constant(1), anyJson),
      scheme: fc.oneof(fc.constant("exact"), anyJson),
      network: fc.constantFrom("solana", "solana-devnet", "base", "base-sepolia", "skale-base", "skale-base-sepolia", "ethereum"),
      payload: fc.oneof(
        anyJson,
        fc.record({ transaction: fc.base64String({ maxLength: 200 }) }),
        fc.record({
          signature: fc.string({ maxLength: 140 }),
          authorization: fc.dictionary(fc.string({ maxLength: 12 }), fc.string({ maxLength: 70 })),
        }),
      ),
    })
    .map((payload) => Buffer.from(JSON.stringify(payload)).toString("base64")),
);
