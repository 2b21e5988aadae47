/**
 * The paid operations as MCP tools, built from the contract at start-up (never a second list to keep
 * in step): one tool per operation, named by it, taking its POST body as arguments and answering its
 * envelope; payable on every network the service settles on, each network being the operation's
 * route under that network's prefix. Schemas are self-contained and without prose (plain-schema.ts):
 * `tools/list` is read into a model's context, and every byte of it is paid for there.
 */

import type { AnalyticsContract, OpenApiDocument, PaidRoute } from "../../analytics/contract/analytics-contract.js";
import { networkOf } from "../../analytics/payments/x402/requirements.js";
import type { AnalyticsConfig } from "../../config/analytics.js";
import { plainSchema, shapeOf } from "../../schemas/plain-schema.js";

/** `_meta` key of a tool's price, machine-readable (the description says it for a model). */
export const PRICE_META = "x402/price";

/** A tool's price, paid in USDC; the networks, assets and recipients are in the requirements an unpaid call returns. */
export interface ToolPrice {
  /** USD per call, as the contract's `x-payment-info` gives it. */
  amount: string;
  currency: "USD";
}

/** A tool as `tools/list` describes it. */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema: Record<string, unknown>;
  annotations: { readOnlyHint: true; openWorldHint: true };
  _meta?: Record<string, unknown>;
}

export interface PaidTool {
  definition: ToolDefinition;
  price: ToolPrice;
  /** The operation's POST route on each network it can be paid on, by CAIP-2 id; the first is the default. */
  routes: Map<string, PaidRoute>;
}

type Operation = {
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
};

function operationOf(document: OpenApiDocument, route: PaidRoute): Operation {
  const operation = document.paths[route.path]?.post as Operation | undefined;
  if (!operation) throw new Error(`the contract has no POST ${route.path}`);
  return operation;
}

/**
 * What a call's `structuredContent` holds: the envelope, as its shape (plain-schema.ts), or, in an
 * error result, the x402 `PaymentRequired` or an error body. MCP asks every structured result to match
 * the schema, and the SDK's clients check error results too. The 200's envelope admits the 206's as
 * well (`insight` and `model_used` may be null there), so one schema serves both.
 */
function outputSchema(document: OpenApiDocument, operation: Operation): Record<string, unknown> {
  const schema = operation.responses["200"]?.content?.["application/json"]?.schema;
  const { type: _object, ...envelope } = schema
    ? (shapeOf(plainSchema(document, schema)) as Record<string, unknown>)
    : {};
  return { type: "object", anyOf: [envelope, { required: ["x402Version"] }, { required: ["error"] }] };
}

function describe(route: PaidRoute, price: ToolPrice, networkTitles: string[]): string {
  return [
    `${route.summary}. Signal: ${route.signals.join("|")}.`,
    `${price.amount} USD per call (USDC on ${networkTitles.join(", ")}, x402).`,
  ].join(" ");
}

function toolOf(routes: PaidRoute[], contract: AnalyticsContract, config: AnalyticsConfig): PaidTool {
  const [first] = routes as [PaidRoute, ...PaidRoute[]];
  const { document } = contract;
  const operation = operationOf(document, first);
  const body = operation.requestBody?.content["application/json"]?.schema;
  const networks = routes.map((route) => networkOf(route, config));
  const price: ToolPrice = { amount: first.payment.price.amount, currency: "USD" };
  return {
    definition: {
      name: first.name,
      title: first.summary,
      description: describe(first, price, [...new Set(routes.map((route) => route.payment.network.title))]),
      inputSchema: body ? plainSchema(document, body) : { type: "object", additionalProperties: false },
      outputSchema: outputSchema(document, operation),
      // Read-only: `destructiveHint` has no meaning beside it.
      annotations: { readOnlyHint: true, openWorldHint: true },
      _meta: { [PRICE_META]: price },
    },
    price,
    routes: new Map(routes.map((route, i) => [networks[i]?.caip2 as string, route])),
  };
}

/** Every paid operation as a tool, in the contract's order; the default network is the root prefix's (Solana). */
export function paidTools(contract: AnalyticsContract, config: AnalyticsConfig): Map<string, PaidTool> {
  const byOperation = new Map<string, PaidRoute[]>();
  for (const route of contract.paid) {
    if (route.method !== "post") continue;
    const routes = byOperation.get(route.name) ?? [];
    byOperation.set(route.name, [...routes, route]);
  }
  const rootFirst = (a: PaidRoute, b: PaidRoute) => a.payment.network.prefix.length - b.payment.network.prefix.length;
  return new Map([...byOperation].map(([name, routes]) => [name, toolOf(routes.sort(rootFirst), contract, config)]));
}
