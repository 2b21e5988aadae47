/**
 * A JSON Schema with every `#/components/schemas/...` reference replaced by a copy of its target,
 * so that it stands alone outside its document: the 402's `outputSchema` travels to clients and
 * facilitators that never see the OpenAPI document. A reference with siblings (a description)
 * becomes `allOf` of its target, which keeps both meanings. The contract's input schemas are not
 * recursive; a cycle or a reference to nothing is a contract error and throws.
 */
const PREFIX = "#/components/schemas/";

export function inlineRefs(
  schema: unknown,
  schemas: Readonly<Record<string, unknown>>,
  trail: readonly string[] = [],
): unknown {
  if (Array.isArray(schema)) return schema.map((item) => inlineRefs(item, schemas, trail));
  if (!schema || typeof schema !== "object") return schema;
  const { $ref, ...rest } = schema as Record<string, unknown>;
  const own = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, inlineRefs(value, schemas, trail)]));
  if ($ref === undefined) return own;
  if (typeof $ref !== "string" || !$ref.startsWith(PREFIX))
    throw new Error(`cannot inline the reference ${String($ref)}`);
  const name = decodeURIComponent($ref.slice(PREFIX.length));
  if (trail.includes(name)) throw new Error(`cannot inline the recursive schema ${[...trail, name].join(" → ")}`);
  if (!Object.hasOwn(schemas, name)) throw new Error(`the reference ${$ref} names no schema`);
  const target = inlineRefs(schemas[name], schemas, [...trail, name]);
  return Object.keys(own).length ? { allOf: [target], ...own } : target;
}
