/**
 * The analytics service's request listener, built from the generated contract: the paid lane
 * (paid/lane.ts) for the paid POSTs, in front of an Express app for every request, its requests
 * (and, outside production, responses) validated by express-openapi-validator; one handler per
 * operation bound to all of its routes (root, /base, /skale, and the legacy GET) by operationId.
 */
import express, { type RequestHandler } from "express";
import type { Logger } from "pino";
import { NETWORKS } from "../../lib/networks.js";
import type { AnalyticsConfig } from "../config/analytics.js";
import { ANALYTICS_CORS, cors } from "../http/cors.js";
import { errorHandler, notFound } from "../http/errors.js";
import { handlerChain, type NodeHandler } from "../http/handler-chain.js";
import {
  bodyOrDefaults,
  refuseAmbiguousQuery,
  refuseDeepBodies,
  refuseMalformedNumbers,
  refuseOtherCharsets,
} from "../http/input-guard.js";
import { requestContext } from "../http/request-context.js";
import { type ServiceApp, serviceApp } from "../http/service-app.js";
import { openApiValidation } from "../http/validator.js";
import { asGet, withHead } from "../http/with-head.js";
import { paidToolServer } from "../mcp/paid/tool-server.js";
import { MCP_PATH, mcpEndpoint } from "../mcp/streamable-endpoint.js";
import { requestMetrics, UNMATCHED } from "../ops/metrics.js";
import { embeddedOperations, type OperationsOptions, operationsHandlers, operationsPaths } from "../ops/routes.js";
import { DOCS_ASSETS_PATH, docsAssets } from "../reference-page/reference-page.js";
import type { Clock } from "./clock.js";
import type { AnalyticsContract } from "./contract/analytics-contract.js";
import { type FreeRouteDeps, freeRouteHandlers } from "./free/free-routes.js";
import { type InsightObserver, type InsightWriter, unobservedInsight } from "./insight/types.js";
import { paidEndpoint, paidRouteHandler } from "./paid/http-endpoint.js";
import { inputChecks } from "./paid/input-check.js";
import { type LaneRoute, MCP_OPERATION, withPaidLane } from "./paid/lane.js";
import { responseChecker } from "./paid/response-check.js";
import type { PaymentGate } from "./payments/gate/gate.js";
import type { HandlerMap, SegmentContext } from "./segments/types.js";

export interface AnalyticsDeps {
  contract: AnalyticsContract;
  config: AnalyticsConfig;
  handlers: HandlerMap;
  /** What handlers run in: the cached providers, the derived reads, the clock (segments/derived.ts). */
  segment: SegmentContext;
  providerModes: FreeRouteDeps["providers"];
  settlementMode: FreeRouteDeps["settlement"];
  /** The upstream cache's state for `GET /`; default: this process's memory. */
  cacheStatus?: FreeRouteDeps["cache"];
  insight: InsightWriter;
  gate: PaymentGate;
  clock: Clock;
  logger: Logger;
  /** Metrics, readiness checks and the metrics token; default: this app's own metrics, nothing to check. */
  operations?: OperationsOptions;
  /** Where insight outcomes are reported; default: nowhere. */
  insightObserver?: InsightObserver;
}

/** The metrics label of each operation id: a paid operation's name (`defiTvl`, on every prefix and its legacy GET), else the id. */
function operationLabels(contract: AnalyticsContract): (operationId: string | undefined) => string {
  const labels = new Map<string, string>([
    ...contract.free.map((route) => [route.operationId, route.operationId] as const),
    ...contract.paid.map((route) => [route.operationId, route.name as string] as const),
    [MCP_OPERATION.schema.operationId, "mcp"],
  ]);
  // HEAD is counted as its GET (see withHead).
  return (operationId) => {
    const id = asGet(operationId);
    return (id && labels.get(id)) ?? UNMATCHED;
  };
}

const served = new WeakMap<AnalyticsContract, AnalyticsContract["document"]>();

/**
 * The document the validators read: the free GETs also answer HEAD; a paid route's never does (a HEAD
 * could not deliver the answer it would be charged for). One per contract, so that apps built from it
 * share their validators (validator.ts keys them by document).
 */
function servedDocument(contract: AnalyticsContract): AnalyticsContract["document"] {
  let document = served.get(contract);
  if (!document) {
    document = withHead(contract.document, (get) => get["x-payment-info"] === undefined);
    served.set(contract, document);
  }
  return document;
}

type Handlers = Map<string, Map<string, RequestHandler>>;

/** Every operation's handler by path and method (free, operations, paid), and the paid POSTs the lane serves. */
function operationHandlers(
  deps: AnalyticsDeps,
  operations: OperationsOptions,
): { handlers: Handlers; lane: LaneRoute[] } {
  const { contract, config, logger } = deps;
  const free = {
    ...freeRouteHandlers({
      contract,
      config,
      providers: deps.providerModes,
      insightModel: deps.insight.model,
      settlement: deps.settlementMode,
      cache: deps.cacheStatus ?? (() => ({ store: "memory", status: "ok" })),
    }),
    ...operationsHandlers(operations),
  };
  const handlers: Handlers = new Map();
  const bind = (path: string, method: string, handler: RequestHandler) => {
    const methods = handlers.get(path) ?? new Map<string, RequestHandler>();
    handlers.set(path, methods.set(method.toUpperCase(), handler));
  };
  for (const route of contract.free) {
    const handler = free[route.operationId];
    if (!handler) throw new Error(`no handler for free operation ${route.operationId}`);
    bind(route.path, "get", handler);
  }
  const checks = responseChecker(contract);
  const inputs = inputChecks(contract);
  const lane: LaneRoute[] = [];
  for (const route of contract.paid) {
    const serve = paidEndpoint(route, deps.handlers[route.name], {
      config,
      gate: deps.gate,
      insight: deps.insight,
      clock: deps.clock,
      logger,
      segment: deps.segment,
      checkResponse: checks(route),
      ...(route.method === "post" && { checkInput: inputs(route) }),
      insightObserver: deps.insightObserver ?? unobservedInsight,
      document: contract.document,
    });
    bind(route.path, route.method, paidRouteHandler(route, serve, config.publicBaseUrl));
    if (route.method === "post") lane.push({ path: route.path, operationId: route.operationId, serve });
  }
  return { handlers, lane };
}

/**
 * Each documented path's validator (see validator.ts), then its handler by method. A path without
 * parameters (most of them) is found by one lookup of the request's path (`exact`); the router, which
 * tries each layer's pattern in turn, still serves the others and any spelling of a path the lookup
 * misses (case, trailing slash), as before.
 */
function documentedRoutes(contract: AnalyticsContract, config: AnalyticsConfig, handlers: Handlers) {
  const validatorFor = openApiValidation(servedDocument(contract), {
    validateResponses: config.validateResponses,
    prefixes: NETWORKS.map((network) => network.prefix),
  });
  const exact = new Map<string, RequestHandler>();
  const routes: [string, RequestHandler[]][] = [];
  for (const path of Object.keys(contract.document.paths)) {
    const methods = handlers.get(path) ?? new Map<string, RequestHandler>();
    const byMethod: RequestHandler = (req, res, next) => {
      const handler = methods.get(req.method === "HEAD" ? "GET" : req.method);
      return handler ? handler(req, res, next) : next();
    };
    const stack = [validatorFor(path), refuseMalformedNumbers, byMethod];
    if (!path.includes("{")) exact.set(path, handlerChain(stack));
    routes.push([path.replace(/\{([^}]+)\}/g, ":$1"), stack]);
  }
  return { exact, routes };
}

/** The paid operations as MCP tools, run by the same pipelines' steps (server/mcp/paid/calls.ts), built on first use. */
function mcpTools(deps: AnalyticsDeps) {
  const { contract, config, logger } = deps;
  const tools = () =>
    paidToolServer({
      contract,
      config,
      handlers: deps.handlers,
      gate: deps.gate,
      insight: deps.insight,
      clock: deps.clock,
      logger,
      segment: deps.segment,
      checkResponse: responseChecker(contract),
      checkInput: inputChecks(contract),
      insightObserver: deps.insightObserver ?? unobservedInsight,
    });
  return mcpEndpoint(tools, { publicBaseUrl: config.publicBaseUrl, logger });
}

export function createAnalyticsApp(deps: AnalyticsDeps): ServiceApp {
  const { contract, config, logger } = deps;
  const operations = deps.operations ?? embeddedOperations();
  const app = express();
  app.disable("x-powered-by");
  // No ETag: paid answers are never revalidated, and hashing every body (the documents are hundreds of KB) costs each request.
  app.set("etag", false);
  app.set("trust proxy", config.trustProxy);
  // The middlewares every request passes run as one router layer on each side of the /docs assets'
  // mount: the router matches each layer's path per request, which costs more than these middlewares do.
  // A request the paid lane started and handed on has run them already.
  const start: NodeHandler = handlerChain([
    requestContext(logger, operationsPaths(contract.document)),
    requestMetrics(operations.metrics.registry, operationLabels(contract)),
    cors(ANALYTICS_CORS),
  ]);
  app.use(function startOnce(req, res, next) {
    return req.requestId === undefined ? start(req, res, next) : next();
  });
  // The /docs page's script and styles: files of the installed package, outside the contract's operations.
  app.use(DOCS_ASSETS_PATH, docsAssets());
  const { handlers, lane } = operationHandlers(deps, operations);
  const { exact, routes } = documentedRoutes(contract, config, handlers);
  // `/mcp` is found by the exact lookup too, after the body is parsed.
  const mcp = mcpTools(deps);
  exact.set(MCP_PATH, (req, res, next) => {
    (req as { openapi?: unknown }).openapi = MCP_OPERATION;
    mcp(req, res).catch(next);
  });
  // What a POST's body goes through before validation, on either side of the lane.
  const body = handlerChain([refuseOtherCharsets, express.json({ limit: "100kb" }), bodyOrDefaults, refuseDeepBodies]);
  app.use(
    handlerChain([
      body,
      refuseAmbiguousQuery,
      function exactPath(req, res, next) {
        const handler = exact.get(req.path);
        return handler ? handler(req, res, next) : next();
      },
    ]),
  );
  for (const [path, stack] of routes) app.all(path, ...stack);
  app.use(notFound);
  app.use(errorHandler(logger));
  return serviceApp(
    withPaidLane(app, {
      routes: lane,
      start,
      body,
      publicBaseUrl: config.publicBaseUrl,
      logger,
      mcp: { path: MCP_PATH, serve: mcp },
    }),
  );
}
