import type { AnalyticsConfig } from "../../config/analytics.js";
import type { OpenApiDocument, PaidRoute } from "../contract/analytics-contract.js";
import type { CallInput } from "../paid/input-check.js";
import { type PipelineDeps, paidPipeline } from "../paid/pipeline.js";
import { type Offer, readSubmission } from "../payments/x402/protocols.js";
import { offerAt, routeOffer } from "../payments/x402/requirements.js";
import type { OperationHandler } from "../segments/types.js";
import { type AnsweredRequest, httpAnswers, type PaidReply } from "./http-answers.js";

export type { PaidReply } from "./http-answers.js";

/** What a route's pipeline needs, and the configuration and document its offer is made from. */
export interface PaidRouteDeps extends Omit<PipelineDeps, "answerTimeoutMs"> {
  config: AnalyticsConfig;
  /** The contract's document, for the routes' discovery extensions. */
  document: OpenApiDocument;
}

/** A paid request as the front read it. */
export interface PaidRequest {
  /** The body (a POST's), the query string's fields and the path's parameters, percent-decoded. */
  input: CallInput;
  /** The URL paid for (the requirement's `resource`): origin, path and query string; asked once the input passed. */
  resource(): string;
  header(name: string): string | undefined;
  requestId: string;
}

export type PaidEndpoint = (request: PaidRequest) => Promise<PaidReply>;

/** Where a field the pipeline names as a body field was sent: a legacy GET's are in its path or its query. */
function locatedIn(route: PaidRoute, path: CallInput["path"]): AnsweredRequest["located"] {
  if (!route.legacy) return (errors) => errors;
  return (errors) =>
    errors.map((e) =>
      e.location === "body" ? { ...e, location: Object.hasOwn(path, e.field) ? "path" : "query" } : e,
    );
}

export function paidEndpoint(route: PaidRoute, handler: OperationHandler, deps: PaidRouteDeps): PaidEndpoint {
  const routed = routeOffer(route, deps.config, deps.document);
  const pipeline = paidPipeline(route, handler, { ...deps, answerTimeoutMs: deps.config.payments.answerTimeoutMs });
  // Where responses are validated (outside production), a 402 is checked against the contract too.
  const answer = httpAnswers(route, routed, deps.config.validateResponses ? deps.checkResponse : undefined);

  return async function serve(request: PaidRequest): Promise<PaidReply> {
    let offer: Offer | undefined;
    const offered = () => {
      offer ??= offerAt(routed, request.resource());
      return offer;
    };
    const payment = readSubmission(request.header);
    const { input, requestId } = request;
    const outcome = await pipeline({ input, payment, requestId, offer: offered, transport: "http" });
    const version = payment.kind === "payment" ? payment.version : undefined;
    const reply = answer(outcome, {
      offer: offered,
      version,
      params: input.path,
      located: locatedIn(route, input.path),
      requestId,
      now: deps.clock.now(),
    });
    if (outcome.kind === "answer_failed" && reply.status >= 500)
      deps.logger.error({ err: outcome.error, requestId, path: route.path }, "request failed");
    return reply;
  };
}
