/**
 * A paying MCP bridge, for hosts that speak MCP but do not pay x402: an MCP server (on any transport;
 * `npm run mcp` puts it on stdio) with the paid service's tools, which forwards each call to the
 * service's `/mcp` and, when the answer is x402's `PaymentRequired`, pays it from its payer on its one
 * network, under a per-call and a total cap, and calls again with the payment in `_meta["x402/payment"]`.
 * A price above a cap, an asset that is not the network's USDC, or a person's refusal (`confirm`, by
 * MCP elicitation where the host supports it) is a tool error, with nothing signed.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { formatUsdc, microAmount } from "./amounts.js";
import { NETWORKS, type NetworkChoice, sameAddress } from "./networks.js";
import type { Payer } from "./payers.js";
import { type PaymentRequiredV2, type PaymentRequirementsV2, termsOf } from "./x402/types.js";

export const PAYMENT_META = "x402/payment";
export const PAYMENT_RESPONSE_META = "x402/payment-response";

export interface BridgeOptions {
  /** Connected to the service's `/mcp`. */
  upstream: Client;
  network: NetworkChoice;
  payer: Payer;
  /** Micro-USDC. */
  maxPerCall: bigint;
  /** Micro-USDC over the bridge's life. */
  maxTotal: bigint;
  /** Ask the person before each payment (MCP elicitation); a host that cannot ask gets a tool error instead. */
  confirm: boolean;
}

export interface PayingBridge {
  /** Micro-USDC settled so far (and payments whose outcome is unknown). */
  spent(): bigint;
  /** The tools the service lists, as this bridge serves them. */
  tools(): Promise<Tool[]>;
  /** A tool call, paid if the service asks for payment. */
  call(name: string, args: Record<string, unknown> | undefined, ask?: Asker): Promise<CallToolResult>;
}

/** Asks the person whether to pay; undefined when the host cannot ask. */
export type Asker = (message: string) => Promise<boolean | undefined>;

const text = (value: string) => ({ type: "text" as const, text: value });
const refusal = (message: string): CallToolResult => ({ isError: true, content: [text(message)] });

function isPaymentRequired(value: unknown): value is PaymentRequiredV2 {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { x402Version?: unknown }).x402Version === 2 &&
    Array.isArray((value as { accepts?: unknown }).accepts)
  );
}

/** The requirement of the bridge's network, paying its USDC, or why none can be paid. */
function chooseRequirement(required: PaymentRequiredV2, network: NetworkChoice): PaymentRequirementsV2 | string {
  const info = NETWORKS[network];
  const offered = required.accepts.find((r) => info.caip2.includes(r.network));
  if (!offered)
    return `the tool is not offered on ${network} (offered: ${required.accepts.map((r) => r.network).join(", ")})`;
  if (!info.assets.some((asset) => sameAddress(info.family, asset, offered.asset)))
    return `the asset ${offered.asset} is not ${network}'s USDC; nothing was signed`;
  return offered;
}

export function payingBridge(options: BridgeOptions): PayingBridge {
  let spent = 0n;
  const { upstream, network, payer } = options;

  async function pay(
    name: string,
    args: Record<string, unknown> | undefined,
    required: PaymentRequiredV2,
    ask?: Asker,
  ) {
    const requirement = chooseRequirement(required, network);
    if (typeof requirement === "string") return refusal(`Not paid: ${requirement}.`);
    const amount = microAmount(requirement.amount);
    const price = `${formatUsdc(amount)} USDC`;
    if (amount > options.maxPerCall)
      return refusal(
        `Not paid: ${name} costs ${price}, above the per-call cap of ${formatUsdc(options.maxPerCall)} USDC (--max-per-call).`,
      );
    if (spent + amount > options.maxTotal)
      return refusal(
        `Not paid: ${name} costs ${price}, and ${formatUsdc(spent)} USDC of the total cap of ${formatUsdc(options.maxTotal)} USDC (--max-total) is spent.`,
      );
    if (options.confirm) {
      const approved = await ask?.(`Pay ${price} on ${network} for ${name} with ${JSON.stringify(args ?? {})}?`);
      if (approved === undefined)
        return refusal("Not paid: --confirm asks before each payment, and this host cannot ask (no elicitation).");
      if (!approved) return refusal(`Not paid: the payment of ${price} for ${name} was declined.`);
    }
    const payload = await payer.sign(termsOf(requirement));
    const payment = {
      x402Version: 2,
      resource: required.resource,
      accepted: requirement,
      payload,
      ...(required.extensions && { extensions: required.extensions }),
    };
    const result = (await upstream.callTool({
      name,
      arguments: args,
      _meta: { [PAYMENT_META]: payment },
    })) as CallToolResult;
    const receipt = result._meta?.[PAYMENT_RESPONSE_META] as { success?: boolean } | undefined;
    // A settled answer, or a payment still in progress (its settlement may yet land), counts against the cap.
    if (
      receipt?.success ||
      (result.isError && (result.structuredContent as { error?: string } | undefined)?.error === "payment_in_progress")
    )
      spent += amount;
    return result;
  }

  return {
    spent: () => spent,
    tools: async () => (await upstream.listTools()).tools,
    async call(name, args, ask) {
      const first = (await upstream.callTool({ name, arguments: args })) as CallToolResult;
      if (!first.isError || !isPaymentRequired(first.structuredContent)) return first;
      return pay(name, args, first.structuredContent, ask);
    },
  };
}

/** Serves `bridge` on `server` (an SDK server with the tools capability): its tools, its calls, asking by elicitation. */
export function serveBridge(
  server: Server,
  bridge: PayingBridge,
  types: typeof import("@modelcontextprotocol/sdk/types.js"),
): void {
  server.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools: await bridge.tools() }));
  server.setRequestHandler(types.CallToolRequestSchema, async ({ params }) => {
    const ask: Asker = async (message) => {
      if (!server.getClientCapabilities()?.elicitation) return undefined;
      const answer = await server.elicitInput({
        message,
        requestedSchema: {
          type: "object",
          properties: { pay: { type: "boolean", title: "Pay", description: message } },
          required: ["pay"],
        },
      });
      return answer.action === "accept" && answer.content?.pay === true;
    };
    return bridge.call(params.name, params.arguments, ask);
  });
}
