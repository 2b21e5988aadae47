/**
 * The analytics service's MCP server: its paid tools, what an agent is told of paying for them, and a
 * call run by the same paid pipeline as an HTTP request (paid/pipeline.ts), answered as answers.ts says.
 * The payment, a v2 `PaymentPayload` object in `params._meta["x402/payment"]`, names in
 * `accepted.network` the network it pays on: the call runs on the operation's route under that
 * network's prefix, so its verification, replay key, stages, stored answer and receipt are that route's.
 * A call without a payment (or paying a network the tool does not take) runs on the default route,
 * whose input check and offer are the same, and is answered the tool's `PaymentRequired`.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
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
import { X402_EXTENSION } from "../current-revision.js";
import type { ToolCallRequest, ToolServer } from "../streamable-endpoint.js";
import { type AnsweredCall, mcpAnswer, mcpAnswerJson, PAYMENT_META, PAYMENT_RESPONSE_META } from "./answers.js";
import { type PaidTool, paidTools } from "./catalogue.js";
import { currentAnswer, currentAnswerJson } from "./current-answers.js";
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

const INSTRUCTIONS = [
  "DeFi intelligence: each tool answers {data, insight, signal, confidence, sources, model_used, latency_ms, timestamp}.",
  "Every tool is paid per call in USDC with x402 v2. Call it without payment: the result (isError) carries the x402 PaymentRequired,",
  "one requirement per network (Solana, Base, SKALE). Sign one and call again with the same arguments and the PaymentPayload object",
  `in params._meta["${PAYMENT_META}"]; the answer carries its settlement in result._meta["${PAYMENT_RESPONSE_META}"].`,
  "The same payment with the same arguments returns the same answer again, never charged twice; invalid arguments are refused before any payment.",
  `On MCP 2026-07-28, a client advertising the ${X402_EXTENSION} extension is told the price as resultType "payment_required" with result.paymentRequired instead.`,
].join(" ");

/** A tool's offers, and each of its routes' pipeline by CAIP-2 id. */
interface RunnableTool extends ToolOffers {
  pipelines: Map<string, PaidPipeline>;
}

function runnable(tool: PaidTool, deps: PaidToolDeps): RunnableTool {
  const offers = toolOffers(tool, deps.config, deps.contract.document, deps.clock);
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

/** The paid tools as an MCP server: `tools/list`'s catalogue and each call's result. */
export function paidToolServer(deps: PaidToolDeps): ToolServer {
  const catalogue = paidTools(deps.contract, deps.config);
  const tools = new Map([...catalogue].map(([name, tool]) => [name, runnable(tool, deps)]));
  /** The call run by its route's pipeline: its outcome and what its answer depends on; undefined for an unknown tool. */
  async function run(call: ToolCallRequest): Promise<[PaidOutcome, AnsweredCall] | undefined> {
    const tool = tools.get(call.name);
    if (!tool) return undefined;
    const payment = call.meta?.[PAYMENT_META];
    const route = tool.routeFor(payment);
    const pipeline = tool.pipelines.get(route.caip2) as PaidPipeline;
    const outcome = await pipeline({
      input: { body: { ...call.arguments }, query: {}, path: {} },
      offer: () => route.offer,
      payment: submissionOf(payment),
      requestId: call.requestId,
      transport: "mcp",
    });
    if (outcome.kind === "answer_failed")
      deps.logger.warn(
        { err: outcome.error, requestId: call.requestId, tool: call.name },
        "tool call failed; not charged",
      );
    const { challenge, price, signReceipt } = tool;
    return [outcome, { challenge, caip2: route.caip2, price, now: deps.clock.now(), signReceipt }];
  }

  return {
    name: "defi-intel-analytics",
    version: deps.contract.document.info.version,
    instructions: INSTRUCTIONS,
    tools: [...catalogue.values()].map((tool) => tool.definition) as Tool[],
    extensions: { [X402_EXTENSION]: {} },
    call: async (call) => {
      const ran = await run(call);
      return ran && (call.binding ? (currentAnswer(...ran, call.binding) as never) : mcpAnswer(...ran));
    },
    callJson: async (call) => {
      const ran = await run(call);
      return ran && (call.binding ? currentAnswerJson(...ran, call.binding) : mcpAnswerJson(...ran));
    },
  };
}
