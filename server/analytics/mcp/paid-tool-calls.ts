/**
 * A paid tool call, run by the same paid pipeline as an HTTP request (paid/pipeline.ts) and answered
 * as mcp-answers.ts says. The payment, a v2 `PaymentPayload` object in `params._meta["x402/payment"]`,
 * names in `accepted.network` the network it pays on: the call runs on the operation's route under that
 * network's prefix, so its verification, replay key, stages, stored answer and receipt are that route's.
 * A call without a payment (or paying a network the tool does not take) runs on the default route,
 * whose input check and offer are the same, and is answered the tool's `PaymentRequired`.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "pino";
import type { AnalyticsConfig } from "../../config/analytics.js";
import type { Clock } from "../clock.js";
import type { AnalyticsContract, PaidRoute } from "../contract/analytics-contract.js";
import type { InsightObserver, InsightWriter } from "../insight/types.js";
import type { InputCheck } from "../paid/input-check.js";
import { type AnsweredCall, mcpAnswer, mcpAnswerJson, PAYMENT_META } from "../paid/mcp-answers.js";
import type { PaidOutcome } from "../paid/outcomes.js";
import { type PaidPipeline, paidPipeline } from "../paid/pipeline.js";
import type { ResponseCheck } from "../paid/response-check.js";
import { mcpBazaarExtension } from "../payments/bazaar.js";
import type { PaymentGate } from "../payments/gate.js";
import type { Offer, SubmissionRead } from "../payments/protocols.js";
import { offerAt, routeOffer } from "../payments/requirements.js";
import type { PaymentRequiredV2 } from "../payments/types.js";
import type { HandlerMap, SegmentContext } from "../segments/types.js";
import { type PaidTool, paidTools, type ToolDefinition } from "./paid-tools.js";

export interface PaidToolDeps {
  contract: AnalyticsContract;
  config: AnalyticsConfig;
  handlers: HandlerMap;
  gate: PaymentGate;
  insight: InsightWriter;
  clock: Clock;
  logger: Logger;
  segment: SegmentContext;
  checkResponse: (route: PaidRoute) => ResponseCheck;
  checkInput: (route: PaidRoute) => InputCheck;
  insightObserver: InsightObserver;
}

export interface ToolCall {
  name: string;
  arguments: Record<string, unknown> | undefined;
  meta: Record<string, unknown> | undefined;
  requestId: string;
}

export interface PaidToolCalls {
  tools: ToolDefinition[];
  /** The call's result, or undefined for a tool of another name. */
  call(call: ToolCall): Promise<CallToolResult | undefined>;
  /** The same, as JSON text. */
  callJson(call: ToolCall): Promise<string | undefined>;
}

/** One network a tool can be paid on: its route's pipeline and offer. */
interface PayableRoute {
  caip2: string;
  pipeline: PaidPipeline;
  offer: Offer;
}

interface RunnableTool {
  routes: Map<string, PayableRoute>;
  fallback: PayableRoute;
  challenge(error: PaymentRequiredV2["error"]): PaymentRequiredV2;
  price: string;
}

/** `mcp://tool/<name>`: the resource a tool's payment pays for, as x402's MCP transport names it. */
export const toolResource = (name: string) => `mcp://tool/${name}`;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function runnable(tool: PaidTool, deps: PaidToolDeps): RunnableTool {
  const { definition } = tool;
  const resource = toolResource(definition.name);
  const routes = new Map<string, PayableRoute>();
  for (const [caip2, route] of tool.routes) {
    const pipeline = paidPipeline(route, deps.handlers[route.name], {
      ...{ gate: deps.gate, insight: deps.insight, clock: deps.clock, logger: deps.logger, segment: deps.segment },
      ...{ checkResponse: deps.checkResponse(route), checkInput: deps.checkInput(route), insightObserver: deps.insightObserver },
      answerTimeoutMs: deps.config.payments.answerTimeoutMs,
    });
    routes.set(caip2, { caip2, pipeline, offer: offerAt(routeOffer(route, deps.config, deps.contract.document), resource) });
  }
  const fallback = routes.values().next().value as PayableRoute;
  const base = {
    x402Version: 2 as const,
    resource: { url: resource, description: definition.title, mimeType: "application/json" },
    accepts: [...routes.values()].map((route) => route.offer.v2),
    extensions: { bazaar: mcpBazaarExtension(definition.name, definition.inputSchema) } as unknown as PaymentRequiredV2["extensions"],
  };
  return { routes, fallback, challenge: (error) => ({ ...base, error }), price: tool.price.amount };
}

/** The payment of a call as the pipeline reads one: the v2 object, or (as some clients send it) its base64 form. */
function submissionOf(payment: unknown): SubmissionRead {
  if (payment === undefined) return { kind: "none" };
  if (typeof payment === "string") return { kind: "payment", version: 2, header: payment };
  return { kind: "payment", version: 2, object: payment };
}

export function paidToolCalls(deps: PaidToolDeps): PaidToolCalls {
  const catalogue = paidTools(deps.contract, deps.config);
  const tools = new Map([...catalogue].map(([name, tool]) => [name, runnable(tool, deps)]));
  /** The call run by its route's pipeline: its outcome and what its answer depends on; undefined for an unknown tool. */
  async function run({ name, arguments: args, meta, requestId }: ToolCall): Promise<[PaidOutcome, AnsweredCall] | undefined> {
    const tool = tools.get(name);
    if (!tool) return undefined;
    const payment = meta?.[PAYMENT_META];
    const network = isRecord(payment) && isRecord(payment.accepted) ? payment.accepted.network : undefined;
    const route = (typeof network === "string" && tool.routes.get(network)) || tool.fallback;
    const outcome = await route.pipeline({
      input: { ...args },
      schemaChecked: false,
      offer: () => route.offer,
      payment: submissionOf(payment),
      requestId,
      transport: "mcp",
    });
    if (outcome.kind === "answer_failed") deps.logger.warn({ err: outcome.error, requestId, tool: name }, "tool call failed; not charged");
    return [outcome, { challenge: tool.challenge, caip2: route.caip2, price: tool.price, now: deps.clock.now() }];
  }

  return {
    tools: [...catalogue.values()].map((tool) => tool.definition),
    call: async (call) => {
      const ran = await run(call);
      return ran && mcpAnswer(...ran);
    },
    callJson: async (call) => {
      const ran = await run(call);
      return ran && mcpAnswerJson(...ran);
    },
  };
}
