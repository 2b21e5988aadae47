/**
 * express-openapi-validator configured from a generated 3.1 document: requests always validated
 * (all errors reported, so a 400 names every invalid field), responses validated unless switched
 * off for production. The validator compiles each route's schemas on first use; one instance is
 * kept per document and option so that apps built from the same contract share that work.
 */
import type { RequestHandler } from "express";
import * as OpenApiValidator from "express-openapi-validator";

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
