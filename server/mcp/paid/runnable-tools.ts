/**
 * The paid operations as runnable tools, for every agent transport that sells them by name (MCP's tools, A2A's
 * skills): each tool's offers (offers.ts) at the transport's resource, and each of its routes' paid pipeline. A call's
 * payment names in `accepted.network` the network it pays on: the call runs on the operation's route under that
 * network's prefix, so its verification, replay key, stages, stored answer and receipt are that route's. A call
 * without a payment (or paying a network the tool does not take) runs on the default route, whose input check and
 * offer are the same, and is answered the tool's `PaymentRequired`.
 */
import type { Logger } from "pino";
import type { Clock } from "../../analytics/clock.js";
import type { AnalyticsContract, PaidRoute } from "../../analytics/contract/analytics-contract.js";
import type { InsightObserver, InsightWriter } from "../../analytics/insight/types.js";
import type { InputCheck } from "../../analytics/paid/input-check.js";
import type { PaidOutcome } from "../../analytics/paid/outcomes.js";
import { type PaidPipeline, paidPipeline } from "../../analytics/paid/pipeline.js";
import type { ResponseCheck } from "../../analytics/paid/response-check.js";
import type { PaymentGate } from "../../analytics/payments/gate/gate.js";
import type { Transport } from "../../analytics/payments/ledger/store.js";
import type { HandlerMap, SegmentContext } from "../../analytics/segments/types.js";
import type { AnalyticsConfig } from "../../config/analytics.js";
import { type PaidTool, paidTools } from "./catalogue.js";
import { type OfferedRoute, submissionOf, type ToolOffers, toolOffers, toolResource } from "./offers.js";

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

/** A tool's offers, and each of its routes' pipeline by CAIP-2 id. */
export interface RunnableTool extends ToolOffers {
  tool: PaidTool;
  pipelines: Map<string, PaidPipeline>;
}

/** One call of a tool, as a transport read it. */
export interface ToolRun {
  arguments?: Record<string, unknown>;
  /** The payment as the transport carries it (the v2 `PaymentPayload` object, or its base64 form), if any. */
  payment: unknown;
  requestId: string;
}

function runnable(tool: PaidTool, deps: PaidToolDeps, resource: (name: string) => string): RunnableTool {
  const offers = toolOffers(tool, deps.config, deps.contract.document, deps.clock, resource);
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
  return { ...offers, tool, pipelines };
}

/** Every paid tool, runnable, by name; `resource` names what a tool's payment pays for on this transport. */
export function runnableTools(
  deps: PaidToolDeps,
  resource: (name: string) => string = toolResource,
): Map<string, RunnableTool> {
  const catalogue = paidTools(deps.contract, deps.config);
  return new Map([...catalogue].map(([name, tool]) => [name, runnable(tool, deps, resource)]));
}

/** A call run by the pipeline of the route its payment pays on; the route is returned beside the outcome. */
export async function runTool(
  tool: RunnableTool,
  run: ToolRun,
  transport: Transport,
): Promise<[PaidOutcome, OfferedRoute]> {
  const route = tool.routeFor(run.payment);
  const pipeline = tool.pipelines.get(route.caip2) as PaidPipeline;
  const outcome = await pipeline({
    input: { body: { ...run.arguments }, query: {}, path: {} },
    offer: () => route.offer,
    payment: submissionOf(run.payment),
    requestId: run.requestId,
    transport,
  });
  return [outcome, route];
}
