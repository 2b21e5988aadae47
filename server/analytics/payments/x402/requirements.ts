/**
 * The payment requirement of a paid route, in both x402 versions: what its 402 challenge offers and
 * what a payment is verified against. Built from the contract's `x-payment-info` and the deployment's
 * configuration, never from anything the client sends (except the origin of the resource URL).
 */

import { NETWORKS, type NetworkDetails, type PaymentNetwork } from "../../../../lib/networks.js";
import type { AnalyticsConfig } from "../../../config/analytics.js";
import type { OpenApiDocument, PaidRoute } from "../../contract/analytics-contract.js";
import { bazaarExtension } from "./bazaar.js";
import { paymentIdentifierDeclaration } from "./payment-identifier.js";
import { type ChallengeExtensions, type Offer, v2Requirement } from "./protocols.js";
import { type ReceiptSigner, receiptSigner } from "./receipts/offer-receipt.js";
import type { PaymentRequirements, PaymentRequirementsV2 } from "./types.js";

export interface NetworkTarget extends NetworkDetails {
  name: PaymentNetwork["name"];
  family: "svm" | "evm";
  prefix: string;
  payTo: string;
  treasury: string;
}

/** A network of the table as this deployment settles on it: its profile's details and its recipients. */
function targetOf(network: PaymentNetwork, config: AnalyticsConfig): NetworkTarget {
  const { name, family, prefix } = network;
  return {
    ...network[config.profile],
    name,
    family,
    prefix,
    payTo: config.payTo[family],
    treasury: config.treasury[family],
  };
}

/** The network a route settles on in the configured profile, with its recipients. */
export function networkOf(route: PaidRoute, config: AnalyticsConfig): NetworkTarget {
  return targetOf(route.payment.network, config);
}

/** Every network of the table in the configured profile, with its recipients. */
export function deployedNetworks(config: AnalyticsConfig): NetworkTarget[] {
  return NETWORKS.map((network) => targetOf(network, config));
}

/** `/lp/{venue}/pools/{address}` with `{venue: "meteora"}` → `/lp/meteora/pools/{address}` (missing ones stay templated). */
export function concretePath(route: PaidRoute, params: Record<string, string>): string {
  return route.path.replace(/\{([^}]+)\}/g, (whole, name: string) =>
    params[name] === undefined ? whole : encodeURIComponent(params[name]),
  );
}

/**
 * Builds a route's requirement. Everything but `resource` is fixed per route and configuration, so
 * `routeOffer` builds it once per route and `offerAt` adds the resource URL per request.
 */
export function requirementTemplate(route: PaidRoute, config: AnalyticsConfig): Omit<PaymentRequirements, "resource"> {
  const target = networkOf(route, config);
  const input: Record<string, unknown> = { type: "http", method: route.method.toUpperCase(), discoverable: true };
  if (route.method === "post") Object.assign(input, { bodyType: "json", bodyFields: route.inputFields });
  else if (Object.keys(route.inputFields).length) input.queryParams = route.inputFields;
  return {
    scheme: "exact",
    network: target.network as PaymentRequirements["network"],
    maxAmountRequired: route.payment.maxAmountRequired,
    description: route.summary,
    mimeType: "application/json",
    payTo: target.payTo,
    maxTimeoutSeconds: config.maxTimeoutSeconds,
    asset: target.asset,
    outputSchema: { input: input as NonNullable<PaymentRequirements["outputSchema"]>["input"] },
    extra:
      target.family === "evm" ? (target.eip712 as { name: string; version: string }) : { feePayer: config.feePayer },
  };
}

/** What a route offers, fixed per route and configuration: both versions' requirement (v1 without its resource URL) and its discovery extension. */
export interface RouteOffer {
  template: Omit<PaymentRequirements, "resource">;
  v2: PaymentRequirementsV2;
  /** CAIP-2 id of the route's network: the v2 receipt names it. */
  caip2: string;
  extensions: ChallengeExtensions;
  /** Signs the v2 challenge's offers and the v2 answer's receipt, when the deployment has a receipt key. */
  receipts?: ReceiptSigner;
}

export function routeOffer(route: PaidRoute, config: AnalyticsConfig, document: OpenApiDocument): RouteOffer {
  const template = requirementTemplate(route, config);
  const { caip2 } = networkOf(route, config);
  const extensions = {
    bazaar: bazaarExtension(route, document),
    "payment-identifier": paymentIdentifierDeclaration(config.payments.paymentIdentifier.required),
  };
  const receipts = config.receipts && receiptSigner(config.receipts, config);
  return { template, v2: v2Requirement(template, caip2), caip2, extensions, receipts };
}

/** The offer of a route for one resource URL. */
export const offerAt = (offer: RouteOffer, resource: string): Offer => ({
  v1: { ...offer.template, resource },
  v2: offer.v2,
});
