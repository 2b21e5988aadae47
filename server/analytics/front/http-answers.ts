/**
 * The paid pipeline's outcomes as HTTP says them. What each outcome means (charged, when to retry, the
 * x402 reason, the sentence) is the table of paid/outcome-facts.ts; this module adds only HTTP's wire
 * form: the status, the x402 challenge and receipt headers of each version, `Retry-After` where the table
 * says when to come back, `Cache-Control`, and the contract's error body with the fields it names.
 */
import { RECEIPT_HEADERS } from "../../../lib/x402-headers.js";
import { type ErrorCode, type FieldError, toErrorResponse } from "../../http/errors.js";
import type { PaidRoute } from "../contract/analytics-contract.js";
import { type OutcomeFacts, outcomeFacts, type TransportWords } from "../paid/outcome-facts.js";
import type { PaidOutcome } from "../paid/outcomes.js";
import type { ResponseCheck } from "../paid/response-check.js";
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

/** What a paid request is answered: a JSON body with its status and headers, and what the request's log line adds. */
export interface PaidReply {
  status: number;
  headers: Record<string, string>;
  body: string;
  log?: Record<string, unknown>;
}

/** The request an outcome answers, as far as its answer depends on it. */
export interface AnsweredRequest {
  /** The offer at the URL paid for (asked only for an answer that names it: a challenge, a receipt). */
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

/** The x402 v1 body of a challenge; `error`'s v1 spelling of a plain challenge is the header's name. */
export function challengeBody(
  requirement: PaymentRequirements,
  error: PaymentErrorReason | "Payment required",
  message: string,
  payer?: string,
): PaymentRequiredBody {
  const v1Error = error === "Payment required" ? "X-PAYMENT header is required" : error;
  return { x402Version: 1, error: v1Error, message, accepts: [requirement], ...(payer ? { payer } : {}) };
}

/** The status of each error code of a paid route's answers. */
const STATUS: Partial<Record<ErrorCode, number>> = {
  invalid_request: 400,
  invalid_payload: 400,
  payment_identifier_conflict: 409,
  payment_in_progress: 503,
  service_unavailable: 503,
};

const PAY_HEADERS = `${PAYMENT_HEADERS[2]} (x402 v2) or ${PAYMENT_HEADERS[1]} (x402 v1)`;

/** What the answers of one route know of it: its words, its offer's fixed parts, and the contract's check of a 402. */
interface RouteAnswers {
  route: PaidRoute;
  routed: RouteOffer;
  words: TransportWords;
  checkChallenge?: ResponseCheck;
}

const retryAfter = (facts: OutcomeFacts): Record<string, string> =>
  facts.retry.again === "may differ" && facts.retry.afterSeconds !== undefined
    ? { "Retry-After": String(facts.retry.afterSeconds) }
    : {};

/** Both challenges at once: v1 in the body, v2 in `PAYMENT-REQUIRED`; never cached. */
function challenge(at: RouteAnswers, request: AnsweredRequest, facts: OutcomeFacts, extra: ChallengeExtra): PaidReply {
  const reason = facts.x402Reason as NonNullable<OutcomeFacts["x402Reason"]>;
  const offer = request.offer();
  const body = {
    ...challengeBody(offer.v1, reason, facts.sentence, extra.payer),
    ...(extra.errors && { errors: extra.errors }),
  };
  const violations = at.checkChallenge?.(402, body) ?? [];
  if (violations.length)
    throw new Error(`${at.route.operationId} produced a 402 outside the contract: ${violations.join("; ")}`);
  const params = describedParams(request.params, extra.errors);
  const extensions = { ...at.routed.extensions, bazaar: atPath(at.routed.extensions.bazaar, params) };
  const required = challengeV2(offer, extensions, reason);
  const signed = at.routed.receipts ? at.routed.receipts.withOffers(required, request.now) : required;
  const headers = { ...extra.headers, "Cache-Control": "no-store", [CHALLENGE_HEADER]: encodeHeader(signed) };
  return { status: 402, headers, body: JSON.stringify(body) };
}

/**
 * The path values a challenge's Bazaar extension describes: the request's, unless its input breaks the contract (then
 * not every value was judged: a repeated query field stops the check before the path's), when each keeps the
 * contract's example, so that the extension stays valid under its own schema (an indexer validates it).
 */
const describedParams = (params: Record<string, string>, errors: FieldError[] = []) => (errors.length ? {} : params);

interface ChallengeExtra {
  payer?: string;
  headers?: Record<string, string>;
  /** An unpaid request's input errors, named as a 400 would name them. */
  errors?: FieldError[];
}

/** A challenge's input errors or payer, and a refused settlement's failure header of the version paid in. */
function challengeExtra(outcome: PaidOutcome, request: AnsweredRequest, at: RouteAnswers): ChallengeExtra {
  if (outcome.kind === "payment_required") return outcome.errors ? { errors: request.located(outcome.errors) } : {};
  if (outcome.kind !== "refused" && outcome.kind !== "used" && outcome.kind !== "settlement_refused") return {};
  if (outcome.kind !== "settlement_refused") return { payer: outcome.payer };
  const { reason, payer } = outcome;
  const failure = failureHeader(request.version ?? 1, { reason, payer }, at.routed.caip2);
  return { payer, headers: failure ? Object.fromEntries([failure]) : {} };
}

/** The fields an error body names beside its sentence: the invalid ones, the payment headers, the failed provider. */
function namedFields(outcome: PaidOutcome, request: AnsweredRequest, facts: OutcomeFacts): Record<string, unknown> {
  const header = (field: string, message: string): FieldError => ({ location: "header", field, message });
  switch (outcome.kind) {
    case "invalid_input":
      return { errors: request.located(outcome.errors) };
    case "two_payments":
      return { errors: [PAYMENT_HEADERS[2], PAYMENT_HEADERS[1]].map((name) => header(name, facts.sentence)) };
    case "malformed_payment":
      return { errors: [header(PAYMENT_HEADERS[request.version ?? 1], outcome.detail)] };
    case "identifier_conflict":
      return {
        errors: [
          header(PAYMENT_HEADERS[2], `${IDENTIFIER_FIELD} "${outcome.identifier}" is bound to another purchase`),
        ],
      };
    case "answer_failed": {
      const { body } = toErrorResponse(outcome.error);
      return {
        ...(body.errors && { errors: request.located(body.errors) }),
        ...(body.provider && { provider: body.provider }),
      };
    }
    default:
      return {};
  }
}

/** An outcome that is neither an answer nor a challenge: the contract's error body, with its status. */
function errorReply(outcome: PaidOutcome, request: AnsweredRequest, facts: OutcomeFacts): PaidReply {
  const error = facts.error as ErrorCode;
  const status = outcome.kind === "answer_failed" ? toErrorResponse(outcome.error).status : (STATUS[error] ?? 500);
  const body = {
    error,
    message: facts.sentence,
    ...namedFields(outcome, request, facts),
    request_id: request.requestId,
  };
  return { status, headers: retryAfter(facts), body: JSON.stringify(body) };
}

/** How HTTP names a route's calls and payments in the table's sentences. */
export const httpWords = (route: PaidRoute, routed: RouteOffer): TransportWords => ({
  again: "Repeat the request",
  call: "request",
  paymentPlace: `the ${PAY_HEADERS} header`,
  price: `${route.payment.price.amount} USD in USDC on ${routed.template.network}`,
});

/** The answers of one paid route. `checkChallenge`: the contract's check of a 402 body, where responses are validated. */
export function httpAnswers(route: PaidRoute, routed: RouteOffer, checkChallenge?: ResponseCheck) {
  const at: RouteAnswers = { route, routed, checkChallenge, words: httpWords(route, routed) };
  return (outcome: PaidOutcome, request: AnsweredRequest): PaidReply => {
    if (outcome.kind === "delivered") return delivered(outcome, request, routed);
    const facts = outcomeFacts(outcome, at.words, request.now);
    // A challenge, unless the payment is not one at all (not base64 JSON, or two at once): that is a malformed
    // request, a 400, as x402's HTTP transport has it.
    if (facts.x402Reason && facts.error === undefined)
      return challenge(at, request, facts, challengeExtra(outcome, request, at));
    return errorReply(outcome, request, facts);
  };
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
