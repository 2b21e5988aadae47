/**
 * The mock's MCP tools (`npm run mock` serves them at `/mcp`): the service's own tools, offers and
 * tool results (server/mcp/paid/: catalogue.ts, offers.ts, answers.ts), each call judged as the mock judges one
 * (mock-calls.ts, shared with the A2A skills): arguments checked as the service checks them; without a payment, the
 * tool's `PaymentRequired`; a well-formed payment (its form, network and payload, no signature or chain), the
 * operation's 200 example with a mock receipt (`simulated: true`, signed with the mock's key). The same payment
 * twice is answered twice. The free payment lookups answer from what the mock served over HTTP (mock-lookups.ts).
 * Both eras of MCP, as the service's endpoint serves them (streamable-endpoint.ts): on 2026-07-28,
 * `server/discover` advertises x402's extension `org.x402/payment`, and a call is worded in the client's binding by
 * the service's current-answers.ts (`payment_required` for a client advertising the extension, the tool result with
 * `resultType: "complete"` otherwise).
 */
import { X402_EXTENSION } from "../lib/mcp-revision.js";
import { mcpAnswer, PAYMENT_META } from "../server/mcp/paid/answers.js";
import { currentAnswer } from "../server/mcp/paid/current-answers.js";
import { withPaymentStatusTools } from "../server/mcp/payment-status-tools.js";
import type { ToolServer } from "../server/mcp/streamable-endpoint.js";
import type { MockCalls } from "./mock-calls.js";
import type { MockLookups } from "./mock-lookups.js";

/**
 * The mock's tools: the paid ones, judged by `calls` (mock-calls.ts), and the payment lookups answering from `lookups`
 * (what the mock served over HTTP).
 */
export function mockToolServer(calls: MockCalls, lookups: MockLookups): ToolServer {
  const { contract } = calls;
  const tools = calls.tools();

  const paid: ToolServer = {
    name: "defi-intel-analytics-mock",
    version: contract.document.info.version,
    instructions:
      "The mock of the paid DeFi intelligence tools: the contract's examples, charged with mock settlement.",
    tools: [...tools.values()].map(({ tool }) => tool.definition) as ToolServer["tools"],
    extensions: { [X402_EXTENSION]: {} },
    async call({ name, arguments: args, meta, binding }) {
      const tool = tools.get(name);
      if (!tool) return undefined;
      const call = { arguments: args, payment: meta?.[PAYMENT_META] };
      const [outcome, { caip2 }] = calls.outcome(tool, call, `_meta["${PAYMENT_META}"]`);
      const { challenge, price, signReceipt } = tool;
      const answered = { challenge, caip2, price, now: Date.now(), signReceipt };
      // On MCP 2026-07-28 the service's binding words it (current-answers.ts); a 2025-era call is answered as before.
      return binding ? (currentAnswer(outcome, answered, binding) as never) : mcpAnswer(outcome, answered);
    },
  };
  return withPaymentStatusTools(paid, contract.document, lookups.lookUp, "");
}
