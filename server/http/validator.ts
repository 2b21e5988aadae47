/**
 * express-openapi-validator configured from a generated 3.1 document: requests always validated
 * (all errors reported, so a 400 names every invalid field), responses validated unless switched
 * off for production. The validator compiles each route's schemas on first use; one instance is
 * kept per document and option so that apps built from the same contract share that work.
 */
import { createRequire } from "node:module";
import type { RequestHandler } from "express";
import * as OpenApiValidator from "express-openapi-validator";

/**
 * express-openapi-validator 5.6 finds a request's route by compiling every documented path pattern
 * again on each request (path-to-regexp, until one matches): with 112 routes that was a tenth of
 * the service's CPU. The patterns never change, so their compilation is memoized once per process.
 */
function memoizeRoutePatterns(): void {
  const require = createRequire(import.meta.url);
  const module = require(require.resolve("path-to-regexp", { paths: [require.resolve("express-openapi-validator")] }));
  if (module.pathToRegexp.memoized) return;
  const compile = module.pathToRegexp;
  // keyed by pattern, then by the two routing options the validator passes (cheaper than serializing them)
  const compiled = new Map<string, Map<string, unknown>>();
  const memoized = (path: unknown, options?: { sensitive?: boolean; strict?: boolean; end?: boolean }) => {
    if (typeof path !== "string" || (options && Object.keys(options).some((k) => k !== "sensitive" && k !== "strict")))
      return compile(path, options);
    const variant = `${options?.sensitive === true}:${options?.strict === true}`;
    let byVariant = compiled.get(path);
    if (!byVariant) {
      byVariant = new Map();
      compiled.set(path, byVariant);
    }
    let result = byVariant.get(variant);
    if (result === undefined) {
      result = compile(path, options);
      byVariant.set(variant, result);
    }
    return result;
  };
  memoized.memoized = true;
  module.pathToRegexp = memoized;
}
memoizeRoutePatterns();

const instances = new WeakMap<object, Map<boolean, RequestHandler[]>>();

export function openApiValidation(document: object, { validateResponses }: { validateResponses: boolean }): RequestHandler[] {
  let byOption = instances.get(document);
  if (!byOption) {
    byOption = new Map();
    instances.set(document, byOption);
  }
  let middleware = byOption.get(validateResponses);
  if (!middleware) {
    middleware = OpenApiValidator.middleware({
      // a copy: the validator annotates the document it is given
      apiSpec: structuredClone(document) as never,
      validateApiSpec: false,
      validateRequests: { allErrors: true },
      validateResponses: validateResponses ? { allErrors: true } : false,
      ignoreUndocumented: false,
    }) as RequestHandler[];
    byOption.set(validateResponses, middleware);
  }
  return middleware;
}
