/**
 * The analytics Express app, built from the generated contract: requests (and, outside
 * production, responses) validated by express-openapi-validator; one handler per operation bound
 * to all of its routes (root, /base, /skale, and the legacy GET) by operationId.
 */
import express from "express";
import type { Logger } from "pino";
import { NETWORKS } from "../../lib/networks.js";
import { DOCS_ASSETS_PATH, docsAssets } from "../docs/reference-page.js";
import { cors } from "../http/cors.js";
import { errorHandler, notFound } from "../http/errors.js";
import { refuseAmbiguousQuery, refuseNonFiniteNumbers } from "../http/input-guard.js";
import { requestContext } from "../http/request-context.js";
import { openApiValidation } from "../http/validator.js";
import type { Clock } from "./clock.js";
import type { AnalyticsConfig } from "./config.js";
import type { AnalyticsContract } from "./contract.js";
import { envelopeChecker } from "./envelope-check.js";
import { type FreeRouteDeps, freeRouteHandlers } from "./free/free-routes.js";
import type { InsightWriter } from "./insight/types.js";
import { paidRouteHandler } from "./paid-route.js";
import type { PaymentGate } from "./payments/gate.js";
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
}

export function createAnalyticsApp(deps: AnalyticsDeps): express.Express {
  const { contract, config, logger } = deps;

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.trustProxy);
  app.use(requestContext(logger));
  app.use(
    cors({ methods: "GET, POST, OPTIONS", requestHeaders: "Content-Type, X-PAYMENT", exposedHeaders: "X-PAYMENT-RESPONSE, X-Request-Id" }),
  );
  // The /docs page's script and styles: files of the installed package, outside the contract's operations.
  app.use(DOCS_ASSETS_PATH, docsAssets());
  app.use(express.json({ limit: "100kb" }));
  // A POST without a body means "all defaults": hand the validator an empty JSON object to apply them to.
  app.use((req, _res, next) => {
    if (req.method === "POST" && req.body === undefined && !req.get("content-type")) {
      req.body = {};
      req.headers["content-type"] = "application/json";
    }
    next();
  });
  app.use(refuseAmbiguousQuery);
  // Each documented path is validated by its own validator (see validator.ts) before its handlers run.
  const validatorFor = openApiValidation(contract.document, {
    validateResponses: config.validateResponses,
    prefixes: NETWORKS.map((network) => network.prefix),
  });
  for (const path of Object.keys(contract.document.paths))
    app.all(path.replace(/\{([^}]+)\}/g, ":$1"), validatorFor(path), refuseNonFiniteNumbers);

  const free = freeRouteHandlers({
    contract,
    config,
    providers: deps.providerModes,
    insightModel: deps.insight.model,
    settlement: deps.settlementMode,
    cache: deps.cacheStatus ?? (() => ({ store: "memory", status: "ok" })),
  });
  for (const route of contract.free) {
    const handler = free[route.operationId];
    if (!handler) throw new Error(`no handler for free operation ${route.operationId}`);
    app.get(route.path, handler);
  }

  const routeDeps = {
    config,
    gate: deps.gate,
    insight: deps.insight,
    clock: deps.clock,
    logger,
    segment: deps.segment,
    checkEnvelope: envelopeChecker(contract),
  };
  for (const route of contract.paid) {
    app[route.method](route.expressPath, paidRouteHandler(route, deps.handlers[route.name], routeDeps));
  }

  app.use(notFound);
  app.use(errorHandler(logger));
  return app;
}
