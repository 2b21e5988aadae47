/**
 * One paid route, end to end: the input's rules beyond its schema (segments/input-rules.ts), checked
 * before any payment as the schema is; the 402 challenge (x402 v1 in the body, v2 in `PAYMENT-REQUIRED`)
 * without a payment header; the payment, from `PAYMENT-SIGNATURE` or `X-PAYMENT`, admitted by the
 * gate (or its stored answer returned, for a retry of a delivered request); the operation's
 * handler, the envelope, its contract check and its serialization; settlement; and only then the
 * reply, with the receipt in the header of the version paid in. Nothing that can fail for a
 * reason of the request's own runs after settlement; any failure before it releases the payment,
 * which is never charged.
 *
 * `paidEndpoint` knows nothing of HTTP frameworks: it takes the validated input and what it reads
 * of the request, and returns the reply to write. Express serves it through `paidRouteHandler`
 * (the legacy GETs, and any POST the paid lane hands on); the paid lane (paid-lane.ts) serves it
 * without Express.
 */
import type { ServerResponse } from "node:http";
import type { Request, RequestHandler } from "express";
import type { Logger } from "pino";
import { StoreUnavailable } from "../db/unavailable.js";
import { ApiError, invalidField } from "../http/errors.js";
import { sentBody } from "../http/input-guard.js";
import { requestOrigin } from "../http/origin.js";
import { logWith } from "../http/request-context.js";
import { sendJson } from "../http/send-json.js";
import type { Clock } from "./clock.js";
import type { AnalyticsConfig } from "./config.js";
import type { OpenApiDocument, PaidRoute } from "./contract.js";
import { assembleEnvelope } from "./envelope.js";
import type { InsightObserver, InsightWriter } from "./insight/types.js";
import type { OperationName } from "./operation-types.js";
import { atPath } from "./payments/bazaar.js";
import { requestFingerprint } from "./payments/fingerprint.js";
import type { PaymentGate } from "./payments/gate.js";
import type { StoredAnswer } from "./payments/ledger/store.js";
import {
  CHALLENGE_HEADER,
  challengeV2,
  encodeHeader,
  failureHeader,
  type Offer,
  PAYMENT_HEADERS,
  type Receipt,
  readSubmission,
  receiptHeader,
  type X402Version,
} from "./payments/protocols.js";
import { offerAt, routeOffer } from "./payments/requirements.js";
import type { PaymentErrorReason, PaymentRequiredBody, PaymentRequirements } from "./payments/types.js";
import type { ResponseCheck } from "./response-check.js";
import { type InputRule, inputRules, solanaAddressRefusal } from "./segments/input-rules.js";
import type { OperationHandler, SegmentContext } from "./segments/types.js";

export interface PaidRouteDeps {
  config: AnalyticsConfig;
  gate: PaymentGate;
  insight: InsightWriter;
  clock: Clock;
  logger: Logger;
  segment: SegmentContext;
  /** The contract's check of the route's answers (response-check.ts). */
  checkResponse: ResponseCheck;
  /** Told whether the model answered or, for a 206, why not. */
  insightObserver: InsightObserver;
  /** The contract's document, for the routes' discovery extensions. */
  document: OpenApiDocument;
}

/** A paid request as the route reads it, whichever HTTP layer received it. */
export interface PaidRequest {
  /** The operation's input after validation and its defaults: a POST's body, or a legacy GET's query and path fields. */
  input: Record<string, unknown>;
  /** A legacy GET's path parameters; none for a POST. */
  params: Record<string, string>;
  /** The URL paid for (the requirement's `resource`): origin, path and query string; asked once the input passed its rules. */
  resource(): string;
  header(name: string): string | undefined;
  requestId: string;
}

/** What a paid request is answered: a JSON body with its status and headers, and what the request's log line adds. */
export interface PaidReply {
  status: number;
  headers: Record<string, string>;
  body: string;
  log?: Record<string, unknown>;
}

export type PaidEndpoint = (request: PaidRequest) => Promise<PaidReply>;

/** The answer was not ready before the payment's deadline. */
class AnswerTimeout extends Error {}

/** The ledger out of reach, in what it means for the payment: `consequence` says what a retry with it gets. */
function ledgerUnreachable(cause: StoreUnavailable, consequence: string): ApiError {
  const message = `The service's database cannot be reached right now. ${consequence}`;
  return new ApiError(503, "service_unavailable", message, {}, { "Retry-After": "2" }, { cause });
}

/**
 * Legacy GETs carry some of the POST body's fields in the query and path (the venue segment only
 * selects the venue); the rest take the body's defaults, so the shared handler sees a full body.
 */
function legacyInput(route: PaidRoute, query: Record<string, unknown>, params: Record<string, string>): Record<string, unknown> {
  const { venue: _venue, ...pathFields } = params;
  return { ...route.bodyDefaults, ...query, ...pathFields };
}

/** A legacy GET's fields come from its path and query: an error naming one as a body field names it where it came from. */
function inLegacyTerms(error: unknown, params: Record<string, string>): unknown {
  if (!(error instanceof ApiError) || !error.details.errors) return error;
  const errors = error.details.errors.map((e) =>
    e.location === "body" ? { ...e, location: Object.hasOwn(params, e.field) ? ("path" as const) : ("query" as const) } : e,
  );
  return new ApiError(error.status, error.code, error.message, { ...error.details, errors }, error.headers);
}

/**
 * The query string of a request target, as the `resource` URL carries it (the full URL being paid
 * for, as the interface defines it). Node accepts characters a URI may not hold (`|`, `{`, a lone
 * `%`): they are percent-encoded, so that `resource` stays a URI.
 */
function queryOf(target: string): string {
  const at = target.indexOf("?");
  if (at < 0) return "";
  return target.slice(at).replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/g, (c) => encodeURIComponent(c));
}

export function challengeBody(
  requirement: PaymentRequirements,
  error: PaymentErrorReason,
  message: string,
  payer?: string,
): PaymentRequiredBody {
  return { x402Version: 1, error, message, accepts: [requirement], ...(payer ? { payer } : {}) };
}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AnswerTimeout()), Math.max(0, ms));
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export function paidEndpoint(route: PaidRoute, handler: OperationHandler, deps: PaidRouteDeps): PaidEndpoint {
  const routed = routeOffer(route, deps.config, deps.document);
  const { caip2, extensions } = routed;
  const priceText = `${route.payment.price.amount} USD in USDC on ${routed.template.network}`;
  const prefix = route.payment.network.prefix;
  const segment: SegmentContext = { ...deps.segment, prefix };
  const timeoutSeconds = Math.ceil(deps.config.payments.answerTimeoutMs / 1000);
  const inputRule = inputRules[route.name] as InputRule<OperationName> | undefined;
  const missing = `Pay ${priceText} and repeat the request with the ${PAYMENT_HEADERS[2]} (x402 v2) or ${PAYMENT_HEADERS[1]} (x402 v1) header.`;

  /** Both challenges at once: v1 in the body, v2 in `PAYMENT-REQUIRED`; never cached. */
  function challenge(
    params: Record<string, string>,
    offer: Offer,
    error: PaymentErrorReason,
    message: string,
    payer?: string,
    headers: Record<string, string> = {},
  ): PaidReply {
    const v2Error = error === "X-PAYMENT header is required" ? "Payment required" : error;
    const body = challengeBody(offer.v1, error, message, payer);
    // Where responses are validated (outside production), as the Express validator did for every JSON answer.
    const violations = deps.config.validateResponses ? deps.checkResponse(402, body) : [];
    if (violations.length) throw new Error(`${route.operationId} produced a 402 outside the contract: ${violations.join("; ")}`);
    return {
      status: 402,
      headers: {
        ...headers,
        "Cache-Control": "no-store",
        [CHALLENGE_HEADER]: encodeHeader(challengeV2(offer, { bazaar: atPath(extensions.bazaar, params) }, v2Error)),
      },
      body: JSON.stringify(body),
    };
  }

  /** A paid answer is the payer's alone: no cache may keep it to hand to a caller who did not pay (a retry gets it from the ledger). */
  function delivered(answer: StoredAnswer, receipt: Receipt, version: X402Version, log?: Record<string, unknown>): PaidReply {
    const [name, value] = receiptHeader(version, receipt, caip2);
    return { status: answer.status, headers: { [name]: value, "Cache-Control": "private, no-store" }, body: answer.body, log };
  }

  /** The answer as it will be sent: envelope checked against the contract, then serialized. */
  async function answer(input: unknown, requestId: string): Promise<StoredAnswer> {
    const startedAt = performance.now();
    // The validator checked `input` against this route's request schema: it is the operation's request, at run time.
    const outcome = await handler(input as never, segment);
    const { status, body, failure } = await assembleEnvelope(outcome, {
      writer: deps.insight,
      clock: deps.clock,
      operation: route.name,
      summary: route.summary,
      signals: route.signals,
      startedAt,
    });
    if (failure) {
      deps.logger.warn(
        { requestId, operation: route.name, cause: failure.cause, detail: failure.message },
        "insight model failed; answering 206 with the data and the rule engine's signal",
      );
      deps.insightObserver.insight({ outcome: "partial", cause: failure.cause });
    } else deps.insightObserver.insight({ outcome: "answered" });
    const violations = deps.checkResponse(status, body);
    if (violations.length) throw new Error(`${route.operationId} produced an envelope outside the contract: ${violations.join("; ")}`);
    return { status, body: JSON.stringify(body) };
  }

  return async function serve(request: PaidRequest): Promise<PaidReply> {
    const { input, params, requestId } = request;
    const misaddressed = solanaAddressRefusal(route, input);
    if (misaddressed) throw misaddressed;
    const refused = inputRule?.(input as never);
    if (refused) throw route.legacy ? inLegacyTerms(refused, params) : refused;
    const offer = offerAt(routed, request.resource());
    const read = readSubmission(request.header);
    if (read.kind === "none") return challenge(params, offer, "X-PAYMENT header is required", missing);
    if (read.kind === "both") {
      const message = `send the payment in one header: ${PAYMENT_HEADERS[2]} (x402 v2) or ${PAYMENT_HEADERS[1]} (x402 v1), not both`;
      throw new ApiError(400, "invalid_payload", message, {
        errors: [PAYMENT_HEADERS[2], PAYMENT_HEADERS[1]].map((field) => ({ location: "header", field, message })),
      });
    }
    const header = PAYMENT_HEADERS[read.version];
    const admission = await deps.gate
      .admit(read, offer, {
        operation: route.name,
        requestId,
        fingerprint: requestFingerprint(prefix, route.name, input, read.version),
      })
      .catch((error) => {
        if (!(error instanceof StoreUnavailable)) throw error;
        throw ledgerUnreachable(error, "Nothing was charged. Repeat the request with the same payment in a few seconds.");
      });
    if (admission.kind === "stored") return delivered(admission.answer, admission.receipt, read.version);
    if (admission.kind === "rejected") {
      if (admission.status === 400) {
        throw new ApiError(400, "invalid_payload", `${header}: ${admission.message}`, {
          errors: [{ location: "header", field: header, message: admission.message }],
        });
      }
      return challenge(params, offer, admission.reason, admission.message, admission.payer);
    }

    const { payment } = admission;
    let ready: StoredAnswer;
    try {
      ready = await withDeadline(answer(input, requestId), payment.deadlineAt - deps.clock.now());
    } catch (error) {
      const why =
        error instanceof AnswerTimeout ? "the answer was not ready before its deadline" : String((error as Error)?.message ?? error);
      // If the ledger cannot record it now, the gate asks again as it comes back (recovery at the deadline otherwise).
      await deps.gate
        .release(payment, why)
        .catch((failure) => deps.logger.error({ err: failure, requestId }, "could not release a payment"));
      if (error instanceof AnswerTimeout)
        throw new ApiError(
          503,
          "service_unavailable",
          `The answer was not ready within ${timeoutSeconds} s; nothing was charged. Repeat the request.`,
          {},
          { "Retry-After": "1" },
        );
      throw route.legacy ? inLegacyTerms(error, params) : error;
    }

    let delivery: Awaited<ReturnType<PaymentGate["settle"]>>;
    try {
      delivery = await deps.gate.settle(payment, ready);
    } catch (error) {
      // The ledger was out of reach before the money moved: a 503, and the payment released as soon as the ledger takes it,
      // for the retry the 503 asks for (a settlement whose commit's reply was lost stays settled: the retry gets its answer).
      if (error instanceof StoreUnavailable) {
        await deps.gate
          .release(payment, "the ledger could not be reached to record the settlement")
          .catch((failure) => deps.logger.warn({ err: failure, requestId }, "payment released once the ledger is back"));
        throw ledgerUnreachable(
          error,
          "Repeat the request with the same payment in a few seconds: you receive the answer, and the payment is never charged twice.",
        );
      }
      deps.logger.error({ err: error, requestId, payment: payment.key }, "settlement outcome unknown; recovery will resolve it");
      throw new ApiError(
        502,
        "upstream_error",
        "The settlement did not complete. Repeat the request with the same payment in a minute: if it was charged you receive this answer. If it was not, it is released (never charged) once it can no longer settle; then pay again.",
        { provider: "settlement" },
      );
    }
    const logged = { requestId, network: payment.network, x402Version: read.version };
    if (!delivery.ok) {
      if (delivery.status === 503) {
        deps.logger.warn(logged, "answer ready after its payment's deadline; not charged");
        throw new ApiError(503, "service_unavailable", delivery.message, {}, { "Retry-After": "1" });
      }
      deps.logger.warn({ ...logged, reason: delivery.reason }, "settlement refused the payment");
      const failure = failureHeader(read.version, { reason: delivery.reason, payer: payment.payer }, caip2);
      return challenge(params, offer, delivery.reason, delivery.message, payment.payer, failure ? Object.fromEntries([failure]) : {});
    }
    const { transaction, simulated = false } = delivery.receipt;
    return delivered(ready, delivery.receipt, read.version, {
      payment: "settled",
      network: payment.network,
      x402Version: read.version,
      transaction,
      simulated,
    });
  };
}

/** Writes a paid reply, adding what it logs to the request's line. */
export function sendPaidReply(res: ServerResponse, reply: PaidReply): void {
  if (reply.log) logWith(res, reply.log);
  sendJson(res, reply.status, reply.body, reply.headers);
}

/** A paid route in Express: a POST's validated body, or a legacy GET's query and path, served by `serve`. */
export function paidRouteHandler(route: PaidRoute, serve: PaidEndpoint, publicBaseUrl: string | undefined): RequestHandler {
  return async function paidRoute(req: Request, res) {
    const params = req.params as Record<string, string>;
    // A GET's validator ignores a body: its fields there would be answered at their defaults, and charged.
    if (route.legacy && sentBody(req))
      throw invalidField("body", "body", "a GET takes its fields in the query string; send a JSON body with POST instead");
    const input = route.legacy ? legacyInput(route, req.query as Record<string, unknown>, params) : req.body;
    const reply = await serve({
      input,
      params,
      resource: () => `${requestOrigin(req, publicBaseUrl)}${req.path}${queryOf(req.originalUrl)}`,
      header: (name) => req.get(name),
      requestId: req.requestId,
    });
    sendPaidReply(res, reply);
  };
}
