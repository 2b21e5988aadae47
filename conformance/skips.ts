/**
 * What each target cannot be asked, with the reason; a skipped check still appears in the report.
 * Everything not listed runs on every target (the mock charges like the service, answers partial
 * and 404 cases through `Prefer: code=...`, and Prism's request validation answers the negative
 * cases).
 */
import type { TargetKind, TargetSettings } from "./targets.js";

export type Check =
  | "challenge"
  | "paid"
  | "receipt"
  | "signatures"
  | "partial"
  | "negative"
  | "fuzz"
  | "free"
  | "openapiPrices"
  | "resourceOrigin"
  | "registry"
  | "notModified"
  | "errorCode"
  | "mcp"
  | "mcpSameData"
  | "a2a"
  | "bogusPayment"
  | "reusedPayment"
  | "allowHeader"
  | "entityLookup"
  | "indexerProbe"
  | "discovery";

const SKIPS: Record<TargetKind, Partial<Record<Check, string>>> = {
  server: {},
  prism: {
    notModified: "Prism computes no ETag, so If-None-Match cannot match",
    fuzz: "Prism is not the system under test: its request validation is Stoplight's, not the service's",
    mcpSameData: "the mock answers the contract's examples, over HTTP (Prism) and over MCP (its front) alike",
    bogusPayment: "the mock judges a payment's shape and network, not its signature",
    reusedPayment: "the mock remembers no payment",
    allowHeader: "Prism answers an undocumented method 405 without Allow (the status is still checked)",
    entityLookup: "the mock answers its examples whatever entity is named (a 404 only when asked with Prefer)",
  },
  url: {
    partial:
      "a deployment cannot be made to fail its model on demand (206 runs against the in-process server and Prism)",
    resourceOrigin: "a deployment behind a proxy may announce its public origin; the path is still checked",
    mcpSameData: "a deployment's live data can change between two calls",
  },
};

export function skipReason(settings: TargetSettings, check: Check): string | undefined {
  const listed = SKIPS[settings.kind][check];
  if (listed) return listed;
  if (settings.kind === "url" && !settings.pay && (check === "paid" || check === "receipt"))
    return "CONFORMANCE_PAY=0: the suite does not pay this deployment";
  if (settings.kind === "url" && !settings.registryUrl && (check === "registry" || check === "notModified"))
    return "CONFORMANCE_REGISTRY_URL is not set";
  return undefined;
}
