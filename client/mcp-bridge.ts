/**
 * A paying MCP bridge, for hosts that speak MCP but do not pay x402: an MCP server (on any transport;
 * `npm run mcp` puts it on stdio) with the paid service's tools, which forwards each call to the
 * service's `/mcp` and, when the answer is x402's `PaymentRequired`, pays it from its payer on its one
 * network, under a per-call and a total cap, and calls again with the payment in `_meta["x402/payment"]`.
 * A price above a cap, an asset that is not the network's USDC, or a person's refusal (`confirm`, by
 * MCP elicitation where the host supports it) is a tool error, with nothing signed. A payment names its
 * purchase with x402's `payment-identifier` when the tool's challenge declares it, and is sent again,
 * the same payment, when the service answers that it is in progress (`payment_in_progress`, after the
 * `retryAfterSeconds` it tells) or the answer is lost on the way: never a second payment for one call.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { formatUsdc, microAmount } from "./amounts.js";
import { NETWORKS, type NetworkChoice, sameAddress } from "./networks.js";
import { repeatPaid } from "./paid-repeats.js";
import type { Payer } from "./payers.js";
import {
  newPaymentId,
  type Offer,
  offersPaymentIdentifier,
  type PaymentRequiredV2,
  type PaymentRequirementsV2,
  paymentPayloadV2,
  termsOf,
} from "./x402/types.js";

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
  /** How often a paid call is sent again, with the same payment, after its answer was lost on the way; default 2. */
  paidRetries?: number;
  /** The most a paid call waits in all for a payment in progress (default 30 s): a longer wait asked is returned. */
  maxRetryWaitMs?: number;
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

/** The seconds an in-progress result (`payment_in_progress`) asks to wait before the same call; undefined for any other. */
function inProgressWait(result: CallToolResult): number | undefined {
  const body = result.structuredContent as { error?: unknown; retryAfterSeconds?: unknown } | undefined;
  if (!result.isError || body?.error !== "payment_in_progress") return undefined;
  return typeof body.retryAfterSeconds === "number" && body.retryAfterSeconds >= 0 ? body.retryAfterSeconds : 1;
}

/** Whether a failed call may have lost its answer on the way (a transport's failure, a timeout), not a JSON-RPC refusal. */
const mayBeLost = (error: unknown) => {
  const code = (error as { code?: unknown } | undefined)?.code;
  return !(typeof code === "number" && code <= -32600 && code >= -32700);
};

/** What a result asks: an in-progress one, to call again after its `retryAfterSeconds`. */
const askedToWait = (result: CallToolResult) => {
  const seconds = inProgressWait(result);
  return seconds === undefined ? undefined : { ms: seconds * 1000, inProgress: true };
};

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
    const offer: Offer = {
      version: 2,
      requirement,
      resource: required.resource,
      ...(required.extensions && { extensions: required.extensions }),
    };
    const paymentId = offersPaymentIdentifier(offer) ? newPaymentId() : undefined;
    const payment = paymentPayloadV2(offer, await payer.sign(termsOf(requirement)), paymentId);
    const params = { name, arguments: args, _meta: { [PAYMENT_META]: payment } };
    let result: CallToolResult;
    try {
      result = await repeatPaid(async () => (await upstream.callTool(params)) as CallToolResult, {
        retries: options.paidRetries ?? 2,
        maxWaitMs: options.maxRetryWaitMs ?? 30_000,
        asked: askedToWait,
        mayBeLost,
      });
    } catch (error) {
      // sent, its answer never came: the outcome is unknown, so it counts against the cap
      if (mayBeLost(error)) spent += amount;
      throw error;
    }
    const receipt = result._meta?.[PAYMENT_RESPONSE_META] as { success?: boolean } | undefined;
    // A settled answer, or a payment still in progress (its settlement may yet land), counts against the cap.
    if (receipt?.success || inProgressWait(result) !== undefined) spent += amount;
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
