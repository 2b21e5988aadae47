/**
 * fast-check inputs derived from the request schemas: schema-valid values (enums, bounds, patterns,
 * formats, required keys), leaning on the adversarial ones (the bounds themselves and a hair inside
 * them, the smallest and largest doubles in range, -0; strings of awkward code points at their
 * length limits), and their fuzzed counterparts (any field replaced by arbitrary JSON or dropped,
 * unknown keys added, numbers past every bound including ones JSON cannot hold, non-object bodies,
 * malformed JSON, bare and non-finite query values, garbage payment headers).
 */
import fc from "fast-check";
import type { CaseRequest } from "./http.js";
import { type OpenApiDoc, parametersOf, type Schema } from "./openapi-doc.js";
import { effective, propertiesOf } from "./schemas.js";

const PRINTABLE = fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code));
const MAX_ITEMS = 3;

/** Code points that break naive handling: NUL, controls, a BOM, right-to-left marks, combining and astral characters, quotes. */
const AWKWARD = [
  "\u0000",
  "\u0007",
  "\n",
  "\ufeff",
  "\u202e",
  "e\u0301",
  "😀",
  "𝓧",
  '"',
  "\\",
  "'",
  "%00",
  "<",
  "__proto__",
];

function stringValue(s: Schema): fc.Arbitrary<string> {
  const min = typeof s.minLength === "number" ? s.minLength : 0;
  const max = Math.max(min, Math.min(typeof s.maxLength === "number" ? s.maxLength : 40, 40));
  const limit = typeof s.maxLength === "number" ? s.maxLength : 200;
  if (s.format === "date-time")
    return fc
      .date({ min: new Date("2020-01-01"), max: new Date("2030-01-01"), noInvalidDate: true })
      .map((d) => d.toISOString());
  if (s.format === "date")
    return fc
      .date({ min: new Date("2020-01-01"), max: new Date("2030-01-01"), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  if (s.format === "uri") return fc.webUrl();
  if (typeof s.pattern === "string")
    return fc
      .stringMatching(new RegExp(s.pattern))
      .filter((v) => v.length >= min && v.length <= ((s.maxLength as number | undefined) ?? Infinity));
  const awkward = fc
    .array(fc.constantFrom(...AWKWARD), { minLength: 1, maxLength: 8 })
    .map((parts) =>
      parts
        .join("")
        .padEnd(min, "x")
        .slice(0, Math.max(min, Math.min(limit, 60))),
    )
    .filter((v) => v.length >= min && v.length <= limit);
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ unit: PRINTABLE, minLength: min, maxLength: max }) },
    { weight: 1, arbitrary: awkward },
    { weight: 1, arbitrary: fc.constant("x".repeat(Math.max(min, Math.min(limit, 1024)))) },
  );
}

function numberValue(s: Schema, integer: boolean): fc.Arbitrary<number> {
  const exMin = typeof s.exclusiveMinimum === "number" ? s.exclusiveMinimum : undefined;
  const exMax = typeof s.exclusiveMaximum === "number" ? s.exclusiveMaximum : undefined;
  const min = s.minimum ?? exMin ?? -1_000_000;
  const max = s.maximum ?? exMax ?? 1_000_000;
  if (integer) {
    const [lo, hi] = [Math.ceil(exMin === undefined ? min : min + 1), Math.floor(exMax === undefined ? max : max - 1)];
    return fc.oneof(
      { weight: 2, arbitrary: fc.integer({ min: lo, max: hi }) },
      { weight: 1, arbitrary: fc.constantFrom(lo, hi) },
    );
  }
  const inRange = (v: number) =>
    (exMin === undefined ? v >= min : v > min) && (exMax === undefined ? v <= max : v < max);
  // the bounds and a hair inside them, the smallest positive double, -0, and huge values where the range allows
  const edges = [
    min,
    max,
    min + Number.EPSILON * Math.max(1, Math.abs(min)),
    max * (1 - Number.EPSILON),
    Number.MIN_VALUE,
    -0,
    0,
    1e15,
    1e300,
  ].filter(inRange);
  const any = fc.double({
    min,
    max,
    minExcluded: exMin !== undefined,
    maxExcluded: exMax !== undefined,
    noNaN: true,
    noDefaultInfinity: true,
  });
  return edges.length
    ? fc.oneof({ weight: 2, arbitrary: any }, { weight: 1, arbitrary: fc.constantFrom(...edges) })
    : any;
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
      return fc.array(validValue(doc, s.items ?? {}, depth + 1), {
        minLength,
        maxLength: Math.max(minLength, MAX_ITEMS),
      });
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

/** Numbers past every bound: beyond the contract's limits, and beyond what a double holds (JSON parses 1e309 as Infinity). */
const NUMBER_TEXTS = ["1e309", "-1e309", "1.7976931348623157e308", "-1", "1e21", "0.1e-400", "99999999999999999999999"];

/** An object shaped like the schema whose fields may each be dropped, valid, or any JSON; plus unknown keys. */
function fuzzedObject(doc: OpenApiDoc, schema: Schema): fc.Arbitrary<Record<string, unknown>> {
  const properties = propertiesOf(doc, schema);
  const model = Object.fromEntries(properties.map((p) => [p.name, fc.oneof(validValue(doc, p.schema), anyJson)]));
  return fc
    .tuple(
      fc.record(model, { requiredKeys: [] }),
      fc.dictionary(fc.string({ unit: PRINTABLE, maxLength: 12 }), anyJson, { maxKeys: 2 }),
    )
    .map(([known, unknown]) => ({ ...unknown, ...known }));
}

/**
 * A valid body with one numeric field written as raw JSON past its bounds (JSON.stringify cannot
 * write 1e309: it would be null), or undefined when the body has no numeric field.
 */
function overflowingBody(doc: OpenApiDoc, schema: Schema): fc.Arbitrary<string> | undefined {
  const numeric = propertiesOf(doc, schema).filter((p) =>
    ["number", "integer"].includes(String(effective(doc, p.schema).type)),
  );
  if (!numeric.length) return undefined;
  return fc
    .tuple(validObject(doc, schema), fc.constantFrom(...numeric.map((p) => p.name)), fc.constantFrom(...NUMBER_TEXTS))
    .map(([body, field, number]) => {
      const rest = JSON.stringify({ ...body, [field]: undefined });
      return `{"${field}": ${number}${rest === "{}" ? "}" : `, ${rest.slice(1)}`}`;
    });
}

/** A request whose body is valid, fuzzed, not an object, not JSON at all, or carries a number past every bound. */
export function fuzzedBody(doc: OpenApiDoc, schema: Schema, request: CaseRequest): fc.Arbitrary<CaseRequest> {
  const overflow = overflowingBody(doc, schema);
  return fc.oneof(
    { weight: 3, arbitrary: fuzzedObject(doc, schema).map((body) => ({ ...request, body })) },
    { weight: 1, arbitrary: validObject(doc, schema).map((body) => ({ ...request, body })) },
    { weight: 1, arbitrary: anyJson.map((body) => ({ ...request, body })) },
    {
      weight: 1,
      arbitrary: fc
        .string({ unit: PRINTABLE, maxLength: 60 })
        .map((rawBody) => ({ ...request, body: undefined, rawBody })),
    },
    ...(overflow
      ? [{ weight: 2, arbitrary: overflow.map((rawBody) => ({ ...request, body: undefined, rawBody })) }]
      : []),
  );
}

/** A GET whose query and path parameters are each valid, arbitrary text, or (query only) left out. */
export function fuzzedParameters(
  doc: OpenApiDoc,
  template: string,
  op: Parameters<typeof parametersOf>[1],
  valid = false,
) {
  const params = parametersOf(doc, op).filter((p) => p?.schema && (p.in === "query" || p.in === "path"));
  const text = (p: (typeof params)[number]) => {
    const good = validValue(doc, p?.schema as Schema).map(String);
    // query values a careless parser turns into a number it cannot hold, or into nothing
    const odd = fc.constantFrom("Infinity", "-Infinity", "NaN", "", ...NUMBER_TEXTS);
    return valid
      ? good
      : fc.oneof(
          good,
          fc.string({ unit: PRINTABLE, minLength: 1, maxLength: 50 }),
          ...(p?.in === "query" ? [odd] : []),
        );
  };
  const model = Object.fromEntries(params.map((p) => [`${p?.in}:${p?.name}`, text(p)]));
  const requiredKeys = params.filter((p) => p?.in === "path" || p?.required).map((p) => `${p?.in}:${p?.name}`);
  const repeat = valid ? fc.constant(false) : fc.boolean();
  return fc.tuple(fc.record(model, { requiredKeys }), repeat).map(([values, repeated]): CaseRequest => {
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[`path:${name}`] ?? ""));
    const query: string[] = [];
    for (const [key, value] of Object.entries(values)) {
      if (!key.startsWith("query:") || value === undefined) continue;
      const name = encodeURIComponent(key.slice(6));
      // an empty value is sent as a bare key (`?limit`); a repeated key is sent twice
      query.push(value === "" ? name : `${name}=${encodeURIComponent(value)}`);
      if (repeated) query.push(`${name}=${encodeURIComponent(value || "1")}`);
    }
    return { method: "GET", path: `${path}${query.length ? `?${query.join("&")}` : ""}` };
  });
}

/** A schema-valid POST body. */
export const validBody = (doc: OpenApiDoc, schema: Schema, request: CaseRequest): fc.Arbitrary<CaseRequest> =>
  validObject(doc, schema).map((body) => ({ ...request, body }));

/** `X-PAYMENT` values that are not a valid payment: text, base64 of JSON, and x402-shaped payloads with random parts. */
export const garbagePayment: fc.Arbitrary<string> = fc.oneof(
  fc.string({
    unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
    minLength: 1,
    maxLength: 200,
  }),
  anyJson.map((value) => Buffer.from(JSON.stringify(value)).toString("base64")),
  fc
    .record({
      x402Version: fc.oneof(fc.constant(1), anyJson),
      scheme: fc.oneof(fc.constant("exact"), anyJson),
      network: fc.constantFrom(
        "solana",
        "solana-devnet",
        "base",
        "base-sepolia",
        "skale-base",
        "skale-base-sepolia",
        "ethereum",
      ),
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
