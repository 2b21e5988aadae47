/**
 * The paid pipeline's outcomes as HTTP says them: the one place that knows their statuses, their
 * headers (the x402 challenge and receipt of each version, `Retry-After` wherever a retry with the
 * same payment will succeed, `Cache-Control`) and every sentence a caller reads.
 */
import { RECEIPT_HEADERS } from "../../../lib/x402-headers.js";
import { toErrorResponse } from "../../http/errors.js";
import type { PaidRoute } from "../contract/analytics-contract.js";
import { atPath } from "../payments/x402/bazaar.js";
import { IDENTIFIER_FIELD } from "../payments/x402/payment-identifier.js";
import {
  CHALLENGE_HEADER,
  challengeV2,
  encodeHeader,
  failureHeader,
  type Offer,
  PAYMENT_HEADERS,
  receiptHeader,
  settlementResponseV2,
  type X402Version,
} from "../payments/x402/protocols.js";
import type { RouteOffer } from "../payments/x402/requirements.js";
import type { PaymentErrorReason, PaymentRequiredBody, PaymentRequirements } from "../payments/x402/types.js";
import type { PaidOutcome } from "./outcomes.js";
import type { ResponseCheck } from "./response-check.js";

/** What a paid request is answered: a JSON body with its status and headers, and what the request's log line adds. */
export interface PaidReply {
  status: number;
  headers: Record<string, string>;
  body: string;
  log?: Record<string, unknown>;
}

/** The request an outcome answers, as far as its answer depends on it. */
export interface AnsweredRequest {
  /** The offer at the URL paid for (asked only for an answer that names it: a challenge). */
  offer(): Offer;
  /** The x402 version the payment came in, if one came. */
  version?: X402Version;
  /** A legacy GET's path fields (its Bazaar route template names them); none for a POST. */
  params: Record<string, string>;
  /** Where a field named as a body field came from: a legacy GET's are in its query or path. */
  located<E extends { location: string; field: string }>(errors: E[]): E[];
  requestId: string;
  now: number;
}

export function challengeBody(
  requirement: PaymentRequirements,
  error: PaymentErrorReason,
  message: string,
  payer?: string,
): PaymentRequiredBody {
  return { x402Version: 1, error, message, accepts: [requirement], ...(payer ? { payer } : {}) };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): PaidReply => ({
  status,
  headers,
  body: JSON.stringify(body),
});

/** An error body of the contract's, with the request id. */
const errorReply = (
  status: number,
  error: string,
  message: string,
  request: AnsweredRequest,
  extra: object = {},
  headers = {},
) => json(status, { error, message, ...extra, request_id: request.requestId }, headers);

const seconds = (ms: number) => String(Math.max(1, Math.ceil(ms / 1000)));

const WHY_USED = {
  "another request":
    "this payment was already used for another request, or sent in the other x402 version's header; pay again for this one",
  "answer expired": "this payment was already used, and its answer is no longer kept",
} as const;

/** What the answers of one route know of it: its price, its offer's fixed parts, and the contract's check of a 402. */
interface RouteAnswers {
  route: PaidRoute;
  routed: RouteOffer;
  priceText: string;
  checkChallenge?: ResponseCheck;
}

const PAY_HEADERS = `${PAYMENT_HEADERS[2]} (x402 v2) or ${PAYMENT_HEADERS[1]} (x402 v1)`;

/** Both challenges at once: v1 in the body, v2 in `PAYMENT-REQUIRED`; never cached. */
function challenge(
  at: RouteAnswers,
  request: AnsweredRequest,
  error: PaymentErrorReason,
  message: string,
  payer?: string,
  headers: Record<string, string> = {},
): PaidReply {
  const offer = request.offer();
  const body = challengeBody(offer.v1, error, message, payer);
  const violations = at.checkChallenge?.(402, body) ?? [];
  if (violations.length)
    throw new Error(`${at.route.operationId} produced a 402 outside the contract: ${violations.join("; ")}`);
  const v2Error = error === "X-PAYMENT header is required" ? "Payment required" : error;
  const extensions = { ...at.routed.extensions, bazaar: atPath(at.routed.extensions.bazaar, request.params) };
  const required = challengeV2(offer, extensions, v2Error);
  const v2 = encodeHeader(at.routed.receipts ? at.routed.receipts.withOffers(required, request.now) : required);
  return json(402, body, { ...headers, "Cache-Control": "no-store", [CHALLENGE_HEADER]: v2 });
}

/** A 400 naming the payment headers: `detail` says what is wrong with each, `message` the whole. */
const invalidPayment = (request: AnsweredRequest, headers: string[], detail: string, message = detail) =>
  errorReply(400, "invalid_payload", message, request, {
    errors: headers.map((field) => ({ location: "header", field, message: detail })),
  });

/** A 503 the same payment can be repeated after, `Retry-After` seconds on. */
const unavailable = (request: AnsweredRequest, error: string, message: string, retryAfter: string) =>
  errorReply(503, error, message, request, {}, { "Retry-After": retryAfter });

type Answer<K extends PaidOutcome["kind"]> = (
  outcome: Extract<PaidOutcome, { kind: K }>,
  request: AnsweredRequest,
  at: RouteAnswers,
) => PaidReply;

/** Each outcome's answer: its status, headers and words. */
const ANSWERS: { [K in PaidOutcome["kind"]]: Answer<K> } = {
  invalid_input: ({ errors }, request) => {
    const located = request.located(errors);
    return errorReply(400, "invalid_request", located.map((e) => `${e.field}: ${e.message}`).join("; "), request, {
      errors: located,
    });
  },
  payment_required: (_, request, at) =>
    challenge(
      at,
      request,
      "X-PAYMENT header is required",
      `Pay ${at.priceText} and repeat the request with the ${PAY_HEADERS} header.`,
    ),
  two_payments: (_, request) =>
    invalidPayment(
      request,
      [PAYMENT_HEADERS[2], PAYMENT_HEADERS[1]],
      `send the payment in one header: ${PAY_HEADERS}, not both`,
    ),
  malformed_payment: ({ detail }, request) => {
    const header = PAYMENT_HEADERS[request.version ?? 1];
    return invalidPayment(request, [header], detail, `${header}: ${detail}`);
  },
  refused: ({ reason, detail, payer }, request, at) => challenge(at, request, reason, detail, payer),
  used: ({ reason, why, payer }, request, at) => challenge(at, request, reason, WHY_USED[why], payer),
  held: ({ until }, request) =>
    unavailable(
      request,
      "payment_in_progress",
      "This payment is already in progress for this request (another attempt holds it, or a restart interrupted it). Repeat the request with the same payment after Retry-After seconds: you receive its answer, or it has been released and is served anew. Do not pay again.",
      seconds(until - request.now),
    ),
  identifier_conflict: ({ identifier }, request) => {
    const message = `${IDENTIFIER_FIELD} "${identifier}" names a purchase of another request or another payer. Nothing was charged. Give each purchase its own identifier, and repeat it only on retries of that purchase.`;
    return errorReply(409, "payment_identifier_conflict", message, request, {
      errors: [
        {
          location: "header",
          field: PAYMENT_HEADERS[2],
          message: `${IDENTIFIER_FIELD} "${identifier}" is bound to another purchase`,
        },
      ],
    });
  },
  delivered: (outcome, request, at) => delivered(outcome, request, at.routed),
  settlement_refused: ({ reason, detail, payer }, request, at) => {
    const failure = failureHeader(request.version ?? 1, { reason, payer }, at.routed.caip2);
    return challenge(at, request, reason, detail, payer, failure ? Object.fromEntries([failure]) : {});
  },
  too_late: ({ timeoutSeconds }, request) =>
    unavailable(
      request,
      "service_unavailable",
      `The answer was not ready within ${timeoutSeconds} s of the payment; nothing was charged. Repeat the request.`,
      "1",
    ),
  ledger_unreachable: ({ before }, request) =>
    unavailable(
      request,
      "service_unavailable",
      `The service's database cannot be reached right now. ${
        before === "admission"
          ? "Nothing was charged. Repeat the request with the same payment in a few seconds."
          : "Repeat the request with the same payment in a few seconds: you receive the answer, and the payment is never charged twice."
      }`,
      "2",
    ),
  settlement_unknown: (_, request) =>
    errorReply(
      502,
      "upstream_error",
      "The settlement did not complete. Repeat the request with the same payment in a minute: if it was charged you receive this answer. If it was not, it is released (never charged) once it can no longer settle; then pay again.",
      request,
      { provider: "settlement" },
    ),
  answer_failed: ({ error }, request) => {
    const { status, body, headers } = toErrorResponse(error);
    const errors = body.errors && request.located(body.errors);
    return json(status, { ...body, ...(errors && { errors }), request_id: request.requestId }, headers);
  },
};

/** The answers of one paid route. `checkChallenge`: the contract's check of a 402 body, where responses are validated. */
export function httpAnswers(route: PaidRoute, routed: RouteOffer, checkChallenge?: ResponseCheck) {
  const at: RouteAnswers = {
    route,
    routed,
    priceText: `${route.payment.price.amount} USD in USDC on ${routed.template.network}`,
    checkChallenge,
  };
  return (outcome: PaidOutcome, request: AnsweredRequest): PaidReply =>
    (ANSWERS[outcome.kind] as Answer<typeof outcome.kind>)(outcome as never, request, at);
}

/**
 * The answer and its receipt, in the header of the version paid in. A paid answer is the payer's alone: `private` keeps
 * it out of shared caches, so that no one who did not pay is handed it (a retry gets it from the ledger).
 */
function delivered(
  outcome: Extract<PaidOutcome, { kind: "delivered" }>,
  request: AnsweredRequest,
  routed: RouteOffer,
): PaidReply {
  const { answer, receipt, replayed } = outcome;
  const version = request.version ?? 1;
  const [name, value] = receiptOf(outcome, request, routed);
  const { transaction, simulated = false } = receipt;
  return {
    status: answer.status,
    headers: { [name]: value, "Cache-Control": "private" },
    body: answer.body,
    ...(!replayed && {
      log: { payment: "settled", network: receipt.network, x402Version: version, transaction, simulated },
    }),
  };
}

/** The receipt header of the version paid in; in v2, with the signed receipt when the route signs them. */
function receiptOf(
  { answer, receipt }: Extract<PaidOutcome, { kind: "delivered" }>,
  request: AnsweredRequest,
  routed: RouteOffer,
) {
  const version = request.version ?? 1;
  if (version === 1 || !routed.receipts) return receiptHeader(version, receipt, routed.caip2);
  const response = settlementResponseV2(receipt, routed.caip2);
  return [
    RECEIPT_HEADERS[2],
    encodeHeader(routed.receipts.withReceipt(response, request.offer().v1.resource, answer.body)),
  ] as const;
}
