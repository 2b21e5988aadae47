/** Reading request schemas for case and input generation: references resolved with their sibling keywords kept. */
import { type OpenApiDoc, resolve, type Schema, typesOf } from "./openapi-doc.js";

/** The schema a property really has: `{allOf: [$ref], maximum, default}` becomes the target merged with its siblings. */
export function effective(doc: OpenApiDoc, schema: Schema): Schema {
  const { $ref: _ref, allOf, ...own } = schema;
  if (!_ref && !(allOf?.length === 1 && !schema.properties)) return schema;
  return { ...effective(doc, resolve(doc, schema)), ...own };
}

export interface Property {
  name: string;
  schema: Schema;
  required: boolean;
}

/** The properties of an object schema (a request body). */
export function propertiesOf(doc: OpenApiDoc, schema: Schema): Property[] {
  const object = effective(doc, schema);
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    schema: effective(doc, property),
    required: object.required?.includes(name) ?? false,
  }));
}

/** The JSON type of a value as JSON Schema names it. */
export function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** Whether the schema's types admit the value's JSON type ("number" admits integers; no types admits all). */
export function admitsType(doc: OpenApiDoc, schema: Schema, value: unknown): boolean {
  const types = typesOf(doc, schema);
  const type = jsonType(value);
  return types.length === 0 || types.includes(type) || (type === "integer" && types.includes("number"));
}
