/**
 * The paid pipeline's outcomes as an MCP tool result says them (x402's MCP transport, tool-result
 * binding). What each outcome means (charged, when to retry, the x402 reason, the sentence) is the table
 * of paid/outcome-facts.ts; this module adds only the tool result's form. A challenge is the x402 v2
 * `PaymentRequired` in `structuredContent` and, as JSON, in `content[0].text` (a second text says what to
 * do); an answer is the envelope, with the settlement response in `_meta["x402/payment-response"]`; any
 * other outcome an error body (`error`, `message`, and `retryAfterSeconds` where the table says when to
 * come back). Only a delivered answer is a result without `isError`.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import {
  namedFields,
  type OutcomeFacts,
  outcomeFacts,
  type TransportWords,
} from "../../analytics/paid/outcome-facts.js";
import type { PaidOutcome } from "../../analytics/paid/outcomes.js";
import { type Receipt, settlementFailureV2, settlementResponseV2 } from "../../analytics/payments/x402/protocols.js";
import type { PaymentRequiredV2, SettlementReceiptV2 } from "../../analytics/payments/x402/types.js";

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
  /** The settlement response with its signed receipt (offers.ts), when the service signs them. */
  signReceipt?(response: SettlementReceiptV2, answerBody: string): SettlementReceiptV2;
}

const text = (value: string) => ({ type: "text" as const, text: value });

/** How a tool result names calls and payments in the table's sentences. */
export const mcpWords = (call: Pick<AnsweredCall, "price">): TransportWords => ({
  again: "Call the tool again",
  call: "call",
  paymentPlace: `the signed x402 v2 PaymentPayload object in params._meta["${PAYMENT_META}"]`,
  price: `${call.price} USD per call`,
});

/** A challenge: the tool's `PaymentRequired` naming the reason, and what to do. */
function paymentRequired(outcome: PaidOutcome, call: AnsweredCall, facts: OutcomeFacts): CallToolResult {
  const failed = outcome.kind === "settlement_refused" && {
    [PAYMENT_RESPONSE_META]: settlementFailureV2({ reason: outcome.reason, payer: outcome.payer }, call.caip2),
  };
  const required = { ...call.challenge(facts.x402Reason as PaymentRequiredV2["error"]), ...failed };
  return {
    isError: true,
    structuredContent: required,
    content: [text(JSON.stringify(required)), text(facts.sentence)],
  };
}

/** A settlement response, with its signed receipt when the service signs them. */
function settlementResponse(body: string, receipt: Receipt, call: AnsweredCall): SettlementReceiptV2 {
  const response = settlementResponseV2(receipt, call.caip2);
  return call.signReceipt ? call.signReceipt(response, body) : response;
}

export function mcpAnswer(outcome: PaidOutcome, call: AnsweredCall): CallToolResult {
  if (outcome.kind === "delivered") {
    const { answer, receipt } = outcome;
    return {
      structuredContent: JSON.parse(answer.body) as Record<string, unknown>,
      content: [text(answer.body)],
      _meta: { [PAYMENT_RESPONSE_META]: settlementResponse(answer.body, receipt, call) },
    };
  }
  const facts = outcomeFacts(outcome, mcpWords(call), call.now);
  if (facts.x402Reason) return paymentRequired(outcome, call, facts);
  const structuredContent = { error: facts.error, message: facts.sentence, ...namedFields(outcome, facts) };
  return { isError: true, structuredContent, content: [text(facts.sentence)] };
}

/**
 * The same result as JSON text. A delivered answer's stored body is the envelope's JSON already: it goes in as it is,
 * not parsed and written again (the tool calls' hottest path, server/mcp/direct-tool-call.ts).
 */
export function mcpAnswerJson(outcome: PaidOutcome, call: AnsweredCall): string {
  if (outcome.kind !== "delivered") return JSON.stringify(mcpAnswer(outcome, call));
  const { answer, receipt } = outcome;
  const meta = JSON.stringify({ [PAYMENT_RESPONSE_META]: settlementResponse(answer.body, receipt, call) });
  return `{"structuredContent":${answer.body},"content":[{"type":"text","text":${JSON.stringify(answer.body)}}],"_meta":${meta}}`;
}
