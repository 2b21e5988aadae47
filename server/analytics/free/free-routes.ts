/**
 * The free endpoints: service info (every paid operation with its price and its path per prefix),
 * the OpenAPI document (whole or for one network, with the caller's origin as its server and this
 * deployment's payment details), its API reference page, the A2A / ERC-8004 agent card, and the
 * x402 discovery document (the last three built in discovery-surfaces.ts). All are derived from the
 * contract and the configuration at start-up; only the origin varies per request.
 */
import type { Request, RequestHandler } from "express";
import type { components } from "../../../generated/types/analytics.js";
import type { AnalyticsConfig } from "../../config/analytics.js";
import { requestOrigin } from "../../http/origin.js";
import { referencePage } from "../../reference-page/reference-page.js";
import type { AnalyticsContract, OpenApiDocument, PaidRoute } from "../contract/analytics-contract.js";
import { deployedNetworks, type NetworkTarget, networkOf } from "../payments/x402/requirements.js";
import { didDocumentHandler } from "./did-document.js";
import { discoverySurfaces, mcpEndpointAt, networkSummaries, perOrigin } from "./discovery-surfaces.js";

type ServiceInfo = components["schemas"]["ServiceInfo"];
type ServiceOperation = components["schemas"]["ServiceOperation"];

export interface FreeRouteDeps {
  contract: AnalyticsContract;
  config: AnalyticsConfig;
  providers: ServiceInfo["providers"];
  insightModel: string;
  settlement: ServiceInfo["settlement"];
  /** The upstream cache's state now (a shared one can come and go). */
  cache: () => ServiceInfo["cache"];
}

const SERVICE = "defi-intel";

/** Service info's operations, in the contract's order, each with its price and its routes. */
function serviceOperations(
  contract: AnalyticsContract,
  config: AnalyticsConfig,
  deployed: NetworkTarget[],
): ServiceOperation[] {
  // One entry per operation: its POST routes in prefix order, then its legacy GETs.
  const byName = new Map<string, PaidRoute[]>();
  for (const route of contract.paid) byName.set(route.name, [...(byName.get(route.name) ?? []), route]);
  const order = (route: PaidRoute) =>
    (route.legacy ? deployed.length : 0) +
    deployed.findIndex((network) => network.prefix === route.payment.network.prefix);
  return contract.operations.map((name) => {
    const routes = (byName.get(name) ?? []).toSorted((a, b) => order(a) - order(b));
    const first = routes[0] as PaidRoute;
    return {
      name,
      summary: first.summary,
      tags: first.tags,
      price_usd: first.payment.price.amount,
      price_micro_usdc: first.payment.maxAmountRequired,
      routes: routes.map((route) => ({
        prefix: route.payment.network.prefix,
        network: networkOf(route, config).network as ServiceOperation["routes"][number]["network"],
        method: route.method.toUpperCase() as "GET" | "POST",
        path: route.path,
      })),
    };
  });
}

/** Per document, its API reference page. */
function referencePages(documents: Map<string | undefined, OpenApiDocument>) {
  return new Map(
    [...documents].map(([network, document]) => [
      network,
      referencePage({
        title: document.info.title,
        documentUrl: network ? `/openapi.json?network=${network}` : "/openapi.json",
      }),
    ]),
  );
}

/** The value kept for the request's `network` query parameter (absent: the whole document's). */
function chosen<T>(byNetwork: Map<string | undefined, T>, req: Request): T {
  // The validator admits only the spec's network names; an unknown one here means the generated files disagree with the spec.
  const value = byNetwork.get(req.query.network as string | undefined);
  if (value === undefined) throw new Error(`no generated document for network ${String(req.query.network)}`);
  return value;
}

/** Service info's body for a state of the cache, given the rest of service info. */
function serviceInfoBodies(info: Omit<ServiceInfo, "cache">): (state: ServiceInfo["cache"]) => Buffer {
  // Serialized once per state of the cache (the only part that changes): the body is about 15 KB.
  let serialized: { state: string; body: Buffer } | undefined;
  return (state) => {
    const key = `${state.store}:${state.status}`;
    if (serialized?.state !== key)
      serialized = { state: key, body: Buffer.from(JSON.stringify({ ...info, cache: state })) };
    return serialized.body;
  };
}

export function freeRouteHandlers({
  contract,
  config,
  providers,
  insightModel,
  settlement,
  cache,
}: FreeRouteDeps): Record<string, RequestHandler> {
  const deployed = deployedNetworks(config);
  const networks = networkSummaries(deployed);
  const serviceInfo: Omit<ServiceInfo, "cache" | "mcp"> = {
    service: SERVICE,
    version: contract.document.info.version,
    status: "ok",
    profile: config.profile,
    networks,
    endpoints: contract.operations.length,
    operations: serviceOperations(contract, config, deployed),
    providers,
    insight_model: insightModel,
    settlement,
    warnings: config.warnings,
  };
  const serviceInfoBody = perOrigin((origin) =>
    serviceInfoBodies({ ...serviceInfo, mcp: mcpEndpointAt(contract, origin) }),
  );
  const surfaces = discoverySurfaces({ contract, config, settlement });
  const pages = referencePages(surfaces.documents);

  return {
    Free_serviceInfo: (req, res) => {
      res.type("application/json").send(serviceInfoBody(requestOrigin(req, config.publicBaseUrl))(cache()));
    },
    Free_openApiDocument: (req, res) => {
      res.type("application/json").send(chosen(surfaces.openApiJson, req)(requestOrigin(req, config.publicBaseUrl)));
    },
    Free_docsPage: (req, res) => {
      res.type("text/html").send(chosen(pages, req));
    },
    Free_agentCard: (req, res) => {
      res.json(surfaces.agentCard(requestOrigin(req, config.publicBaseUrl)));
    },
    Free_x402Discovery: (req, res) => {
      res.json(surfaces.x402Discovery(requestOrigin(req, config.publicBaseUrl)));
    },
    Free_didDocument: didDocumentHandler(config),
  };
}
