/**
 * A paying MCP bridge, for hosts that speak MCP but do not pay x402: an MCP server (on any transport;
 * `npm run mcp` puts it on stdio, for hosts of both eras) with the paid service's tools, which forwards each
 * call to the service's `/mcp` and, when the answer is x402's `PaymentRequired` (a tool result, or the
 * extension binding's `payment_required`), pays it from its payer on its one network, under a per-call and a
 * total cap, and calls again with the payment in `_meta["x402/payment"]`. A price above a cap, an asset that is
 * not the network's USDC, or a person's refusal (`confirm`: by MCP elicitation, or `input_required` on the
 * current revision) is a tool error, with nothing signed. A payment names its purchase with x402's
 * `payment-identifier` when the tool's challenge declares it, and is sent again, the same payment, when the
 * service answers that it is in progress (`payment_in_progress`, after the `retryAfterSeconds` it tells) or the
 * answer is lost on the way: never a second payment for one call.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { formatUsdc, microAmount } from "./amounts.js";
import { approves, consentForm } from "./mcp-consent.js";
import type { BridgeUpstream } from "./mcp-upstream.js";
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
  /** Connected to the service's `/mcp` (mcp-upstream.ts, or the 1.x SDK's `Client`). */
  upstream: BridgeUpstream;
  network: NetworkChoice;
  payer: Payer;
  /** Micro-USDC. */
  maxPerCall: bigint;
  /** Micro-USDC over the bridge's life. */
  maxTotal: bigint;
  /** Ask the person before each payment (through the host); a host that cannot ask gets a tool error instead. */
  confirm: boolean;
  /** How often a paid call is sent again, with the same payment, after its answer was lost on the way; default 2. */
  paidRetries?: number;
  /** The most a paid call waits in all for a payment in progress (default 30 s): a longer wait asked is returned. */
  maxRetryWaitMs?: number;
}

/** A call the service asks payment for, within the caps: what would be signed, and the question to the person. */
export interface Quote {
  name: string;
  args: Record<string, unknown> | undefined;
  required: PaymentRequiredV2;
  requirement: PaymentRequirementsV2;
  /** Micro-USDC. */
  amount: bigint;
  question: string;
}

export interface PayingBridge {
  /** Micro-USDC settled so far (and payments whose outcome is unknown). */
  spent(): bigint;
  /** The tools the service lists, as this bridge serves them, with the service's caching hints if any. */
  tools(): Promise<{ tools: Tool[]; ttlMs?: number; cacheScope?: string }>;
  /** The call unpaid: its result when nothing is to be paid (or a refusal), else the payment it asks within the caps. */
  quote(name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult | Quote>;
  /** Pays a quote and calls again with the payment (the same payment on every repeat). */
  pay(quote: Quote): Promise<CallToolResult>;
  /** A tool call, paid if the service asks for payment (asking the person first with `confirm`). */
  call(name: string, args: Record<string, unknown> | undefined, ask?: Asker): Promise<CallToolResult>;
}

export const isQuote = (value: CallToolResult | Quote): value is Quote => "requirement" in value;

/** Asks the person whether to pay; undefined when the host cannot ask. */
export type Asker = (message: string) => Promise<boolean | undefined>;

const text = (value: string) => ({ type: "text" as const, text: value });
const refusal = (message: string): CallToolResult => ({ isError: true, content: [text(message)] });
export const cannotAsk = () =>
  refusal("Not paid: --confirm asks before each payment, and this host cannot ask (no elicitation).");
export const declined = (quote: Quote) =>
  refusal(`Not paid: the payment of ${formatUsdc(quote.amount)} USDC for ${quote.name} was declined.`);

/**
 * A result of the service as the host gets it: a tool result. x402's extension binding says a challenge as
 * `resultType: "payment_required"`; the host, which does not pay, gets it in the tool-result binding's words.
 */
function asToolResult(result: unknown): CallToolResult {
  const { resultType, paymentRequired, ...rest } = result as Record<string, unknown>;
  if (resultType === "payment_required")
    return {
      isError: true,
      structuredContent: paymentRequired as Record<string, unknown>,
      content: [text(JSON.stringify(paymentRequired))],
      ...(rest._meta ? { _meta: rest._meta as Record<string, unknown> } : {}),
    };
  if (resultType !== undefined && resultType !== "complete")
    throw new Error(`the service answered a result of type ${String(resultType)}, which this bridge does not know`);
  return rest as CallToolResult;
}

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

/** The payment a challenge asks within the caps, or the refusal naming the price and the cap (nothing signed). */
function quoteOf(
  options: BridgeOptions,
  spent: bigint,
  name: string,
  args: Record<string, unknown> | undefined,
  required: PaymentRequiredV2,
): Quote | CallToolResult {
  const requirement = chooseRequirement(required, options.network);
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
  const question = `Pay ${price} on ${options.network} for ${name} with ${JSON.stringify(args ?? {})}?`;
  return { name, args, required, requirement, amount, question };
}

export function payingBridge(options: BridgeOptions): PayingBridge {
  let spent = 0n;
  const { upstream, payer } = options;
  const callTool = async (params: Parameters<BridgeUpstream["callTool"]>[0]) =>
    asToolResult(await upstream.callTool(params));

  async function pay(quote: Quote): Promise<CallToolResult> {
    const { name, args, required, requirement, amount } = quote;
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
      result = await repeatPaid(() => callTool(params), {
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

  async function quote(name: string, args: Record<string, unknown> | undefined) {
    const first = await callTool({ name, arguments: args });
    if (!first.isError || !isPaymentRequired(first.structuredContent)) return first;
    return quoteOf(options, spent, name, args, first.structuredContent);
  }

  return {
    spent: () => spent,
    tools: async () => (await upstream.listTools()) as Awaited<ReturnType<PayingBridge["tools"]>>,
    quote,
    pay,
    async call(name, args, ask) {
      const quoted = await quote(name, args);
      if (!isQuote(quoted)) return quoted;
      if (options.confirm) {
        const approved = await ask?.(quoted.question);
        if (approved === undefined) return cannotAsk();
        if (!approved) return declined(quoted);
      }
      return pay(quoted);
    },
  };
}

/** Serves `bridge` on `server` (an SDK server with the tools capability): its tools, its calls, asking by elicitation. */
export function serveBridge(
  server: Server,
  bridge: PayingBridge,
  types: typeof import("@modelcontextprotocol/sdk/types.js"),
): void {
  server.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools: (await bridge.tools()).tools }));
  server.setRequestHandler(types.CallToolRequestSchema, async ({ params }) => {
    const ask: Asker = async (message) => {
      if (!server.getClientCapabilities()?.elicitation) return undefined;
      return approves(await server.elicitInput(consentForm(message)));
    };
    return bridge.call(params.name, params.arguments, ask);
  });
}
