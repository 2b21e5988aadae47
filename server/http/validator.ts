/**
 * express-openapi-validator configured from a generated 3.1 document: requests always validated
 * (all errors reported, so a 400 names every invalid field), responses validated unless switched
 * off for production. The document is cloned because the validator annotates what it is given.
 */

import type { RequestHandler } from "express";
import * as OpenApiValidator from "express-openapi-validator";

export function openApiValidation(document: object, { validateResponses }: { validateResponses: boolean }): RequestHandler[] {
  return OpenApiValidator.middleware({
    apiSpec: structuredClone(document) as never,
    validateApiSpec: false,
    validateRequests: { allErrors: true },
    validateResponses: validateResponses ? { allErrors: true } : false,
    ignoreUndocumented: false,
  }) as RequestHandler[];
}
