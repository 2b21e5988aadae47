/**
 * What each outcome of a paid call means to its payer, stated once for every transport: whether it was
 * charged, what repeating the same call can bring and after how long, the x402 reason of a challenge,
 * the contract's error code and the sentence the payer reads. HTTP (front/http-answers.ts) and MCP
 * (server/mcp/paid/answers.ts) read these facts and add only their wire form: a status and headers, or a
 * tool result. A transport may not state a fact of its own (outcome-facts.test.ts holds both to this table).
 */
import { type ErrorCode, toErrorResponse } from "../../http/errors.js";
import { IDENTIFIER_FIELD } from "../payments/x402/payment-identifier.js";
import type { PaymentErrorReason } from "../payments/x402/types.js";
import type { PaidOutcome } from "./outcomes.js";

/** What repeating the same call, with the same payment, can bring. */
export type Retry =
  /** The same outcome: something must change first (the input, the payment, the identifier). */
  | { again: "same" }
  /** Possibly another outcome, at once or after `afterSeconds`; never a reason to pay a second time. */
  | { again: "may differ"; afterSeconds?: number }
  /** A challenge: the call is answered once a (new) payment comes with it. */
  | { again: "pay" };

export interface OutcomeFacts {
  /** `unknown`: the settlement's outcome is open; a retry with the same payment finds it out, never charged twice. */
  charged: "yes" | "no" | "unknown";
  retry: Retry;
  /** The x402 reason of a challenge (the call must be paid, or paid otherwise); absent for every other outcome. */
  x402Reason?: PaymentErrorReason | "Payment required";
  /** The contract's error code, for an outcome that is neither a challenge nor an answer. */
  error?: ErrorCode;
  /** What the payer reads, in the transport's words. */
  sentence: string;
}

/** The nouns a transport's sentences need: how its calls and payments are named there. */
export interface TransportWords {
  /** How a caller repeats the call: "Repeat the request", "Call the tool again". */
  again: string;
  /** What one call is: "request", "call". */
  call: string;
  /** Where a payment goes: "the PAYMENT-SIGNATURE (x402 v2) or X-PAYMENT (x402 v1) header", "... in params._meta". */
  paymentPlace: string;
  /** The price as the caller pays it: "0.001 USD in USDC on base-sepolia", "0.001 USD per call". */
  price: string;
}

/** Whole seconds from `now` to `until`, at least one: the shortest wait a retry is told. */
export const secondsUntil = (until: number, now: number) => Math.max(1, Math.ceil((until - now) / 1000));

/** The seconds a caller waits before repeating a call the service could not answer now. */
export const RETRY_SECONDS = { tooLate: 1, ledgerUnreachable: 2 } as const;

const NOT_PAYING_TWICE = "Do not pay again.";

type Facts<K extends PaidOutcome["kind"]> = (
  outcome: Extract<PaidOutcome, { kind: K }>,
  words: TransportWords,
  now: number,
) => OutcomeFacts;

const FACTS: { [K in PaidOutcome["kind"]]: Facts<K> } = {
  invalid_input: ({ errors }) => ({
    charged: "no",
    retry: { again: "same" },
    error: "invalid_request",
    sentence: errors.map((e) => `${e.field}: ${e.message}`).join("; "),
  }),
  payment_required: ({ errors }, w) => ({
    charged: "no",
    retry: { again: "pay" },
    x402Reason: "Payment required",
    sentence: errors?.length
      ? `Fix ${errors.map((e) => `${e.field} (${e.message})`).join("; ")} before paying: paid with these fields, the ${w.call} is refused and not charged. Then pay ${w.price} with ${w.paymentPlace}.`
      : `Pay ${w.price} and ${w.again.toLowerCase()} with ${w.paymentPlace}.`,
  }),
  two_payments: (_, w) => ({
    charged: "no",
    retry: { again: "same" },
    x402Reason: "invalid_payload",
    error: "invalid_payload",
    sentence: `Send one payment, in ${w.paymentPlace}, not two.`,
  }),
  malformed_payment: ({ detail }) => ({
    charged: "no",
    retry: { again: "same" },
    x402Reason: "invalid_payload",
    error: "invalid_payload",
    sentence: `The payment ${detail}.`,
  }),
  refused: ({ reason, detail }) => ({
    charged: "no",
    retry: { again: "pay" },
    x402Reason: reason,
    sentence: `${detail}. Nothing was charged.`,
  }),
  used: ({ reason, why }, w) => ({
    charged: "no",
    retry: { again: "pay" },
    x402Reason: reason,
    sentence:
      why === "another request"
        ? `This payment was already used for another ${w.call} (another operation, other input, or the other x402 version). Pay again for this one.`
        : "This payment was already used, and its answer is no longer kept. Pay again.",
  }),
  held: ({ until }, w, now) => ({
    charged: "unknown",
    retry: { again: "may differ", afterSeconds: secondsUntil(until, now) },
    error: "payment_in_progress",
    sentence: `This payment is already in progress for this ${w.call} (another attempt holds it, or a restart interrupted it). ${w.again} with the same payment in ${secondsUntil(until, now)} s: you receive its answer, or it has been released and is served anew. ${NOT_PAYING_TWICE}`,
  }),
  identifier_conflict: ({ identifier }, w) => ({
    charged: "no",
    retry: { again: "same" },
    error: "payment_identifier_conflict",
    sentence: `The payment's ${IDENTIFIER_FIELD} "${identifier}" names a purchase of another ${w.call} or another payer. Nothing was charged. Give each purchase its own identifier, and repeat it only on retries of that purchase.`,
  }),
  delivered: () => ({ charged: "yes", retry: { again: "same" }, sentence: "Delivered." }),
  settlement_refused: ({ reason, detail }) => ({
    charged: "no",
    retry: { again: "pay" },
    x402Reason: reason,
    sentence: `Settlement refused the payment: ${detail}. Nothing was charged; the answer is withheld.`,
  }),
  too_late: ({ timeoutSeconds }, w) => ({
    charged: "no",
    retry: { again: "may differ", afterSeconds: RETRY_SECONDS.tooLate },
    error: "service_unavailable",
    sentence: `The answer was not ready within ${timeoutSeconds} s of the payment; nothing was charged. ${w.again} with the same payment.`,
  }),
  ledger_unreachable: ({ before }, w) => ({
    charged: "no",
    retry: { again: "may differ", afterSeconds: RETRY_SECONDS.ledgerUnreachable },
    error: "service_unavailable",
    sentence: `The service's database cannot be reached right now. ${
      before === "admission"
        ? `Nothing was charged. ${w.again} with the same payment in a few seconds.`
        : `${w.again} with the same payment in a few seconds: you receive the answer, and the payment is never charged twice.`
    }`,
  }),
  // One truth on every transport: the payment is still in progress (settling) until recovery learns where its money
  // went, which it will have done by `until`; a retry then gets the answer, or the payment released and served anew.
  settlement_unknown: ({ until }, w, now) => ({
    charged: "unknown",
    retry: { again: "may differ", afterSeconds: secondsUntil(until, now) },
    error: "payment_in_progress",
    sentence: `The settlement's outcome is not known yet. ${w.again} with the same payment in ${secondsUntil(until, now)} s: if it was charged you receive this answer; if not, it is released (never charged) and served anew. ${NOT_PAYING_TWICE}`,
  }),
  answer_failed: ({ error }) => answerFailed(error),
};

/** An operation's failure: permanent for what the caller sent (a 4xx), possibly passing otherwise. Never charged. */
function answerFailed(error: unknown): OutcomeFacts {
  const { status, body, headers } = toErrorResponse(error);
  const retryAfter = Number(headers["Retry-After"]);
  const retry: Retry =
    status < 500
      ? { again: "same" }
      : { again: "may differ", ...(retryAfter > 0 && { afterSeconds: Math.ceil(retryAfter) }) };
  return { charged: "no", retry, error: body.error, sentence: body.message };
}

/** The facts of `outcome`, worded for a transport, at `now` (epoch ms: a wait is counted from it). */
export function outcomeFacts(outcome: PaidOutcome, words: TransportWords, now: number): OutcomeFacts {
  return (FACTS[outcome.kind] as Facts<typeof outcome.kind>)(outcome as never, words, now);
}

/**
 * The fields an error names beside its sentence, on every transport that has a place for them (a tool result's
 * `structuredContent`, an A2A status message's data part): the invalid fields, the identifier, when to come back.
 */
export function namedFields(outcome: PaidOutcome, facts: OutcomeFacts): Record<string, unknown> {
  const wait = facts.retry.again === "may differ" ? facts.retry.afterSeconds : undefined;
  const errors =
    outcome.kind === "invalid_input"
      ? outcome.errors
      : outcome.kind === "answer_failed"
        ? toErrorResponse(outcome.error).body.errors
        : undefined;
  return {
    ...(errors && { errors: errors.map(({ field, message }) => ({ field, message })) }),
    ...(outcome.kind === "identifier_conflict" && { identifier: outcome.identifier }),
    ...(wait !== undefined && { retryAfterSeconds: wait }),
  };
}
