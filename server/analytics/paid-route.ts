/**
 * One paid route, end to end: the input's rules beyond its schema (segments/input-rules.ts), checked
 * before any payment as the schema is; the 402 challenge (x402 v1 in the body, v2 in `PAYMENT-REQUIRED`)
 * without a payment header; the payment, from `PAYMENT-SIGNATURE` or `X-PAYMENT`, admitted by the
 * gate (or its stored answer returned, for a retry of a delivered request); the operation's
 * handler, the envelope, its contract check and its serialization; settlement; and only then the
 * bytes sent with the receipt in the header of the version paid in. Nothing that can fail for a
 * reason of the request's own runs after settlement; any failure before it releases the payment,
 * which is never charged.
 */
import type { Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import { StoreUnavailable } from "../db/unavailable.js";
import { ApiError, invalidField } from "../http/errors.js";
import { sentBody } from "../http/input-guard.js";
import { requestOrigin } from "../http/origin.js";
import { logWith } from "../http/request-context.js";
import type { Clock } from "./clock.js";
import type { AnalyticsConfig } from "./config.js";
import type { OpenApiDocument, PaidRoute } from "./contract.js";
import { assembleEnvelope } from "./envelope.js";
import type { EnvelopeCheck } from "./envelope-check.js";
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
import { type InputRule, inputRules, solanaAddressRefusal } from "./segments/input-rules.js";
import type { OperationHandler, SegmentContext } from "./segments/types.js";

export interface PaidRouteDeps {
  config: AnalyticsConfig;
  gate: PaymentGate;
  insight: InsightWriter;
  clock: Clock;
  logger: Logger;
  segment: SegmentContext;
  checkEnvelope: EnvelopeCheck;
  /** Told whether the model answered or, for a 206, why not. */
  insightObserver: InsightObserver;
  /** The contract's document, for the routes' discovery extensions. */
  document: OpenApiDocument;
}

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

export function paidRouteHandler(route: PaidRoute, handler: OperationHandler, deps: PaidRouteDeps): RequestHandler {
  const routed = routeOffer(route, deps.config, deps.document);
  const { caip2, extensions } = routed;
  const priceText = `${route.payment.price.amount} USD in USDC on ${routed.template.network}`;
  const prefix = route.payment.network.prefix;
  const segment: SegmentContext = { ...deps.segment, prefix };
  const timeoutSeconds = Math.ceil(deps.config.payments.answerTimeoutMs / 1000);
  const inputRule = inputRules[route.name] as InputRule<OperationName> | undefined;
  const missing = `Pay ${priceText} and repeat the request with the ${PAYMENT_HEADERS[2]} (x402 v2) or ${PAYMENT_HEADERS[1]} (x402 v1) header.`;

  /** Both challenges at once: v1 in the body, v2 in `PAYMENT-REQUIRED`; never cached. */
  function challenge(res: Response, offer: Offer, error: PaymentErrorReason, message: string, payer?: string): void {
    const v2Error = error === "X-PAYMENT header is required" ? "Payment required" : error;
    res
      .status(402)
      .setHeader("Cache-Control", "no-store")
      .setHeader(
        CHALLENGE_HEADER,
        encodeHeader(challengeV2(offer, { bazaar: atPath(extensions.bazaar, res.req.params as Record<string, string>) }, v2Error)),
      )
      .json(challengeBody(offer.v1, error, message, payer));
  }

  /** A paid answer is the payer's alone: no cache may keep it to hand to a caller who did not pay (a retry gets it from the ledger). */
  function send(res: Response, answer: StoredAnswer, receipt: Receipt, version: X402Version): void {
    const [name, value] = receiptHeader(version, receipt, caip2);
    res
      .status(answer.status)
      .setHeader(name, value)
      .setHeader("Cache-Control", "private, no-store")
      .type("application/json")
      .send(answer.body);
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
    const violations = deps.checkEnvelope(route, status, body);
    if (violations.length) throw new Error(`${route.operationId} produced an envelope outside the contract: ${violations.join("; ")}`);
    return { status, body: JSON.stringify(body) };
  }

  return async function paidRoute(req: Request, res: Response) {
    const params = req.params as Record<string, string>;
    // A GET's validator ignores a body: its fields there would be answered at their defaults, and charged.
    if (route.legacy && sentBody(req))
      throw invalidField("body", "body", "a GET takes its fields in the query string; send a JSON body with POST instead");
    const input = route.legacy ? legacyInput(route, req.query as Record<string, unknown>, params) : req.body;
    const misaddressed = solanaAddressRefusal(route, input);
    if (misaddressed) throw misaddressed;
    const refused = inputRule?.(input as never);
    if (refused) throw route.legacy ? inLegacyTerms(refused, params) : refused;
    const offer = offerAt(routed, `${requestOrigin(req, deps.config.publicBaseUrl)}${req.path}${queryOf(req.originalUrl)}`);
    const read = readSubmission((name) => req.get(name));
    if (read.kind === "none") return challenge(res, offer, "X-PAYMENT header is required", missing);
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
        requestId: req.requestId,
        fingerprint: requestFingerprint(prefix, route.name, input, read.version),
      })
      .catch((error) => {
        if (!(error instanceof StoreUnavailable)) throw error;
        throw ledgerUnreachable(error, "Nothing was charged. Repeat the request with the same payment in a few seconds.");
      });
    if (admission.kind === "stored") return send(res, admission.answer, admission.receipt, read.version);
    if (admission.kind === "rejected") {
      if (admission.status === 400) {
        throw new ApiError(400, "invalid_payload", `${header}: ${admission.message}`, {
          errors: [{ location: "header", field: header, message: admission.message }],
        });
      }
      return challenge(res, offer, admission.reason, admission.message, admission.payer);
    }

    const { payment } = admission;
    let ready: StoredAnswer;
    try {
      ready = await withDeadline(answer(input, req.requestId), payment.deadlineAt - deps.clock.now());
    } catch (error) {
      const why =
        error instanceof AnswerTimeout ? "the answer was not ready before its deadline" : String((error as Error)?.message ?? error);
      // If the ledger cannot record it now, the gate asks again as it comes back (recovery at the deadline otherwise).
      await deps.gate
        .release(payment, why)
        .catch((failure) => deps.logger.error({ err: failure, requestId: req.requestId }, "could not release a payment"));
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
          .catch((failure) => deps.logger.warn({ err: failure, requestId: req.requestId }, "payment released once the ledger is back"));
        throw ledgerUnreachable(
          error,
          "Repeat the request with the same payment in a few seconds: you receive the answer, and the payment is never charged twice.",
        );
      }
      deps.logger.error(
        { err: error, requestId: req.requestId, payment: payment.key },
        "settlement outcome unknown; recovery will resolve it",
      );
      throw new ApiError(
        502,
        "upstream_error",
        "The settlement did not complete. Repeat the request with the same payment in a minute: if it was charged you receive this answer. If it was not, it is released (never charged) once it can no longer settle; then pay again.",
        { provider: "settlement" },
      );
    }
    const logged = { requestId: req.requestId, network: payment.network, x402Version: read.version };
    if (!delivery.ok) {
      if (delivery.status === 503) {
        deps.logger.warn(logged, "answer ready after its payment's deadline; not charged");
        throw new ApiError(503, "service_unavailable", delivery.message, {}, { "Retry-After": "1" });
      }
      deps.logger.warn({ ...logged, reason: delivery.reason }, "settlement refused the payment");
      const failure = failureHeader(read.version, { reason: delivery.reason, payer: payment.payer }, caip2);
      if (failure) res.setHeader(...failure);
      return challenge(res, offer, delivery.reason, delivery.message, payment.payer);
    }
    const { transaction, simulated = false } = delivery.receipt;
    logWith(res, { payment: "settled", network: payment.network, x402Version: read.version, transaction, simulated });
    send(res, ready, delivery.receipt, read.version);
  };
}
