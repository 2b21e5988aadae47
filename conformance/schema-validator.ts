/**
 * An independent response validator: Ajv (JSON Schema 2020-12) over the generated 3.1 documents,
 * separate from the server's own validation middleware, so a server bug in that middleware cannot
 * hide a contract violation.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { OpenApiDoc, Schema } from "./openapi-doc.js";

export type Violation = { path: string; message: string };

export interface ResponseValidator {
  /** Violations of the response schema of `method path` for `status` (empty when valid). */
  validate(method: string, path: string, status: number, body: unknown): Violation[];
  /** Violations of a component schema (e.g. `DefiTvlData`). */
  validateComponent(name: string, value: unknown): Violation[];
  /** Violations of any schema of the document (a parameter's, a body field's), its `$ref`s read from the components. */
  validateValue(schema: Schema, value: unknown): Violation[];
}

const run = (fn: ValidateFunction, value: unknown): Violation[] =>
  fn(value)
    ? []
    : (fn.errors ?? []).map((e: ErrorObject) => ({
        path: e.instancePath || "/",
        message: `${e.message ?? "invalid"}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`,
      }));

const standalone = new Ajv2020({ allErrors: true, strict: false });
const compiledStandalone = new Map<string, ValidateFunction>();

/**
 * Violations of `value` against a self-contained JSON Schema 2020-12 that a target sent (a Bazaar
 * extension's `schema`); throws when the schema does not compile.
 */
export function validateWithSchema(schema: object, value: unknown): Violation[] {
  const key = JSON.stringify(schema);
  let fn = compiledStandalone.get(key);
  if (!fn) {
    fn = standalone.compile(schema);
    compiledStandalone.set(key, fn);
  }
  return run(fn, value);
}

export function createResponseValidator(doc: OpenApiDoc): ResponseValidator {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema({ $id: "doc", components: doc.components }, "doc");
  const cache = new Map<string, ValidateFunction>();
  const compile = (key: string, schema: Schema) => {
    let fn = cache.get(key);
    if (!fn) {
      fn = ajv.compile(rebase(schema));
      cache.set(key, fn);
    }
    return fn;
  };
  return {
    validate(method, path, status, body) {
      const operation = doc.paths[path]?.[method.toLowerCase()];
      if (!operation) return [{ path: "/", message: `${method.toUpperCase()} ${path} is not in the document` }];
      const schema = operation.responses[String(status)]?.content?.["application/json"]?.schema;
      if (!schema)
        return [{ path: "/", message: `status ${status} is not declared for ${method.toUpperCase()} ${path}` }];
      return run(compile(`${method} ${path} ${status}`, schema), body);
    },
    validateComponent(name, value) {
      const schema = doc.components.schemas[name];
      if (!schema) return [{ path: "/", message: `no component ${name}` }];
      return run(compile(`#${name}`, { $ref: `#/components/schemas/${name}` }), value);
    },
    validateValue(schema, value) {
      return run(compile(JSON.stringify(schema), schema), value);
    },
  };
}

/** Points local `#/components/...` references at the registered document. */
function rebase(schema: Schema): Schema {
  return JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, '"$ref":"doc#/'));
}
