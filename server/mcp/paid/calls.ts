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
import type { Clock } from "../../analytics/clock.js";
import type { AnalyticsContract, PaidRoute } from "../../analytics/contract/analytics-contract.js";
import type { InsightObserver, InsightWriter } from "../../analytics/insight/types.js";
import type { InputCheck } from "../../analytics/paid/input-check.js";
import type { PaidOutcome } from "../../analytics/paid/outcomes.js";
import { type PaidPipeline, paidPipeline } from "../../analytics/paid/pipeline.js";
import type { ResponseCheck } from "../../analytics/paid/response-check.js";
import type { PaymentGate } from "../../analytics/payments/gate/gate.js";
import type { HandlerMap, SegmentContext } from "../../analytics/segments/types.js";
import type { AnalyticsConfig } from "../../config/analytics.js";
import { type AnsweredCall, mcpAnswer, mcpAnswerJson, PAYMENT_META } from "./answers.js";
import { type PaidTool, paidTools, type ToolDefinition } from "./catalogue.js";
import { submissionOf, type ToolOffers, toolOffers } from "./offers.js";

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

/** A tool's offers, and each of its routes' pipeline by CAIP-2 id. */
interface RunnableTool extends ToolOffers {
  pipelines: Map<string, PaidPipeline>;
}

function runnable(tool: PaidTool, deps: PaidToolDeps): RunnableTool {
  const offers = toolOffers(tool, deps.config, deps.contract.document);
  const pipelines = new Map<string, PaidPipeline>();
  for (const { caip2, route } of offers.routes.values())
    pipelines.set(
      caip2,
      paidPipeline(route, deps.handlers[route.name], {
        gate: deps.gate,
        insight: deps.insight,
        clock: deps.clock,
        logger: deps.logger,
        segment: deps.segment,
        checkResponse: deps.checkResponse(route),
        checkInput: deps.checkInput(route),
        insightObserver: deps.insightObserver,
        answerTimeoutMs: deps.config.payments.answerTimeoutMs,
      }),
    );
  return { ...offers, pipelines };
}

export function paidToolCalls(deps: PaidToolDeps): PaidToolCalls {
  const catalogue = paidTools(deps.contract, deps.config);
  const tools = new Map([...catalogue].map(([name, tool]) => [name, runnable(tool, deps)]));
  /** The call run by its route's pipeline: its outcome and what its answer depends on; undefined for an unknown tool. */
  async function run({
    name,
    arguments: args,
    meta,
    requestId,
  }: ToolCall): Promise<[PaidOutcome, AnsweredCall] | undefined> {
    const tool = tools.get(name);
    if (!tool) return undefined;
    const payment = meta?.[PAYMENT_META];
    const route = tool.routeFor(payment);
    const pipeline = tool.pipelines.get(route.caip2) as PaidPipeline;
    const outcome = await pipeline({
      input: { ...args },
      schemaChecked: false,
      offer: () => route.offer,
      payment: submissionOf(payment),
      requestId,
      transport: "mcp",
    });
    if (outcome.kind === "answer_failed")
      deps.logger.warn({ err: outcome.error, requestId, tool: name }, "tool call failed; not charged");
    const { challenge, price, signReceipt } = tool;
    return [outcome, { challenge, caip2: route.caip2, price, now: deps.clock.now(), signReceipt }];
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
