/**
 * The analytics service's MCP server: its paid tools, what an agent is told of paying for them, and a
 * call run by the same paid pipeline as an HTTP request (runnable-tools.ts), answered as answers.ts says.
 * The payment is a v2 `PaymentPayload` object in `params._meta["x402/payment"]`.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { PaidOutcome } from "../../analytics/paid/outcomes.js";
import { X402_EXTENSION } from "../current-revision.js";
import type { ToolCallRequest, ToolServer } from "../streamable-endpoint.js";
import { type AnsweredCall, mcpAnswer, mcpAnswerJson, PAYMENT_META, PAYMENT_RESPONSE_META } from "./answers.js";
import { currentAnswer, currentAnswerJson } from "./current-answers.js";
import { type PaidToolDeps, runnableTools, runTool } from "./runnable-tools.js";

export type { PaidToolDeps } from "./runnable-tools.js";

const INSTRUCTIONS = [
  "DeFi intelligence: each tool answers {data, insight, signal, confidence, sources, model_used, latency_ms, timestamp}.",
  "Every tool is paid per call in USDC with x402 v2. Call it without payment: the result (isError) carries the x402 PaymentRequired,",
  "one requirement per network (Solana, Base, SKALE). Sign one and call again with the same arguments and the PaymentPayload object",
  `in params._meta["${PAYMENT_META}"]; the answer carries its settlement in result._meta["${PAYMENT_RESPONSE_META}"].`,
  "The same payment with the same arguments returns the same answer again, never charged twice; invalid arguments are refused before any payment.",
  `On MCP 2026-07-28, a client advertising the ${X402_EXTENSION} extension is told the price as resultType "payment_required" with result.paymentRequired instead.`,
].join(" ");

/** The paid tools as an MCP server: `tools/list`'s catalogue and each call's result. */
export function paidToolServer(deps: PaidToolDeps): ToolServer {
  const tools = runnableTools(deps);
  /** The call run by its route's pipeline: its outcome and what its answer depends on; undefined for an unknown tool. */
  async function run(call: ToolCallRequest): Promise<[PaidOutcome, AnsweredCall] | undefined> {
    const tool = tools.get(call.name);
    if (!tool) return undefined;
    const payment = call.meta?.[PAYMENT_META];
    const [outcome, route] = await runTool(
      tool,
      { arguments: call.arguments, payment, requestId: call.requestId },
      "mcp",
    );
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
    tools: [...tools.values()].map(({ tool }) => tool.definition) as Tool[],
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
