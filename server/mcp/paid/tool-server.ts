/**
 * The analytics service's MCP server: its paid tools (calls.ts) and what an agent is told of
 * paying for them.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ToolServer } from "../streamable-endpoint.js";
import { PAYMENT_META, PAYMENT_RESPONSE_META } from "./answers.js";
import { type PaidToolDeps, paidToolCalls } from "./calls.js";

const INSTRUCTIONS = [
  "DeFi intelligence: each tool answers {data, insight, signal, confidence, sources, model_used, latency_ms, timestamp}.",
  "Every tool is paid per call in USDC with x402 v2. Call it without payment: the result (isError) carries the x402 PaymentRequired,",
  "one requirement per network (Solana, Base, SKALE). Sign one and call again with the same arguments and the PaymentPayload object",
  `in params._meta["${PAYMENT_META}"]; the answer carries its settlement in result._meta["${PAYMENT_RESPONSE_META}"].`,
  "The same payment with the same arguments returns the same answer again, never charged twice; invalid arguments are refused before any payment.",
].join(" ");

export function paidToolServer(deps: PaidToolDeps): ToolServer {
  const calls = paidToolCalls(deps);
  return {
    name: "defi-intel-analytics",
    version: deps.contract.document.info.version,
    instructions: INSTRUCTIONS,
    tools: calls.tools as Tool[],
    call: ({ name, arguments: args, meta, requestId }) => calls.call({ name, arguments: args, meta, requestId }),
    callJson: ({ name, arguments: args, meta, requestId }) =>
      calls.callJson({ name, arguments: args, meta, requestId }),
  };
}
