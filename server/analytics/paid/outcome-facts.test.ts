// Every transport states an outcome's facts as the one table says them, and states none of its own: for one outcome
// of every kind, the HTTP reply, the MCP tool result and the A2A task agree with outcome-facts.ts on whether it was charged (a
// receipt goes with an answer only), when to come back (Retry-After, retryAfterSeconds), the x402 reason of a
// challenge, the error code and the sentence.
import { describe, expect, it } from "vitest";
import { a2aWords, TASK_STATE, taskAnswer } from "../../a2a/task-answers.js";
import { loadAnalyticsConfig } from "../../config/analytics.js";
import { StoreUnavailable } from "../../db/unavailable.js";
import { ApiError, upstreamError } from "../../http/errors.js";
import type { X402Binding } from "../../mcp/current-revision.js";
import { mcpAnswer, mcpWords } from "../../mcp/paid/answers.js";
import { currentAnswer, currentAnswerJson } from "../../mcp/paid/current-answers.js";
import { loadAnalyticsContract } from "../contract/analytics-contract.js";
import { httpAnswers, httpWords } from "../front/http-answers.js";
import { offerAt, routeOffer } from "../payments/x402/requirements.js";
import { type OutcomeFacts, outcomeFacts } from "./outcome-facts.js";
import type { PaidOutcome } from "./outcomes.js";

const NOW = 1_800_000_000_000;
const contract = loadAnalyticsContract();
const config = loadAnalyticsConfig({}, contract.developmentDefaults);
const route = contract.paid.find((r) => r.path === "/base/defi/tvl" && r.method === "post");
if (!route) throw new Error("no POST /base/defi/tvl");
const routed = routeOffer(route, config, contract.document);
const offer = offerAt(routed, "http://127.0.0.1/base/defi/tvl");
const http = httpAnswers(route, routed);
const receipt = { success: true, transaction: "0xabc", network: "base-sepolia", payer: "0xpayer", amount: "1000" };

/** One outcome of every kind (and both sides of those whose facts depend on what happened). */
const OUTCOMES: PaidOutcome[] = [
  { kind: "invalid_input", errors: [{ location: "body", field: "limit", message: "must be <= 50" }] },
  { kind: "payment_required" },
  { kind: "two_payments" },
  { kind: "malformed_payment", detail: "is not base64" },
  { kind: "refused", reason: "invalid_exact_evm_payload_signature", detail: "the signature is not the payer's" },
  { kind: "used", reason: "invalid_exact_evm_nonce_already_used", payer: "0xpayer", why: "another request" },
  { kind: "used", reason: "invalid_exact_evm_nonce_already_used", payer: "0xpayer", why: "answer expired" },
  { kind: "held", stage: "settling", until: NOW + 4_200 },
  { kind: "identifier_conflict", identifier: "pay_0123456789abcdef" },
  { kind: "delivered", answer: { status: 200, body: '{"data":{}}' }, receipt: receipt as never, replayed: false },
  { kind: "settlement_refused", reason: "insufficient_funds", detail: "no funds", payer: "0xpayer" },
  { kind: "too_late", timeoutSeconds: 30 },
  { kind: "ledger_unreachable", before: "admission", cause: new StoreUnavailable("ledger") },
  { kind: "ledger_unreachable", before: "settlement", cause: new StoreUnavailable("ledger") },
  { kind: "settlement_unknown", until: NOW + 61_000, cause: new Error("reset") },
  { kind: "answer_failed", error: upstreamError("defillama") },
  { kind: "answer_failed", error: new ApiError(404, "not_found", "Unknown pool: x.") },
  { kind: "answer_failed", error: new StoreUnavailable("cache") },
  { kind: "answer_failed", error: new Error("a bug") },
];

const challenge = (error: unknown) => ({ x402Version: 2, error, resource: { url: "mcp://tool/defiTvl" }, accepts: [] });
const asHttp = (outcome: PaidOutcome) =>
  http(outcome, { offer: () => offer, version: 2, params: {}, located: (e) => e, requestId: "r", now: NOW });
const answered = { challenge: challenge as never, caip2: "eip155:84532", price: "0.001", now: NOW };
const asMcp = (outcome: PaidOutcome) => mcpAnswer(outcome, answered);
const asCurrent = (outcome: PaidOutcome, binding: X402Binding) => {
  const result = currentAnswer(outcome, answered, binding);
  expect(JSON.parse(currentAnswerJson(outcome, answered, binding))).toEqual(result);
  return result as Record<string, unknown> & { _meta?: Record<string, unknown> };
};

const waitOf = (facts: OutcomeFacts) => (facts.retry.again === "may differ" ? facts.retry.afterSeconds : undefined);
const words = { again: "", call: "", paymentPlace: "", price: "" };

describe("an outcome's facts", () => {
  it("are stated for every kind of outcome", () => {
    const kinds = new Set(OUTCOMES.map((o) => o.kind));
    expect(kinds.size).toBe(14);
  });

  for (const outcome of OUTCOMES) {
    const label = `${outcome.kind} ${JSON.stringify(outcome).slice(0, 80)}`;

    it(`over HTTP: ${label}`, () => {
      const facts = outcomeFacts(outcome, words, NOW);
      const reply = asHttp(outcome);
      const body = JSON.parse(reply.body);
      // charged: a receipt only with an answer (a refused settlement's response header says it failed)
      const response = reply.headers["PAYMENT-RESPONSE"] ?? reply.headers["X-PAYMENT-RESPONSE"];
      const settled = response !== undefined && JSON.parse(Buffer.from(response, "base64").toString()).success;
      expect(settled).toBe(facts.charged === "yes");
      // when to come back
      const wait = waitOf(facts);
      expect(reply.headers["Retry-After"]).toBe(wait === undefined ? undefined : String(wait));
      if (facts.charged === "yes") return;
      // a challenge names its reason in both versions; any other outcome is the contract's error body
      if (facts.x402Reason && !facts.error) {
        expect(reply.status).toBe(402);
        const v2 = JSON.parse(Buffer.from(reply.headers["PAYMENT-REQUIRED"] as string, "base64").toString());
        expect(v2.error).toBe(facts.x402Reason);
        expect(body.error).toBe(
          facts.x402Reason === "Payment required" ? "X-PAYMENT header is required" : facts.x402Reason,
        );
      } else {
        expect(reply.status).not.toBe(402);
        expect(reply.headers["PAYMENT-REQUIRED"]).toBeUndefined();
        expect(body.error).toBe(facts.error);
      }
      expect(body.message).toBe(outcomeFacts(outcome, httpWords(route, routed), NOW).sentence);
    });

    it(`over MCP: ${label}`, () => {
      const facts = outcomeFacts(outcome, words, NOW);
      const result = asMcp(outcome);
      const content = result.structuredContent as Record<string, unknown>;
      const response = result._meta?.["x402/payment-response"] as { success?: boolean } | undefined;
      expect(response?.success === true).toBe(facts.charged === "yes");
      expect(result.isError).toBe(facts.charged === "yes" ? undefined : true);
      if (facts.charged === "yes") return;
      expect(content.retryAfterSeconds).toBe(waitOf(facts));
      if (facts.x402Reason) {
        expect(content.x402Version).toBe(2);
        expect(content.error).toBe(facts.x402Reason);
      } else {
        expect(content.x402Version).toBeUndefined();
        expect(content.error).toBe(facts.error);
      }
      const texts = (result.content as { text: string }[]).map((c) => c.text);
      expect(texts).toContain(outcomeFacts(outcome, mcpWords({ price: "0.001" }), NOW).sentence);
    });

    it(`over A2A, as a paid task's state: ${label}`, () => {
      const facts = outcomeFacts(outcome, words, NOW);
      const task = { ...answered, id: "t1", contextId: "c1", skill: "defiTvl", receipts: [] };
      const answer = taskAnswer(outcome, task, true);
      const json = JSON.parse(answer.json);
      const metadata = json.status.message.metadata as Record<string, unknown>;
      const receipts = (metadata["x402.payment.receipts"] ?? []) as { success: boolean }[];
      // charged: completed, with a successful settle response and the answer as the artifact, and only then
      expect(receipts.some((r) => r.success)).toBe(facts.charged === "yes");
      expect(answer.state === TASK_STATE.completed).toBe(facts.charged === "yes");
      if (facts.charged === "yes") return expect(json.artifacts[0].parts[0].data).toEqual({ data: {} });
      expect(json.artifacts).toBeUndefined();
      const data = json.status.message.parts[1].data as Record<string, unknown>;
      expect(data.retryAfterSeconds).toBe(waitOf(facts));
      expect(json.status.message.parts[0].text).toBe(outcomeFacts(outcome, a2aWords({ price: "0.001" }), NOW).sentence);
      if (facts.x402Reason) {
        // a challenge: pay (again) on this task, the requirements naming why
        expect(answer.state).toBe(TASK_STATE.inputRequired);
        expect(metadata["x402.payment.required"]).toMatchObject({ x402Version: 2, error: facts.x402Reason });
        const first = outcome.kind === "payment_required";
        expect(metadata["x402.payment.status"]).toBe(first ? "payment-required" : "payment-failed");
        expect(metadata["x402.payment.error"]).toBe(first ? undefined : facts.x402Reason);
        expect(data.error).toBe(facts.error);
      } else {
        // come back with the same payment, or over (never charged)
        expect(answer.state).toBe(facts.retry.again === "may differ" ? TASK_STATE.working : TASK_STATE.failed);
        expect(metadata["x402.payment.required"]).toBeUndefined();
        expect(data.error).toBe(facts.error);
      }
    });

    it(`over MCP 2026-07-28, in both x402 bindings: ${label}`, () => {
      const facts = outcomeFacts(outcome, words, NOW);
      // the tool-result binding: the 2025-era result, complete
      const toolResult = asCurrent(outcome, "tool-result");
      expect(toolResult).toEqual({ resultType: "complete", ...asMcp(outcome) });
      // the extension binding: a challenge is payment_required with the reason, never charged; the rest as above
      const extension = asCurrent(outcome, "extension");
      if (!facts.x402Reason) return expect(extension).toEqual(toolResult);
      expect(extension.resultType).toBe("payment_required");
      expect(extension).not.toHaveProperty("isError");
      expect(extension.paymentRequired).toMatchObject({ x402Version: 2, error: facts.x402Reason });
      const response = extension._meta?.["x402/payment-response"] as { success?: boolean } | undefined;
      expect(response?.success).not.toBe(true);
      expect(facts.charged).toBe("no");
    });
  }

  it("tell a payer unsure of an outcome when to come back, never to pay again", () => {
    for (const outcome of OUTCOMES) {
      const facts = outcomeFacts(outcome, words, NOW);
      if (facts.charged !== "unknown") continue;
      expect(facts.retry, outcome.kind).toMatchObject({ again: "may differ" });
      expect(waitOf(facts), outcome.kind).toBeGreaterThan(0);
      expect(facts.x402Reason, outcome.kind).toBeUndefined();
    }
    expect(outcomeFacts(OUTCOMES[14] as PaidOutcome, words, NOW).retry).toEqual({
      again: "may differ",
      afterSeconds: 61,
    });
  });
});
