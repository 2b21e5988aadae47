/**
 * What a paid tool offers, and how a call's payment is read against it: the tool's route on each
 * network with that route's offer at the resource `mcp://tool/<name>`, the `PaymentRequired` of all of
 * them (with the Bazaar extension describing the tool, and signed offers when the service signs them), and the route a payment pays on (the network
 * its `accepted` names; the default route, whose offer refuses it, otherwise). The service's tool
 * calls (calls.ts) and the mock's read them alike.
 */

import type { Clock } from "../../analytics/clock.js";
import type { OpenApiDocument, PaidRoute } from "../../analytics/contract/analytics-contract.js";
import { mcpBazaarExtension } from "../../analytics/payments/x402/bazaar.js";
import { paymentIdentifierDeclaration } from "../../analytics/payments/x402/payment-identifier.js";
import type { Offer, SubmissionRead } from "../../analytics/payments/x402/protocols.js";
import { receiptSigner } from "../../analytics/payments/x402/receipts/offer-receipt.js";
import { offerAt, routeOffer } from "../../analytics/payments/x402/requirements.js";
import type { PaymentRequiredV2, SettlementReceiptV2 } from "../../analytics/payments/x402/types.js";
import type { AnalyticsConfig } from "../../config/analytics.js";
import type { PaidTool } from "./catalogue.js";

/** One network a tool can be paid on. */
export interface OfferedRoute {
  caip2: string;
  route: PaidRoute;
  offer: Offer;
}

export interface ToolOffers {
  routes: Map<string, OfferedRoute>;
  /** The route of a call whose payment names no network the tool takes (or that has none). */
  fallback: OfferedRoute;
  challenge(error: PaymentRequiredV2["error"]): PaymentRequiredV2;
  /** USD per call, for the sentences. */
  price: string;
  routeFor(payment: unknown): OfferedRoute;
  /** The settlement response with its signed receipt for the tool's resource, when the service signs them. */
  signReceipt?(response: SettlementReceiptV2, answerBody: string): SettlementReceiptV2;
}

/** `mcp://tool/<name>`: the resource a tool's payment pays for, as x402's MCP transport names it. */
export const toolResource = (name: string) => `mcp://tool/${name}`;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function toolOffers(
  tool: PaidTool,
  config: AnalyticsConfig,
  document: OpenApiDocument,
  clock: Clock,
  resourceOf: (name: string) => string = toolResource,
): ToolOffers {
  const { definition } = tool;
  const resource = resourceOf(definition.name);
  const routes = new Map<string, OfferedRoute>();
  for (const [caip2, route] of tool.routes)
    routes.set(caip2, { caip2, route, offer: offerAt(routeOffer(route, config, document), resource) });
  const fallback = routes.values().next().value as OfferedRoute;
  const signer = config.receipts && receiptSigner(config.receipts, config);
  const base = {
    x402Version: 2 as const,
    resource: { url: resource, description: definition.title, mimeType: "application/json" },
    accepts: [...routes.values()].map((route) => route.offer.v2),
    extensions: {
      bazaar: mcpBazaarExtension(definition.name, definition.inputSchema),
      "payment-identifier": paymentIdentifierDeclaration(config.payments.paymentIdentifier.required),
    } as unknown as PaymentRequiredV2["extensions"],
  };
  return {
    routes,
    fallback,
    challenge: (error) => (signer ? signer.withOffers({ ...base, error }, clock.now()) : { ...base, error }),
    ...(signer && { signReceipt: (response, answerBody) => signer.withReceipt(response, resource, answerBody) }),
    price: tool.price.amount,
    routeFor(payment) {
      const network = isRecord(payment) && isRecord(payment.accepted) ? payment.accepted.network : undefined;
      return (typeof network === "string" && routes.get(network)) || fallback;
    },
  };
}

/** The payment of a call as the pipeline reads one: the v2 object, or (as some clients send it) its base64 form. */
export function submissionOf(payment: unknown): SubmissionRead {
  if (payment === undefined) return { kind: "none" };
  if (typeof payment === "string") return { kind: "payment", version: 2, header: payment };
  return { kind: "payment", version: 2, object: payment };
}
