/**
 * The paid pipeline's outcomes as an MCP tool result says them (x402's MCP transport, tool-result
 * binding): the one place that knows the shape of a paid tool's results and every sentence a calling
 * agent reads. A challenge is the x402 v2 `PaymentRequired` in `structuredContent` and, as JSON, in
 * `content[0].text` (a second text says what to do); an answer is the envelope, with the settlement
 * response in `_meta["x402/payment-response"]`. Only a delivered answer is a result without `isError`.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { PaidOutcome } from "../../analytics/paid/outcomes.js";
import { IDENTIFIER_FIELD } from "../../analytics/payments/x402/payment-identifier.js";
import { type Receipt, settlementFailureV2, settlementResponseV2 } from "../../analytics/payments/x402/protocols.js";
import type {
  PaymentErrorReason,
  PaymentRequiredV2,
  SettlementReceiptV2,
} from "../../analytics/payments/x402/types.js";
import { toErrorResponse } from "../../http/errors.js";

/** `_meta` key of the payment a tool call carries (the v2 `PaymentPayload` object). */
export const PAYMENT_META = "x402/payment";
/** `_meta` key of a paid result's settlement response (and of a settlement failure, in `structuredContent`). */
export const PAYMENT_RESPONSE_META = "x402/payment-response";

/** The call an outcome answers, as far as its result depends on it. */
export interface AnsweredCall {
  /** The tool's `PaymentRequired`, every network it can be paid on, `error` naming why. */
  challenge(error: PaymentRequiredV2["error"]): PaymentRequiredV2;
  /** CAIP-2 id of the network the call was paid (or offered) on. */
  caip2: string;
  /** USD per call, for the sentences. */
  price: string;
  now: number;
  /** The settlement response with its signed receipt (mcp/tool-offers.ts), when the service signs them. */
  signReceipt?(response: SettlementReceiptV2, answerBody: string): SettlementReceiptV2;
}

const text = (value: string) => ({ type: "text" as const, text: value });

function paymentRequired(
  call: AnsweredCall,
  error: PaymentErrorReason | "Payment required",
  advice: string,
  extra: object = {},
): CallToolResult {
  const required = { ...call.challenge(error), ...extra };
  return { isError: true, structuredContent: required, content: [text(JSON.stringify(required)), text(advice)] };
}

/** A tool error that is not about paying: `error` a code of the contract's error bodies, `message` the sentence. */
function failure(error: string, message: string, extra: object = {}): CallToolResult {
  return { isError: true, structuredContent: { error, message, ...extra }, content: [text(message)] };
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

const PAY = `Pay one of the requirements and call the tool again with the signed x402 v2 PaymentPayload object in params._meta["${PAYMENT_META}"].`;

const WHY_USED = {
  "another request":
    "This payment was already used for another call (another tool, other arguments, or an HTTP request). Pay again for this one.",
  "answer expired": "This payment was already used, and its answer is no longer kept. Pay again.",
} as const;

type Answer<K extends PaidOutcome["kind"]> = (
  outcome: Extract<PaidOutcome, { kind: K }>,
  call: AnsweredCall,
) => CallToolResult;

const ANSWERS: { [K in PaidOutcome["kind"]]: Answer<K> } = {
  invalid_input: ({ errors }) => {
    const fields = errors.map(({ field, message }) => ({ field, message }));
    return failure(
      "invalid_request",
      `Invalid arguments (nothing was charged): ${fields.map((e) => `${e.field}: ${e.message}`).join("; ")}`,
      {
        errors: fields,
      },
    );
  },
  payment_required: (_, call) =>
    paymentRequired(call, "Payment required", `This tool costs ${call.price} USD per call. ${PAY}`),
  two_payments: (_, call) => paymentRequired(call, "invalid_payload", PAY),
  malformed_payment: ({ detail }, call) => paymentRequired(call, "invalid_payload", `The payment ${detail}. ${PAY}`),
  refused: ({ reason, detail }, call) => paymentRequired(call, reason, `${detail}. Nothing was charged.`),
  used: ({ reason, why }, call) => paymentRequired(call, reason, WHY_USED[why]),
  held: ({ until }, call) => {
    const wait = seconds(until - call.now);
    return failure(
      "payment_in_progress",
      `This payment is already in progress for this call (another attempt holds it, or a restart interrupted it). Call again with the same payment and arguments in ${wait} s: you receive its answer, or it has been released and is served anew. Do not pay again.`,
      { retryAfterSeconds: wait },
    );
  },
  identifier_conflict: ({ identifier }) =>
    failure(
      "payment_identifier_conflict",
      `The payment's ${IDENTIFIER_FIELD} "${identifier}" names a purchase of another call or another payer. Nothing was charged. Give each purchase its own identifier, and repeat it only on retries of that purchase.`,
      { identifier },
    ),
  delivered: ({ answer, receipt }, call) => delivered(answer.body, receipt, call),
  settlement_refused: ({ reason, detail, payer }, call) =>
    paymentRequired(
      call,
      reason,
      `Settlement refused the payment: ${detail}. Nothing was charged; the answer is withheld.`,
      {
        [PAYMENT_RESPONSE_META]: settlementFailureV2({ reason, payer }, call.caip2),
      },
    ),
  too_late: ({ timeoutSeconds }) =>
    failure(
      "service_unavailable",
      `The answer was not ready within ${timeoutSeconds} s of the payment; nothing was charged. Call again with the same payment.`,
      { retryAfterSeconds: 1 },
    ),
  ledger_unreachable: ({ before }) =>
    failure(
      "service_unavailable",
      `The service's database cannot be reached right now. ${
        before === "admission"
          ? "Nothing was charged. Call again with the same payment in a few seconds."
          : "Call again with the same payment in a few seconds: you receive the answer, and the payment is never charged twice."
      }`,
      { retryAfterSeconds: 2 },
    ),
  settlement_unknown: () =>
    failure(
      "upstream_error",
      "The settlement did not complete. Call again with the same payment and arguments in a minute: if it was charged you receive this answer. If it was not, it is released (never charged) once it can no longer settle; then pay again.",
      { retryAfterSeconds: 60 },
    ),
  answer_failed: ({ error }) => {
    const { body } = toErrorResponse(error);
    return failure(body.error, `${body.message} Nothing was charged.`, body.errors ? { errors: body.errors } : {});
  },
};

/** A delivered answer's settlement response, with its signed receipt when the service signs them. */
function settlementResponse(body: string, receipt: Receipt, call: AnsweredCall): SettlementReceiptV2 {
  const response = settlementResponseV2(receipt, call.caip2);
  return call.signReceipt ? call.signReceipt(response, body) : response;
}

/** The envelope as the tool's output, its receipt in `_meta`. */
function delivered(body: string, receipt: Receipt, call: AnsweredCall): CallToolResult {
  return {
    structuredContent: JSON.parse(body) as Record<string, unknown>,
    content: [text(body)],
    _meta: { [PAYMENT_RESPONSE_META]: settlementResponse(body, receipt, call) },
  };
}

export function mcpAnswer(outcome: PaidOutcome, call: AnsweredCall): CallToolResult {
  return (ANSWERS[outcome.kind] as Answer<typeof outcome.kind>)(outcome as never, call);
}

/**
 * The same result as JSON text. A delivered answer's stored body is the envelope's JSON already: it goes in as it is,
 * not parsed and written again (the tool calls' hottest path, mcp/direct-tool-call.ts).
 */
export function mcpAnswerJson(outcome: PaidOutcome, call: AnsweredCall): string {
  if (outcome.kind !== "delivered") return JSON.stringify(mcpAnswer(outcome, call));
  const { answer, receipt } = outcome;
  const meta = JSON.stringify({ [PAYMENT_RESPONSE_META]: settlementResponse(answer.body, receipt, call) });
  return `{"structuredContent":${answer.body},"content":[{"type":"text","text":${JSON.stringify(answer.body)}}],"_meta":${meta}}`;
}
