/**
 * A paid route over HTTP: what the paid lane (lane.ts) and Express (`paidRouteHandler`, for the legacy
 * GETs and any POST the lane does not take) read of a request, handed to the route's pipeline, and its
 * outcome answered as http-answers.ts says it. Whichever side received the request, it is read, checked
 * and answered by the same steps: nothing is read by one side and answered by the other.
 */
import type { ServerResponse } from "node:http";
import type { Request, RequestHandler } from "express";
import type { Logger } from "pino";
import type { AnalyticsConfig } from "../../config/analytics.js";
import { invalidField } from "../../http/errors.js";
import { sentBody } from "../../http/input-guard.js";
import { requestOrigin } from "../../http/origin.js";
import { logWith } from "../../http/request-context.js";
import { sendJson } from "../../http/send-json.js";
import type { Clock } from "../clock.js";
import type { OpenApiDocument, PaidRoute } from "../contract/analytics-contract.js";
import type { InsightObserver, InsightWriter } from "../insight/types.js";
import type { PaymentGate } from "../payments/gate/gate.js";
import { type Offer, readSubmission } from "../payments/x402/protocols.js";
import { offerAt, routeOffer } from "../payments/x402/requirements.js";
import type { OperationHandler, SegmentContext } from "../segments/types.js";
import { type AnsweredRequest, httpAnswers, type PaidReply } from "./http-answers.js";
import type { InputCheck } from "./input-check.js";
import { paidPipeline } from "./pipeline.js";
import type { ResponseCheck } from "./response-check.js";

export type { PaidReply } from "./http-answers.js";

export interface PaidRouteDeps {
  config: AnalyticsConfig;
  gate: PaymentGate;
  insight: InsightWriter;
  clock: Clock;
  logger: Logger;
  segment: SegmentContext;
  /** The contract's check of the route's answers (response-check.ts). */
  checkResponse: ResponseCheck;
  /** The route's input check (input-check.ts), for a POST no validator has seen. */
  checkInput?: InputCheck;
  /** Told whether the model answered or, for a 206, why not. */
  insightObserver: InsightObserver;
  /** The contract's document, for the routes' discovery extensions. */
  document: OpenApiDocument;
}

/** A paid request as either side reads it. */
export interface PaidRequest {
  /** The operation's input: a POST's body, or a legacy GET's query and path fields, with the defaults of the body. */
  input: Record<string, unknown>;
  /** Whether Express's validator checked `input` already. */
  schemaChecked: boolean;
  /** A legacy GET's path parameters; none for a POST. */
  params: Record<string, string>;
  /** The URL paid for (the requirement's `resource`): origin, path and query string; asked once the input passed. */
  resource(): string;
  header(name: string): string | undefined;
  requestId: string;
}

export type PaidEndpoint = (request: PaidRequest) => Promise<PaidReply>;

/** The fields a legacy GET's input names as body fields, named where they came from: its path or its query. */
function locatedIn(route: PaidRoute, params: Record<string, string>): AnsweredRequest["located"] {
  if (!route.legacy) return (errors) => errors;
  return (errors) =>
    errors.map((e) =>
      e.location === "body" ? { ...e, location: Object.hasOwn(params, e.field) ? "path" : "query" } : e,
    );
}

export function paidEndpoint(route: PaidRoute, handler: OperationHandler, deps: PaidRouteDeps): PaidEndpoint {
  const routed = routeOffer(route, deps.config, deps.document);
  const pipeline = paidPipeline(route, handler, {
    gate: deps.gate,
    insight: deps.insight,
    clock: deps.clock,
    logger: deps.logger,
    segment: deps.segment,
    checkResponse: deps.checkResponse,
    insightObserver: deps.insightObserver,
    checkInput: deps.checkInput ?? (() => []),
    answerTimeoutMs: deps.config.payments.answerTimeoutMs,
  });
  // Where responses are validated (outside production), as the Express validator did for every JSON answer.
  const answer = httpAnswers(route, routed, deps.config.validateResponses ? deps.checkResponse : undefined);

  return async function serve(request: PaidRequest): Promise<PaidReply> {
    let offer: Offer | undefined;
    const offered = () => {
      offer ??= offerAt(routed, request.resource());
      return offer;
    };
    const payment = readSubmission(request.header);
    const { input, schemaChecked, params, requestId } = request;
    const outcome = await pipeline({ input, schemaChecked, payment, requestId, offer: offered, transport: "http" });
    const version = payment.kind === "payment" ? payment.version : undefined;
    const reply = answer(outcome, {
      offer: offered,
      version,
      params,
      located: locatedIn(route, params),
      requestId,
      now: deps.clock.now(),
    });
    if (outcome.kind === "answer_failed" && reply.status >= 500)
      deps.logger.error({ err: outcome.error, requestId, path: route.path }, "request failed");
    return reply;
  };
}

/** Writes a paid reply, adding what it logs to the request's line. */
export function sendPaidReply(res: ServerResponse, reply: PaidReply): void {
  if (reply.log) logWith(res, reply.log);
  sendJson(res, reply.status, reply.body, reply.headers);
}

/**
 * Legacy GETs carry some of the POST body's fields in the query and path (the venue segment only
 * selects the venue); the rest take the body's defaults, so the shared handler sees a full body.
 */
function legacyInput(
  route: PaidRoute,
  query: Record<string, unknown>,
  params: Record<string, string>,
): Record<string, unknown> {
  const { venue: _venue, ...pathFields } = params;
  return { ...route.bodyDefaults, ...query, ...pathFields };
}

/**
 * The query string of a request target, as the `resource` URL carries it (the full URL being paid
 * for, as the interface defines it). Node accepts characters a URI may not hold (`|`, `{`, a lone
 * `%`): they are percent-encoded, so that `resource` stays a URI.
 */
function queryOf(target: string): string {
  const at = target.indexOf("?");
  if (at < 0) return "";
  return target
    .slice(at)
    .replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/g, (c) => encodeURIComponent(c));
}

/** A paid route in Express: a POST's body or a legacy GET's query and path, checked by Express's validator, served by `serve`. */
export function paidRouteHandler(
  route: PaidRoute,
  serve: PaidEndpoint,
  publicBaseUrl: string | undefined,
): RequestHandler {
  return async function paidRoute(req: Request, res) {
    const params = req.params as Record<string, string>;
    // A GET's validator ignores a body: its fields there would be answered at their defaults, and charged.
    if (route.legacy && sentBody(req))
      throw invalidField(
        "body",
        "body",
        "a GET takes its fields in the query string; send a JSON body with POST instead",
      );
    const reply = await serve({
      input: route.legacy ? legacyInput(route, req.query as Record<string, unknown>, params) : req.body,
      schemaChecked: true,
      params,
      resource: () => `${requestOrigin(req, publicBaseUrl)}${req.path}${queryOf(req.originalUrl)}`,
      header: (name) => req.get(name),
      requestId: req.requestId,
    });
    sendPaidReply(res, reply);
  };
}
