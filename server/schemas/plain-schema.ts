/**
 * A schema of a contract as a client receives it outside its OpenAPI document (a Bazaar extension, an
 * MCP tool's input and output): self-contained (every `$ref` inlined) and without the words that
 * document rather than constrain, which stay in the document.
 */
import { inlineRefs } from "./inline-refs.js";

/**
 * Words that document rather than constrain, left to the OpenAPI document. `format` among them:
 * OpenAPI's numeric formats mean nothing to a JSON Schema validator, `date-time` only to one with
 * format plugins (the SDK's Ajv warns on each), and every timestamp has its `pattern` as well.
 */
const PROSE = new Set(["description", "example", "examples", "title", "format"]);

/** A schema without its prose. `properties` maps names to schemas, so its keys are kept whatever they are. */
export function withoutProse(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutProse);
  if (!schema || typeof schema !== "object") return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => !PROSE.has(key))
      .map(([key, value]) => [
        key,
        key === "properties" && value && typeof value === "object"
          ? Object.fromEntries(Object.entries(value).map(([name, property]) => [name, withoutProse(property)]))
          : withoutProse(value),
      ]),
  );
}

/** An OpenAPI document, as far as its schemas go. */
type Document = { components?: unknown };

/** The document's component schemas without prose, computed once per document. */
const plainSchemas = new WeakMap<Document, Record<string, unknown>>();
function plainSchemasOf(document: Document): Record<string, unknown> {
  let schemas = plainSchemas.get(document);
  if (!schemas) {
    const components = (document.components as { schemas?: Record<string, unknown> } | undefined)?.schemas ?? {};
    schemas = Object.fromEntries(Object.entries(components).map(([name, schema]) => [name, withoutProse(schema)]));
    plainSchemas.set(document, schemas);
  }
  return schemas;
}

/** `schema` (of `document`) self-contained and without prose. */
export function plainSchema(document: Document, schema: unknown): Record<string, unknown> {
  return inlineRefs(withoutProse(schema), plainSchemasOf(document)) as Record<string, unknown>;
}

/** Words that bound a value rather than shape it. */
const BOUNDS = new Set([
  "pattern",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
]);
const BOUNDS_OF_LISTS = new Set(["minItems", "maxItems", "uniqueItems", "multipleOf"]);

/**
 * The shape of a plain schema (types, fields, items, enums, alternatives) without its bounds, with
 * `required` only at its root, no `type` beside an `enum`, and a nullable field's types as a list: what a reader needs to use an answer, at about two thirds of the
 * size. The full schema stays in the document, and the service checks every answer against it.
 */
export function shapeOf(schema: unknown, root = true): unknown {
  if (Array.isArray(schema)) return schema.map((item) => shapeOf(item, false));
  if (!schema || typeof schema !== "object") return schema;
  const entries = Object.entries(schema);
  // `{allOf: [X]}` is how the document hangs a description on a reference; without it, it is X.
  if (entries.length === 1 && entries[0]?.[0] === "allOf" && Array.isArray(entries[0][1]) && entries[0][1].length === 1)
    return shapeOf(entries[0][1][0], root);
  // `{anyOf: [{type: A}, {type: B}]}` (a nullable field) is `{type: [A, B]}`.
  const types = typeAlternatives(schema as Record<string, unknown>);
  if (types) return { type: types };
  // An enum names its values: a `type` beside it says nothing more.
  const enumerated = entries.some(([key]) => key === "enum");
  return Object.fromEntries(
    entries
      .filter(
        ([key]) =>
          !BOUNDS.has(key) &&
          !BOUNDS_OF_LISTS.has(key) &&
          (root || key !== "required") &&
          !(enumerated && key === "type"),
      )
      .map(([key, value]) => [
        key,
        key === "properties" && value && typeof value === "object"
          ? Object.fromEntries(Object.entries(value).map(([name, property]) => [name, shapeOf(property, false)]))
          : shapeOf(value, false),
      ]),
  );
}

/** The types of an `anyOf` whose every alternative is a bare type, else undefined. */
function typeAlternatives(schema: Record<string, unknown>): string[] | undefined {
  const { anyOf, ...rest } = schema;
  if (!Array.isArray(anyOf) || Object.keys(rest).length > 0) return undefined;
  const types = anyOf.map((alternative) =>
    alternative &&
    typeof alternative === "object" &&
    Object.keys(alternative).length === 1 &&
    typeof alternative.type === "string"
      ? (alternative.type as string)
      : undefined,
  );
  return types.every((type) => type !== undefined) ? (types as string[]) : undefined;
}
