/**
 * References inside an OpenAPI document: a parameter as `components.parameters` holds it, and the
 * components a part of the document reaches. Plain JavaScript, so that the generator scripts run it on
 * Node without a TypeScript loader, and the server and the conformance suite import the same function.
 */

/**
 * @template {{ $ref?: string }} P
 * @param {{ components?: { parameters?: Record<string, any> } }} document
 * @param {P} parameter
 * @returns {P}
 */
export function parameterOf(document, parameter) {
  if (!parameter.$ref) return parameter;
  return document.components?.parameters?.[/** @type {string} */ (parameter.$ref.split("/").pop())] ?? parameter;
}

/**
 * @template {{ $ref?: string }} P
 * @param {{ components?: { parameters?: Record<string, any> } }} document
 * @param {readonly P[] | undefined} parameters
 * @returns {P[]}
 */
export function parametersOf(document, parameters) {
  return (parameters ?? []).map((parameter) => parameterOf(document, parameter));
}

const COMPONENT_REF = /^#\/components\/([^/]+)\/(.+)$/;

/**
 * `components` with only what `root` reaches: every string that points at a component (a `$ref`, or a
 * discriminator's mapping), followed transitively through the components it reaches. Security schemes
 * are kept whole, since `security` names them rather than pointing at them. JSON Pointer escapes undone.
 * @param {Record<string, Record<string, unknown>> | undefined} components
 * @param {unknown} root
 * @returns {Record<string, Record<string, unknown>> | undefined}
 */
export function reachedComponents(components, root) {
  if (!components) return components;
  /** @type {Record<string, Record<string, unknown>>} */
  const reached = components.securitySchemes ? { securitySchemes: components.securitySchemes } : {};
  const pending = [root];
  while (pending.length) {
    const node = pending.pop();
    if (typeof node === "string") {
      const [, kind, escaped] = COMPONENT_REF.exec(node) ?? [];
      if (!kind || !escaped) continue;
      const name = escaped.replace(/~1/g, "/").replace(/~0/g, "~");
      const component = components[kind]?.[name];
      if (component === undefined || reached[kind]?.[name] !== undefined) continue;
      reached[kind] ??= {};
      reached[kind][name] = component;
      pending.push(component);
    } else if (node && typeof node === "object") pending.push(...Object.values(node));
  }
  return reached;
}
