/**
 * One paid route, end to end: challenge without `X-PAYMENT`; verify the payment against the
 * requirement this server issued; run the operation's handler; assemble the envelope; check it
 * against the contract; settle; only then send the answer with its receipt. Any failure before
 * settlement releases the payment: the caller is never charged for an answer not delivered.
 */
import type { RequestHandler } from "express";
import type { Logger } from "pino";
import { ApiError } from "../http/errors.js";
import type { Clock } from "./clock.js";
import type { AnalyticsConfig } from "./config.js";
import type { PaidRoute } from "./contract.js";
import { assembleEnvelope, type Envelope } from "./envelope.js";
import type { InsightWriter } from "./insight/types.js";
import { requirementTemplate } from "./payments/requirements.js";
import type { PaymentErrorReason, PaymentRequiredBody, PaymentRequirements, PaymentSettler, PaymentVerifier } from "./payments/types.js";
import type { Handler, SegmentContext } from "./segments/types.js";

export interface PaidRouteDeps {
  config: AnalyticsConfig;
  verifier: PaymentVerifier;
  settler: PaymentSettler;
  insight: InsightWriter;
  clock: Clock;
  logger: Logger;
  segment: SegmentContext;
  /** Contract check of the envelope before settlement (on in development and tests). */
  checkEnvelope?: (route: PaidRoute, status: number, body: Envelope) => string[];
}

const MISSING = "X-PAYMENT header is required";

/**
 * Legacy GETs carry some of the POST body's fields in the query and path (the venue segment only
 * selects the venue); the rest take the body's defaults, so the shared handler sees a full body.
 */
function legacyInput(route: PaidRoute, query: Record<string, unknown>, params: Record<string, string>): Record<string, unknown> {
  const { venue: _venue, ...pathFields } = params;
  return { ...route.bodyDefaults, ...query, ...pathFields };
}

export function challengeBody(
  requirement: PaymentRequirements,
  error: PaymentErrorReason,
  message: string,
  payer?: string,
): PaymentRequiredBody {
  return { x402Version: 1, error, message, accepts: [requirement], ...(payer ? { payer } : {}) };
}

export function paidRouteHandler(route: PaidRoute, handler: Handler<never>, deps: PaidRouteDeps): RequestHandler {
  const template = requirementTemplate(route, deps.config);
  const priceText = `${route.payment.price.amount} USD in USDC on ${template.network}`;
  return async function paidRoute(req, res) {
    const origin = deps.config.publicBaseUrl ?? `${req.protocol}://${req.get("host")}`;
    const requirement: PaymentRequirements = { ...template, resource: `${origin}${req.path}` };
    const header = req.get("x-payment");
    if (!header) {
      res.status(402).json(challengeBody(requirement, MISSING, `Pay ${priceText} and repeat the request with the X-PAYMENT header.`));
      return;
    }
    const verification = await deps.verifier.verify(header, { requirement, operation: route.name, requestId: req.requestId });
    if (!verification.ok) {
      if (verification.status === 400) {
        throw new ApiError(400, "invalid_payload", `X-PAYMENT: ${verification.message}`, {
          errors: [{ location: "header", field: "X-PAYMENT", message: verification.message }],
        });
      }
      res.status(402).json(challengeBody(requirement, verification.reason, verification.message, verification.payer));
      return;
    }
    const payment = verification.payment;
    let settling = false;
    try {
      const startedAt = performance.now();
      const input = route.legacy
        ? legacyInput(route, req.query as Record<string, unknown>, req.params as Record<string, string>)
        : req.body;
      const outcome = await handler(input as never, deps.segment);
      const { status, body } = await assembleEnvelope(outcome, {
        writer: deps.insight,
        clock: deps.clock,
        operation: route.name,
        summary: route.summary,
        signals: route.signals,
        startedAt,
      });
      const violations = deps.checkEnvelope?.(route, status, body) ?? [];
      if (violations.length) throw new Error(`${route.operationId} produced an envelope outside the contract: ${violations.join("; ")}`);
      settling = true;
      const settlement = await deps.settler.settle(payment);
      if (!settlement.ok) {
        res.status(402).json(challengeBody(requirement, settlement.reason, settlement.message, payment.payer));
        return;
      }
      res
        .status(status)
        .setHeader("X-PAYMENT-RESPONSE", Buffer.from(JSON.stringify(settlement.receipt)).toString("base64"))
        .json(body);
    } catch (error) {
      if (!settling) await deps.settler.release(payment, error instanceof Error ? error.message : String(error));
      else
        deps.logger.error(
          { err: error, requestId: req.requestId, payment: payment.key },
          "settlement outcome unknown; payment kept reserved",
        );
      throw settling && !(error instanceof ApiError)
        ? new ApiError(502, "upstream_error", "Settlement did not complete; retry later.", { provider: "settlement" })
        : error;
    }
  };
}
