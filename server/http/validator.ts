/**
 * express-openapi-validator from a generated 3.1 document, one instance per documented path:
 * requests always validated (all errors reported, so a 400 names every invalid field), responses
 * validated unless switched off for production.
 *
 * One instance per path: the validator compiles every path pattern of its document again on each
 * request. An instance holds one path, with the prefixes it is served under as its `servers` (so
 * `/defi/tvl`, `/base/defi/tvl` and `/skale/defi/tvl` share one instance), and only the component
 * schemas that path reaches, since each instance compiles every schema under `components` at start-up.
 * The library's own options, no patch of its internals. Mount each with `app.all(path, ...)` before the
 * path's handlers: a method the path does not document is then its 405 with `Allow`
 * (docs/decisions/0008-validator-instance-per-path.md).
 *
 * A free GET without query parameters ignores a query string: nothing in it can be misread, and probes
 * add cache-busters (`/livez?_=1700000000`) that a 400 would turn into outage alarms. A paid operation
 * keeps refusing unknown query keys: a body field sent in the query would be charged at its default.
 *
 * A free GET with no parameters, no body and no security (probes, crawlers, discovery documents) skips
 * the validator, which has nothing to check there but would still run its route lookup and parameter
 * parser. It is named for the metrics (request-context.ts's `routeTo`); with any other request
 * target, or when responses are validated, the validator runs as for any other request.
 */
import type { Request, RequestHandler } from "express";
import * as OpenApiValidator from "express-openapi-validator";
import { parametersOf, reachedComponents } from "../../lib/openapi-refs.mjs";
import { handlerChain } from "./handler-chain.js";
import { routeTo } from "./request-context.js";

interface Operation {
  operationId?: string;
  parameters?: unknown[];
  requestBody?: unknown;
  security?: unknown[];
  "x-payment-info"?: unknown;
  "x-eov-allow-unknown-query-parameters"?: boolean;
}

interface Document {
  paths: Record<string, unknown>;
  security?: unknown[];
  components?: { parameters?: Record<string, unknown>; [key: string]: unknown };
  [key: string]: unknown;
}

/** Whether `operation` (or its path `item`) declares a query parameter. */
function queryParameters(document: Document, operation: Operation, item: { parameters?: unknown[] }): boolean {
  const declared = [...(item.parameters ?? []), ...(operation.parameters ?? [])] as { $ref?: string; in?: string }[];
  return parametersOf(document, declared).some((parameter) => parameter.in === "query");
}

/** The GET of `item` when a request for it leaves the validator nothing to check. */
function uncheckedGet(document: Document, item: { get?: Operation; parameters?: unknown[] }): Operation | undefined {
  const get = item.get;
  if (!get || get["x-payment-info"] || item.parameters?.length || get.parameters?.length || get.requestBody)
    return undefined;
  return (get.security ?? document.security)?.length ? undefined : get;
}

/** A document path without the prefix it is served under: `/base/defi/tvl` → [`/base`, `/defi/tvl`]. */
function split(path: string, prefixes: readonly string[]): [string, string] {
  const prefix = prefixes.filter(Boolean).find((p) => path.startsWith(`${p}/`));
  return prefix ? [prefix, path.slice(prefix.length)] : ["", path];
}

type ValidatorFor = (path: string) => RequestHandler;
const built = new WeakMap<Document, Map<string, ValidatorFor>>();

/**
 * `validatorFor(path)`: the validator middleware of a path of `document`. Paths that differ only by
 * one of `prefixes` share an instance. Built once per document and options, so that apps built
 * from the same contract (tests build many) share the validators' compiled schemas.
 */
export function openApiValidation(
  document: Document,
  options: { validateResponses: boolean; prefixes?: readonly string[] },
): ValidatorFor {
  const key = JSON.stringify(options);
  let byOptions = built.get(document);
  if (!byOptions) {
    byOptions = new Map();
    built.set(document, byOptions);
  }
  let validatorFor = byOptions.get(key);
  if (!validatorFor) {
    validatorFor = buildValidators(document, options);
    byOptions.set(key, validatorFor);
  }
  return validatorFor;
}

/**
 * Each path's instance is built on the path's first request, not at start-up: an instance compiles
 * its schemas (and the library's OpenAPI meta-schema, whatever `validateApiSpec` says), and a process
 * that serves a few paths should not wait for all of them before its first answer.
 */
function buildValidators(
  document: Document,
  { validateResponses, prefixes = [] }: { validateResponses: boolean; prefixes?: readonly string[] },
): ValidatorFor {
  const groups = new Map<string, string[]>();
  for (const path of Object.keys(document.paths)) {
    const [prefix, rest] = split(path, prefixes);
    groups.set(rest, [...(groups.get(rest) ?? []), prefix]);
  }
  const instances = new Map<string, RequestHandler>();
  for (const [rest, servedUnder] of groups) {
    let instance: RequestHandler | undefined;
    const build = () => pathValidator(document, rest, servedUnder, validateResponses);
    instances.set(rest, function validate(req, res, next) {
      instance ??= build();
      return instance(req, res, next);
    });
  }
  return (path) => {
    const found = instances.get(split(path, prefixes)[1]);
    if (!found) throw new Error(`the document has no path ${path}`);
    return found;
  };
}

/** The validator of one path (`rest`), served under each of `servedUnder`'s prefixes. */
function pathValidator(
  document: Document,
  rest: string,
  servedUnder: string[],
  validateResponses: boolean,
): RequestHandler {
  const [first] = servedUnder as [string];
  // the path's item as the first prefix documents it: every prefix's copy has the same schemas
  const item = document.paths[`${first}${rest}`];
  const spec = {
    ...document,
    servers: servedUnder.map((prefix) => ({ url: prefix || "/" })),
    paths: { [rest]: item },
    components: reachedComponents(document.components as never, [item, document.security]),
  };
  const copy = structuredClone(spec);
  // A free GET's HEAD twin (with-head.ts) reads the query as its GET does.
  const served = copy.paths[rest] as { get?: Operation; head?: Operation; parameters?: unknown[] };
  for (const operation of [served.get, served.head])
    if (operation && !operation["x-payment-info"] && !queryParameters(document, operation, served))
      operation["x-eov-allow-unknown-query-parameters"] = true;
  const validator = handlerChain(
    OpenApiValidator.middleware({
      // a copy: the validator annotates the document it is given
      apiSpec: copy as never,
      validateApiSpec: false,
      validateRequests: { allErrors: true },
      validateResponses: validateResponses ? { allErrors: true } : false,
      ignoreUndocumented: false,
    }) as RequestHandler[],
  ) as RequestHandler;
  const unchecked = validateResponses ? undefined : uncheckedGet(document, spec.paths[rest] as never);
  return unchecked ? skipWhenUnchecked(rest, unchecked, validator) : validator;
}

/** The validator, except for a GET of the bare path (see the header), which is only named for the metrics. */
function skipWhenUnchecked(path: string, operation: Operation, validator: RequestHandler): RequestHandler {
  return function validateUnlessUnchecked(req: Request, res, next) {
    // The request target as sent must be the path, with or without a query string (which the operation ignores): the
    // validator matches the raw target, so a fragment or an absolute-form target (`GET http://host/livez`) keeps its answer.
    const target = req.originalUrl;
    const bare = target === req.path || (target.startsWith(req.path) && target[req.path.length] === "?");
    if (req.method !== "GET" || !bare) return validator(req, res, next);
    routeTo(req, operation.operationId ?? path);
    next();
  };
}
