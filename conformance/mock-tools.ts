/**
 * The mock's MCP tools (`npm run mock` serves them at `/mcp`): the service's own tools, offers and
 * tool results (server/mcp/paid/: catalogue.ts, offers.ts, answers.ts), charging as the service does with a
 * mock settlement. A call's arguments are checked as the service checks them; without a payment it
 * answers the tool's `PaymentRequired`; a payment is judged as the mock judges a header
 * (mock-payments.ts: its form, network and payload, no signature or chain), and a well-formed one gets
 * the operation's 200 example with a mock receipt (`simulated: true`, signed with the mock's key). The same payment
 * twice is answered twice. The free payment lookups answer from what the mock served over HTTP (mock-lookups.ts).
 * Both eras of MCP, as the service's endpoint serves them (streamable-endpoint.ts): on 2026-07-28,
 * `server/discover` advertises x402's extension `org.x402/payment`, and a call is worded in the client's binding by
 * the service's current-answers.ts (`payment_required` for a client advertising the extension, the tool result with
 * `resultType: "complete"` otherwise).
 */
import { randomUUID } from "node:crypto";
import { X402_EXTENSION } from "../lib/mcp-revision.js";
import { systemClock } from "../server/analytics/clock.js";
import { loadAnalyticsContract, type PaidRoute } from "../server/analytics/contract/analytics-contract.js";
import { type InputCheck, inputChecks } from "../server/analytics/paid/input-check.js";
import type { PaidOutcome } from "../server/analytics/paid/outcomes.js";
import { solanaAddressErrors } from "../server/analytics/segments/input-rules.js";
import { mcpAnswer, PAYMENT_META } from "../server/mcp/paid/answers.js";
import { paidTools } from "../server/mcp/paid/catalogue.js";
import { currentAnswer } from "../server/mcp/paid/current-answers.js";
import { submissionOf, toolOffers } from "../server/mcp/paid/offers.js";
import { withPaymentStatusTools } from "../server/mcp/payment-status-tools.js";
import type { ToolServer } from "../server/mcp/streamable-endpoint.js";
import type { MockLookups } from "./mock-lookups.js";
import { judgeSubmission, mockConfig } from "./mock-payments.js";

type Example = { content?: Record<string, { example?: unknown }> };

/** The mock's tools: the paid ones, and the payment lookups answering from `lookups` (what the mock served over HTTP). */
export function mockToolServer(lookups: MockLookups): ToolServer {
  const contract = loadAnalyticsContract();
  const config = mockConfig(contract);
  const checksOf = inputChecks(contract);
  // One check per route, compiled on its first call, as the service's pipelines hold theirs.
  const checks = new Map<PaidRoute, InputCheck>();
  const checkOf = (route: PaidRoute) =>
    checks.get(route) ?? (checks.set(route, checksOf(route)).get(route) as InputCheck);
  const tools = new Map(
    [...paidTools(contract, config)].map(([name, tool]) => [
      name,
      { tool, offers: toolOffers(tool, config, contract.document, systemClock) },
    ]),
  );

  /** What the mock comes to for a call, in the service's outcomes. */
  function outcomeOf(
    name: string,
    input: Record<string, unknown>,
    payment: unknown,
  ): [PaidOutcome, ReturnType<typeof toolOffers>, string] {
    const { offers } = tools.get(name) as { offers: ReturnType<typeof toolOffers> };
    const { route, offer, caip2 } = offers.routeFor(payment);
    const checked = checkOf(route)({ body: input, query: {}, path: {} });
    const errors = "errors" in checked ? checked.errors : solanaAddressErrors(route, checked.input);
    if (errors.length) return [{ kind: "invalid_input", errors }, offers, caip2];
    const submission = submissionOf(payment);
    if (submission.kind !== "payment") return [{ kind: "payment_required" }, offers, caip2];
    const judged = judgeSubmission(submission, offer, [`_meta["${PAYMENT_META}"]`]);
    if (judged.kind === "malformed") return [{ kind: "malformed_payment", detail: judged.message }, offers, caip2];
    if (judged.kind === "refused")
      return [{ kind: "refused", reason: judged.reason, detail: judged.message }, offers, caip2];
    if (judged.kind !== "paid") return [{ kind: "payment_required" }, offers, caip2];
    const operation = contract.document.paths[route.path]?.post as { responses: Record<string, Example> } | undefined;
    const ok = operation?.responses["200"];
    const answer = { status: 200, body: JSON.stringify(ok?.content?.["application/json"]?.example ?? {}) };
    const receipt = {
      success: true,
      transaction: `mock-settlement-${randomUUID()}`,
      network: judged.network as never,
      payer: judged.payer,
      simulated: true,
      amount: offer.v2.amount,
    };
    return [{ kind: "delivered", answer, receipt, replayed: false }, offers, caip2];
  }

  const paid: ToolServer = {
    name: "defi-intel-analytics-mock",
    version: contract.document.info.version,
    instructions:
      "The mock of the paid DeFi intelligence tools: the contract's examples, charged with mock settlement.",
    tools: [...tools.values()].map(({ tool }) => tool.definition) as ToolServer["tools"],
    extensions: { [X402_EXTENSION]: {} },
    async call({ name, arguments: args, meta, binding }) {
      if (!tools.has(name)) return undefined;
      const [outcome, offers, caip2] = outcomeOf(name, { ...args }, meta?.[PAYMENT_META]);
      const { challenge, price, signReceipt } = offers;
      const answered = { challenge, caip2, price, now: Date.now(), signReceipt };
      // On MCP 2026-07-28 the service's binding words it (current-answers.ts); a 2025-era call is answered as before.
      return binding ? (currentAnswer(outcome, answered, binding) as never) : mcpAnswer(outcome, answered);
    },
  };
  return withPaymentStatusTools(paid, contract.document, lookups.lookUp, "");
}
