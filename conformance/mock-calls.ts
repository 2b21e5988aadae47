/**
 * The mock's one judgement of a paid tool call, whichever agent transport brought it (its MCP tools, mock-tools.ts;
 * its A2A skills, mock-skills.ts): the service's own tools and offers (server/mcp/paid/: catalogue.ts, offers.ts) at
 * the transport's resource, and a call's outcome in the service's terms (paid/outcomes.ts), for the transport's own
 * answers to word. The arguments are checked as the service checks them (the contract's schemas, then the Solana
 * addresses' rule), before any payment is read; no payment is `payment_required`; a payment is judged as the mock
 * judges a header (mock-payments.ts: its form, network and payload, no signature or chain), and a well-formed one is
 * `delivered` with the operation's 200 example and a mock settlement (`simulated: true`; the transports sign its
 * receipt with the mock's key, as the service's do). Nothing is remembered: the same payment twice is judged twice.
 */
import { randomUUID } from "node:crypto";
import { systemClock } from "../server/analytics/clock.js";
import {
  type AnalyticsContract,
  loadAnalyticsContract,
  type PaidRoute,
} from "../server/analytics/contract/analytics-contract.js";
import { type InputCheck, inputChecks } from "../server/analytics/paid/input-check.js";
import type { PaidOutcome } from "../server/analytics/paid/outcomes.js";
import { solanaAddressErrors } from "../server/analytics/segments/input-rules.js";
import type { AnalyticsConfig } from "../server/config/analytics.js";
import { type PaidTool, paidTools } from "../server/mcp/paid/catalogue.js";
import { type OfferedRoute, submissionOf, type ToolOffers, toolOffers } from "../server/mcp/paid/offers.js";
import { judgeSubmission, mockConfig } from "./mock-payments.js";

/** A paid tool and its offers at one transport's resource. */
export interface MockTool extends ToolOffers {
  tool: PaidTool;
}

/** One call of a tool: its arguments, and its payment as the transport carries it (none: undefined). */
export interface MockCall {
  arguments?: Record<string, unknown>;
  payment: unknown;
}

export interface MockCalls {
  contract: AnalyticsContract;
  config: AnalyticsConfig;
  /** Every paid tool, its offers at `resource(name)` (default: MCP's `mcp://tool/<name>`). */
  tools(resource?: (name: string) => string): Map<string, MockTool>;
  /** What the mock comes to for a call; `where` names the field that carries a payment, for a malformed one's error. */
  outcome(tool: ToolOffers, call: MockCall, where: string): [PaidOutcome, OfferedRoute];
}

type Example = { content?: Record<string, { example?: unknown }> };

export function mockCalls(contract = loadAnalyticsContract(), config = mockConfig(contract)): MockCalls {
  const checksOf = inputChecks(contract);
  // One check per route, compiled on its first call, as the service's pipelines hold theirs.
  const checks = new Map<PaidRoute, InputCheck>();
  const checkOf = (route: PaidRoute) =>
    checks.get(route) ?? (checks.set(route, checksOf(route)).get(route) as InputCheck);

  /** The route's 200 example, as the service's stored answer of a delivered call. */
  const example = (route: PaidRoute) => {
    const operation = contract.document.paths[route.path]?.post as { responses: Record<string, Example> } | undefined;
    return {
      status: 200,
      body: JSON.stringify(operation?.responses["200"]?.content?.["application/json"]?.example ?? {}),
    };
  };

  function judge(routed: OfferedRoute, input: Record<string, unknown>, payment: unknown, where: string): PaidOutcome {
    const { route, offer } = routed;
    const checked = checkOf(route)({ body: input, query: {}, path: {} });
    const errors = "errors" in checked ? checked.errors : solanaAddressErrors(route, checked.input);
    if (errors.length) return { kind: "invalid_input", errors };
    const submission = submissionOf(payment);
    if (submission.kind !== "payment") return { kind: "payment_required" };
    const judged = judgeSubmission(submission, offer, [where]);
    if (judged.kind === "malformed") return { kind: "malformed_payment", detail: judged.message };
    if (judged.kind === "refused") return { kind: "refused", reason: judged.reason, detail: judged.message };
    if (judged.kind !== "paid") return { kind: "payment_required" };
    const receipt = {
      success: true,
      transaction: `mock-settlement-${randomUUID()}`,
      network: judged.network as never,
      payer: judged.payer,
      simulated: true,
      amount: offer.v2.amount,
    };
    return { kind: "delivered", answer: example(route), receipt, replayed: false };
  }

  return {
    contract,
    config,
    tools: (resource) =>
      new Map(
        [...paidTools(contract, config)].map(([name, tool]) => [
          name,
          { tool, ...toolOffers(tool, config, contract.document, systemClock, resource) },
        ]),
      ),
    outcome(tool, call, where) {
      const routed = tool.routeFor(call.payment);
      return [judge(routed, { ...call.arguments }, call.payment, where), routed];
    },
  };
}
