/**
 * The analytics service's request listener, built from the generated contract: the paid front
 * (front/paid-front.ts), the one door of every paid route, of `/mcp` and of `/a2a`, before an Express app that
 * serves the free routes, the documents and the operations endpoints, their requests (and, outside
 * production, responses) validated by express-openapi-validator.
 */
import express, { type RequestHandler } from "express";
import type { Logger } from "pino";
import { a2aEndpoint } from "../a2a/a2a-endpoint.js";
import { paidSkills } from "../a2a/paid-skills.js";
import { A2A_PATH, skillResource } from "../a2a/protocol.js";
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
import { type PaidToolDeps, paidToolServer } from "../mcp/paid/calls.js";
import { type RunnableTool, runnableTools, runTool, type ToolRun } from "../mcp/paid/runnable-tools.js";
import { withPaymentStatusTools } from "../mcp/payment-status-tools.js";
import { MCP_PATH, mcpEndpoint } from "../mcp/streamable-endpoint.js";
import { requestMetrics, UNMATCHED } from "../ops/metrics.js";
import { embeddedOperations, type OperationsOptions, operationsHandlers, operationsPaths } from "../ops/routes.js";
import { DOCS_ASSETS_PATH, docsAssets } from "../reference-page/reference-page.js";
import type { Clock } from "./clock.js";
import type { AnalyticsContract } from "./contract/analytics-contract.js";
import { type FreeRouteDeps, freeRouteHandlers } from "./free/free-routes.js";
import { paymentLookup, paymentStatusHandlers } from "./free/payment-status.js";
import { paidEndpoint } from "./front/http-call.js";
import { type FrontEndpoint, type FrontRoute, paidFront } from "./front/paid-front.js";
import { type InsightObserver, type InsightWriter, unobservedInsight } from "./insight/types.js";
import { inputChecks } from "./paid/input-check.js";
import { responseChecker } from "./paid/response-check.js";
import type { PaymentGate } from "./payments/gate/gate.js";
import type { LedgerStore } from "./payments/ledger/store.js";
import type { HandlerMap, SegmentContext } from "./segments/types.js";
import type { TaskStore } from "./tasks/task-store.js";

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
  /** What a payer asking about its payment reads (the free payment lookup, over HTTP and MCP). */
  ledger: Pick<LedgerStore, "lookup">;
  /** Where the A2A endpoint keeps its tasks: the ledger's database. */
  tasks: TaskStore;
  clock: Clock;
  logger: Logger;
  /** Metrics, readiness checks and the metrics token; default: this app's own metrics, nothing to check. */
  operations?: OperationsOptions;
  /** Where insight outcomes are reported; default: nowhere. */
  insightObserver?: InsightObserver;
}

/** The operation ids the metrics count `/mcp`'s and `/a2a`'s requests under. */
const MCP_OPERATION = "mcp";
const A2A_OPERATION = "a2a";

/** The metrics label of each operation id: a paid operation's name (`defiTvl`, on every prefix and its legacy GET), else the id. */
function operationLabels(contract: AnalyticsContract): (operationId: string | undefined) => string {
  const labels = new Map<string, string>([
    ...contract.free.map((route) => [route.operationId, route.operationId] as const),
    ...contract.paid.map((route) => [route.operationId, route.name as string] as const),
    [MCP_OPERATION, MCP_OPERATION],
    [A2A_OPERATION, A2A_OPERATION],
  ]);
  // HEAD is counted as its GET (see withHead).
  return (operationId) => {
    const id = asGet(operationId);
    return (id && labels.get(id)) ?? UNMATCHED;
  };
}

const served = new WeakMap<AnalyticsContract, AnalyticsContract["document"]>();

/**
 * The document the free routes' validators read: their GETs also answer HEAD. One per contract, so that
 * apps built from it share their validators (validator.ts keys them by document).
 */
function servedDocument(contract: AnalyticsContract): AnalyticsContract["document"] {
  let document = served.get(contract);
  if (!document) {
    document = withHead(contract.document, (get) => get["x-payment-info"] === undefined);
    served.set(contract, document);
  }
  return document;
}

/** Each paid path's routes by method, each an endpoint running the route's pipeline. */
function paidPaths(deps: AnalyticsDeps): Map<string, Map<string, FrontRoute>> {
  const { contract, config } = deps;
  const checks = responseChecker(contract);
  const inputs = inputChecks(contract);
  const paths = new Map<string, Map<string, FrontRoute>>();
  for (const route of contract.paid) {
    const serve = paidEndpoint(route, deps.handlers[route.name], {
      config,
      gate: deps.gate,
      insight: deps.insight,
      clock: deps.clock,
      logger: deps.logger,
      segment: deps.segment,
      checkResponse: checks(route),
      checkInput: inputs(route),
      insightObserver: deps.insightObserver ?? unobservedInsight,
      document: contract.document,
    });
    const methods = paths.get(route.path) ?? new Map<string, FrontRoute>();
    paths.set(route.path, methods.set(route.method.toUpperCase(), { operationId: route.operationId, serve }));
  }
  return paths;
}

/** The free operations' handlers by path (each a GET, which also answers HEAD). */
function freeHandlers(deps: AnalyticsDeps, operations: OperationsOptions): Map<string, RequestHandler> {
  const { contract, config } = deps;
  const free: Record<string, RequestHandler | undefined> = {
    ...freeRouteHandlers({
      contract,
      config,
      providers: deps.providerModes,
      insightModel: deps.insight.model,
      settlement: deps.settlementMode,
      cache: deps.cacheStatus ?? (() => ({ store: "memory", status: "ok" })),
    }),
    ...paymentStatusHandlers({ contract, config, ledger: deps.ledger, clock: deps.clock }),
    ...operationsHandlers(operations),
  };
  const handlers = new Map<string, RequestHandler>();
  for (const route of contract.free) {
    const handler = free[route.operationId];
    if (!handler) throw new Error(`no handler for free operation ${route.operationId}`);
    handlers.set(route.path, handler);
  }
  return handlers;
}

/**
 * Each free path's validator (see validator.ts), then its handler. A path without parameters (all of
 * them, today) is found by one lookup of the request's path (`exact`); the router, which tries each
 * layer's pattern in turn, still serves any spelling of a path the lookup misses (case, trailing slash).
 */
function freeRoutes(contract: AnalyticsContract, config: AnalyticsConfig, handlers: Map<string, RequestHandler>) {
  const validatorFor = openApiValidation(servedDocument(contract), { validateResponses: config.validateResponses });
  const exact = new Map<string, RequestHandler>();
  const routes: [string, RequestHandler[]][] = [];
  for (const [path, handler] of handlers) {
    const byMethod: RequestHandler = (req, res, next) =>
      req.method === "GET" || req.method === "HEAD" ? handler(req, res, next) : next();
    const stack = [validatorFor(path), refuseMalformedNumbers, byMethod];
    if (!path.includes("{")) exact.set(path, handlerChain(stack));
    routes.push([path.replace(/\{([^}]+)\}/g, ":$1"), stack]);
  }
  return { exact, routes };
}

/** What the paid tools of MCP and the paid skills of A2A run on: the routes' pipelines' steps. */
function paidToolDeps(deps: AnalyticsDeps): PaidToolDeps {
  const { contract } = deps;
  return {
    contract,
    config: deps.config,
    handlers: deps.handlers,
    gate: deps.gate,
    insight: deps.insight,
    clock: deps.clock,
    logger: deps.logger,
    segment: deps.segment,
    checkResponse: responseChecker(contract),
    checkInput: inputChecks(contract),
    insightObserver: deps.insightObserver ?? unobservedInsight,
  };
}

/** The A2A endpoint of the paid skills (server/a2a/), its tasks in the ledger's database. */
function a2aSkills(deps: AnalyticsDeps): FrontEndpoint {
  const tools = runnableTools(paidToolDeps(deps), skillResource);
  const run = (tool: RunnableTool, call: ToolRun) => runTool(tool, call, "a2a");
  const { tasks, clock, config, logger } = deps;
  const endpoint = a2aEndpoint(paidSkills({ tools, run, tasks, clock, config, logger }), logger);
  return { path: A2A_PATH, operationId: A2A_OPERATION, ...endpoint };
}

/** The MCP endpoint of the paid tools, run by the same pipelines' steps (server/mcp/paid/calls.ts), built on first use. */
function mcpTools(deps: AnalyticsDeps): FrontEndpoint {
  const { contract, config, logger } = deps;
  const lookUp = paymentLookup({ contract, config, ledger: deps.ledger, clock: deps.clock });
  // An MCP call has no origin of its own: an HTTP purchase's receipt names the public one (as a tool's signer does).
  const origin = config.publicBaseUrl ?? `http://localhost:${config.port}`;
  const paid = () => paidToolServer(paidToolDeps(deps));
  const tools = () => withPaymentStatusTools(paid(), contract.document, lookUp, origin);
  const options = { publicBaseUrl: config.publicBaseUrl, trustProxy: config.trustProxy, logger };
  return { path: MCP_PATH, operationId: MCP_OPERATION, serve: mcpEndpoint(tools, options) };
}

/** The Express app of the free routes: documents, operations endpoints, the /docs page's assets, a 404 for the rest. */
function freeApp(deps: AnalyticsDeps, operations: OperationsOptions, start: NodeHandler): express.Express {
  const { contract, config, logger } = deps;
  const app = express();
  app.disable("x-powered-by");
  // No ETag: the documents are hundreds of KB, and hashing each one costs every request.
  app.set("etag", false);
  app.set("trust proxy", config.trustProxy);
  app.use(start);
  // The /docs page's script and styles: files of the installed package, outside the contract's operations.
  app.use(DOCS_ASSETS_PATH, docsAssets());
  const { exact, routes } = freeRoutes(contract, config, freeHandlers(deps, operations));
  app.use(
    handlerChain([
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
  return app;
}

export function createAnalyticsApp(deps: AnalyticsDeps): ServiceApp {
  const { contract, config, logger } = deps;
  const operations = deps.operations ?? embeddedOperations();
  // What every request of the service runs first, on either side of the front, as one step.
  const start: NodeHandler = handlerChain([
    requestContext(logger, operationsPaths(contract.document)),
    requestMetrics(operations.metrics.registry, operationLabels(contract)),
    cors(ANALYTICS_CORS),
  ]);
  // What a paid POST's body goes through before its input check.
  const body = handlerChain([refuseOtherCharsets, express.json({ limit: "100kb" }), bodyOrDefaults, refuseDeepBodies]);
  return serviceApp(
    paidFront(freeApp(deps, operations, start), {
      paths: paidPaths(deps),
      endpoints: [mcpTools(deps), a2aSkills(deps)],
      start,
      body,
      publicBaseUrl: config.publicBaseUrl,
      trustProxy: config.trustProxy,
      logger,
    }),
  );
}
