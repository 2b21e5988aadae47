/**
 * The paid pipeline's outcomes on MCP's current revision (2026-07-28), in x402's two MCP bindings. With the
 * extension binding (the client advertised `org.x402/payment` in its capabilities), a challenge is
 * `resultType: "payment_required"` with the tool's `PaymentRequired` in `result.paymentRequired`, and a
 * refused settlement's response in `result._meta["x402/payment-response"]`; the tool did not run, or its
 * answer is withheld. Every other outcome, and every outcome with the tool-result binding, is the 2025-era
 * tool result of answers.ts with `resultType: "complete"`. The facts (which outcome is a challenge, its
 * reason) are the table's (paid/outcome-facts.ts), read once per binding.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { outcomeFacts } from "../../analytics/paid/outcome-facts.js";
import type { PaidOutcome } from "../../analytics/paid/outcomes.js";
import { settlementFailureV2 } from "../../analytics/payments/x402/protocols.js";
import type { PaymentRequiredV2 } from "../../analytics/payments/x402/types.js";
import type { X402Binding } from "../current-revision.js";
import { type AnsweredCall, mcpAnswer, mcpAnswerJson, mcpWords, PAYMENT_RESPONSE_META } from "./answers.js";

/** x402's extension result: the operation did not run (or its answer is withheld) until it is paid. */
export interface PaymentRequiredResult {
  resultType: "payment_required";
  paymentRequired: PaymentRequiredV2;
  _meta?: Record<string, unknown>;
}

export type CurrentToolResult = (CallToolResult & { resultType: "complete" }) | PaymentRequiredResult;

/** The extension binding's result for an outcome the table calls a challenge; undefined for any other. */
export function paymentRequiredResult(outcome: PaidOutcome, call: AnsweredCall): PaymentRequiredResult | undefined {
  const facts = outcomeFacts(outcome, mcpWords(call), call.now);
  if (!facts.x402Reason) return undefined;
  const paymentRequired = call.challenge(facts.x402Reason as PaymentRequiredV2["error"]);
  if (outcome.kind !== "settlement_refused") return { resultType: "payment_required", paymentRequired };
  const failure = settlementFailureV2({ reason: outcome.reason, payer: outcome.payer }, call.caip2);
  return { resultType: "payment_required", paymentRequired, _meta: { [PAYMENT_RESPONSE_META]: failure } };
}

/** A paid call's result on the current revision, in the client's binding. */
export function currentAnswer(outcome: PaidOutcome, call: AnsweredCall, binding: X402Binding): CurrentToolResult {
  const required = binding === "extension" ? paymentRequiredResult(outcome, call) : undefined;
  return required ?? { resultType: "complete", ...mcpAnswer(outcome, call) };
}

/** The same result as JSON text; a delivered answer's stored body goes in as it is (answers.ts). */
export function currentAnswerJson(outcome: PaidOutcome, call: AnsweredCall, binding: X402Binding): string {
  const required = binding === "extension" ? paymentRequiredResult(outcome, call) : undefined;
  if (required) return JSON.stringify(required);
  // mcpAnswerJson writes an object with at least `content`: `resultType` goes first in it.
  return `{"resultType":"complete",${mcpAnswerJson(outcome, call).slice(1)}`;
}
