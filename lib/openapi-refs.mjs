/**
 * Parameters of an OpenAPI document as written or, for a `$ref` (a field shared by a body model and
 * a legacy GET's query), as `components.parameters` holds it. Plain JavaScript, so that the generator
 * scripts run it on Node without a TypeScript loader, and the server and the conformance suite
 * import the same function.
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
