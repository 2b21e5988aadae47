/**
 * The payment lookups as free MCP tools, beside the paid ones: `paymentStatus` (by the purchase's x402
 * `payment-identifier`) and `paymentStatusByTransaction`, each taking the `network` (prefix name) the
 * payment was made on. They answer what the HTTP lookups answer (analytics/free/payment-status.ts):
 * the status as structured content, or a tool error with the contract's error body (`not_found`,
 * `invalid_request`). Never charged: they take no payment and run no paid pipeline.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { OpenApiDocument } from "../analytics/contract/analytics-contract.js";
import type { LookUpPayment } from "../analytics/free/payment-status.js";
import type { PaymentQuery } from "../analytics/payments/ledger/store.js";
import { toErrorResponse } from "../http/errors.js";
import type { ToolCallRequest, ToolServer } from "./streamable-endpoint.js";

/** The tools' names: the operations' names without their prefix, as the paid tools are named. */
export const PAYMENT_STATUS_TOOLS = ["paymentStatus", "paymentStatusByTransaction"] as const;
type ToolName = (typeof PAYMENT_STATUS_TOOLS)[number];

const PREFIXES = ["solana", "base", "skale"] as const;
const text = (value: string) => ({ type: "text" as const, text: value });

/** Each tool's key argument and the contract's schema it follows. */
const KEYS: Record<ToolName, { argument: "id" | "transaction"; schema: string; summary: string }> = {
  paymentStatus: {
    argument: "id",
    schema: "PaymentIdentifier",
    summary: "What became of a purchase, by its x402 payment-identifier",
  },
  paymentStatusByTransaction: {
    argument: "transaction",
    schema: "SettlementTransaction",
    summary: "What became of a payment, by its settlement's transaction",
  },
};

/** A lookup tool: small, for the context budget (docs/mcp.md): no `outputSchema`, the status is the contract's `PaymentStatus`. */
function definition(name: ToolName, document: OpenApiDocument): Tool {
  const { argument, schema, summary } = KEYS[name];
  const schemas = (document.components as { schemas?: Record<string, { pattern?: string }> } | undefined)?.schemas;
  const pattern = schemas?.[schema]?.pattern;
  return {
    name,
    title: summary,
    description: `${summary}: settled${argument === "id" ? " (with the receipt)" : ""}, pending (ask again after retry_after s; do not pay again) or not_charged (with the reason). Free.`,
    inputSchema: {
      type: "object",
      properties: {
        network: { type: "string", enum: [...PREFIXES] },
        [argument]: { type: "string", ...(pattern && { pattern }) },
      },
      required: ["network", argument],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  };
}

const failure = (error: "invalid_request" | "not_found", message: string): CallToolResult => ({
  isError: true,
  structuredContent: { error, message },
  content: [text(message)],
});

async function call(tool: Tool, lookUp: LookUpPayment, origin: string, args: Record<string, unknown>) {
  const { argument } = KEYS[tool.name as ToolName];
  const network = args.network;
  const value = args[argument];
  const pattern = (tool.inputSchema.properties?.[argument] as { pattern?: string } | undefined)?.pattern;
  if (!PREFIXES.includes(network as never))
    return failure("invalid_request", `network: must be one of ${PREFIXES.join(", ")}`);
  if (typeof value !== "string" || (pattern && !new RegExp(pattern).test(value)))
    return failure("invalid_request", `${argument}: must be a string matching ${pattern}`);
  const extra = Object.keys(args).filter((name) => name !== "network" && name !== argument);
  if (extra.length) return failure("invalid_request", `${extra.join(", ")}: is not an argument of ${tool.name}`);
  const query: PaymentQuery = argument === "id" ? { identifier: value } : { transaction: value };
  let result: Awaited<ReturnType<LookUpPayment>>;
  try {
    result = await lookUp(network as (typeof PREFIXES)[number], query, origin);
  } catch (error) {
    // the ledger out of reach: the contract's error body (503 service_unavailable over HTTP), as a tool error
    const { body } = toErrorResponse(error);
    return { isError: true, structuredContent: { ...body }, content: [text(body.message)] };
  }
  if (!result.found) return failure("not_found", result.message);
  return { structuredContent: { ...result.body }, content: [text(JSON.stringify(result.body))] };
}

/**
 * `server` with the payment lookups added to its tools. `origin` is the service's public origin, which
 * the receipt of a purchase made over HTTP names (an MCP call has none of its own).
 */
export function withPaymentStatusTools(
  server: ToolServer,
  document: OpenApiDocument,
  lookUp: LookUpPayment,
  origin: string,
): ToolServer {
  const tools = new Map(PAYMENT_STATUS_TOOLS.map((name) => [name as string, definition(name, document)]));
  const answer = async (request: ToolCallRequest) => {
    const tool = tools.get(request.name);
    return tool && call(tool, lookUp, origin, request.arguments ?? {});
  };
  return {
    ...server,
    instructions: `${server.instructions} Two free tools, paymentStatus and paymentStatusByTransaction, tell what became of a payment (settled, pending, not_charged) without paying again.`,
    tools: [...server.tools, ...tools.values()],
    call: async (request) => (await answer(request)) ?? server.call(request),
    ...(server.callJson && {
      callJson: async (request: ToolCallRequest) => {
        const answered = await answer(request);
        return answered ? JSON.stringify(answered) : server.callJson?.(request);
      },
    }),
  };
}
