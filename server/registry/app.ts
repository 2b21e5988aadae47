/**
 * The registry's Express app, built from its generated OpenAPI 3.1 document: request context,
 * open CORS, request (and optionally response) validation, one route per documented operation
 * bound to its handler by operationId, then the shared JSON 404 and error body.
 *
 * Caching: every 200 carries `Cache-Control` and a strong `ETag` that Express computes from the
 * body; a request whose `If-None-Match` matches gets a 304 without a body.
 */
import express, { type Express, type RequestHandler } from "express";
import type { Logger } from "pino";
import { cors, REGISTRY_CORS } from "../http/cors.js";
import { errorHandler, notFound } from "../http/errors.js";
import { refuseAmbiguousQuery, refuseMalformedNumbers } from "../http/input-guard.js";
import { requestContext } from "../http/request-context.js";
import { openApiValidation } from "../http/validator.js";
import { asGet, withHead } from "../http/with-head.js";
import { registryToolServer } from "../mcp/registry-tools.js";
import { MCP_PATH, mcpEndpoint } from "../mcp/streamable-endpoint.js";
import { requestMetrics, UNMATCHED } from "../ops/metrics.js";
import { embeddedOperations, type OperationsOptions, operationsHandlers, operationsPaths } from "../ops/routes.js";
import { DOCS_ASSETS_PATH, docsAssets } from "../reference-page/reference-page.js";
import type { RegistryDocument } from "./document.js";
import { registryDocument } from "./document.js";
import { type Handler, handlers, type Input, type OperationId } from "./handlers.js";
import { serviceDocumentHandlers } from "./service-documents.js";
import type { RegistryStore } from "./store.js";

export interface RegistryAppOptions {
  store: RegistryStore;
  logger: Logger;
  /** Validate every answer against the contract (tests, development); a violation becomes a 500. */
  validateResponses: boolean;
  /** The origin `/openapi.json` names as its server; unset = the request's own (validated). */
  publicBaseUrl?: string;
  /** Express `trust proxy`: whose X-Forwarded-* headers count (none by default). */
  trustProxy?: string | number | false;
  /** Metrics, readiness checks and the metrics token; default: this app's own metrics, nothing to check. */
  operations?: OperationsOptions;
}

export function createRegistryApp({
  store,
  logger,
  validateResponses,
  publicBaseUrl,
  trustProxy = false,
  operations = embeddedOperations(),
}: RegistryAppOptions): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", trustProxy);
  app.set("etag", "strong");
  app.use(requestContext(logger, operationsPaths(registryDocument)));
  // HEAD is counted as its GET (see withHead).
  app.use(requestMetrics(operations.metrics.registry, (id) => asGet(id) ?? UNMATCHED));
  app.use(cors(REGISTRY_CORS));
  // The /docs page's script and styles: files of the installed package, outside the contract's operations.
  app.use(DOCS_ASSETS_PATH, docsAssets());
  app.use(refuseAmbiguousQuery);
  // Each documented path is validated by its own validator (see validator.ts); any other method on it is its 405 with `Allow`.
  const validatorFor = openApiValidation(SERVED, { validateResponses });
  for (const path of Object.keys(SERVED.paths))
    app.all(path.replace(/\{(\w+)\}/g, ":$1"), validatorFor(path), refuseMalformedNumbers);
  const described = { ...serviceDocumentHandlers(registryDocument, publicBaseUrl), ...operationsHandlers(operations) };
  for (const { path, operationId } of getOperations(registryDocument, described)) {
    const handler =
      described[operationId] ?? route(handlers[operationId as OperationId] as Handler<OperationId>, store);
    app.get(path.replace(/\{(\w+)\}/g, ":$1"), handler);
  }
  // The read operations as free MCP tools (mcp-tools.ts), built on the first MCP request.
  const tools = mcpEndpoint(() => registryToolServer(registryDocument, store), { publicBaseUrl, trustProxy, logger });
  app.all(MCP_PATH, express.json({ limit: "100kb" }), tools);
  app.use(notFound);
  app.use(errorHandler(logger));
  return app;
}

function route<Id extends OperationId>(handler: Handler<Id>, store: RegistryStore): RequestHandler {
  return async function registryRoute(req, res) {
    const { body, maxAge } = await handler({ path: req.params, query: req.query } as unknown as Input<Id>, store);
    res.set("Cache-Control", `public, max-age=${maxAge}`).json(body);
  };
}

/** Every operation of the read-only document; a non-GET operation or one without a handler fails at start. */
function getOperations(
  document: RegistryDocument,
  described: Record<string, RequestHandler>,
): { path: string; operationId: string }[] {
  return Object.entries(document.paths).map(([path, item]) => {
    const methods = Object.keys(item);
    if (methods.length !== 1 || !item.get)
      throw new Error(`${path}: the registry serves GET only, the document lists ${methods.join(", ")}`);
    const { operationId } = item.get;
    if (!Object.hasOwn(handlers, operationId) && !Object.hasOwn(described, operationId))
      throw new Error(`${path}: no handler for operation ${operationId}`);
    return { path, operationId };
  });
}

/** The document as the validators see it: HEAD beside every GET. */
const SERVED = withHead(registryDocument);
