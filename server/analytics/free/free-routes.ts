/**
 * The free endpoints: service info (every paid operation with its price and its path per prefix),
 * the OpenAPI document (whole or for one network, with the caller's origin as its server and this
 * deployment's payment details), its API reference page, the A2A / ERC-8004 agent card, and the
 * x402 discovery document. All are derived from the contract and the configuration at start-up;
 * only the origin varies per request.
 */
import type { Request, RequestHandler } from "express";
import type { components } from "../../../generated/types/analytics.js";
import type { AnalyticsConfig } from "../../config/analytics.js";
import { requestOrigin } from "../../http/origin.js";
import { MCP_PATH } from "../../mcp/streamable-endpoint.js";
import { referencePage } from "../../reference-page/reference-page.js";
import type { AnalyticsContract, OpenApiDocument, PaidRoute } from "../contract/analytics-contract.js";
import { challengeV2 } from "../payments/x402/protocols.js";
import {
  concretePath,
  deployedNetworks,
  type NetworkTarget,
  networkOf,
  offerAt,
  type RouteOffer,
  routeOffer,
} from "../payments/x402/requirements.js";
import { didDocumentHandler } from "./did-document.js";

type ServiceInfo = components["schemas"]["ServiceInfo"];
type AgentCard = components["schemas"]["AgentCard"];
type X402Discovery = components["schemas"]["X402Discovery"];
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

/** A small per-origin memo: the documents are large, and the set of origins a service sees is small. */
function perOrigin<T>(build: (origin: string) => T, max = 16): (origin: string) => T {
  const memo = new Map<string, T>();
  return (origin) => {
    let value = memo.get(origin);
    if (value === undefined) {
      if (memo.size >= max) memo.delete(memo.keys().next().value as string);
      value = build(origin);
      memo.set(origin, value);
    }
    return value;
  };
}

/** The networks this deployment is paid on, as service info and the agent card list them. */
function networkSummaries(deployed: NetworkTarget[]) {
  return deployed.map((target) => ({
    prefix: target.prefix,
    network: target.network,
    caip2: target.caip2 as ServiceInfo["networks"][number]["caip2"],
    asset: target.asset,
    payTo: target.payTo,
  }));
}

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

/** What the OpenAPI documents and service info need of the dependencies. */
type DocumentDeps = Pick<FreeRouteDeps, "contract" | "config" | "settlement">;

/** This deployment's payment details for a paid route, as its `x-payment-info` carries them. */
function deploymentOf(route: PaidRoute, { config, settlement }: DocumentDeps) {
  const target = networkOf(route, config);
  return {
    profile: config.profile,
    network: target.network,
    caip2: target.caip2,
    asset: target.asset,
    payTo: target.payTo,
    treasury: target.treasury,
    settlement,
    ...(target.family === "svm" ? { feePayer: config.feePayer } : {}),
  };
}

/** A copy of `document` whose paid operations carry this deployment's details. */
function withDeployment(document: OpenApiDocument, deps: DocumentDeps): OpenApiDocument {
  const copy = structuredClone(document);
  for (const route of deps.contract.paid) {
    const info = copy.paths[route.path]?.[route.method]?.["x-payment-info"] as Record<string, unknown> | undefined;
    if (info) info.deployment = deploymentOf(route, deps);
  }
  return copy;
}

/** The whole document (under `undefined`) and each network's, with this deployment's details. */
function deployedDocuments(deps: DocumentDeps): Map<string | undefined, OpenApiDocument> {
  const { contract } = deps;
  return new Map<string | undefined, OpenApiDocument>([
    [undefined, withDeployment(contract.document, deps)],
    ...Object.entries(contract.byNetwork).map(([name, document]) => [name, withDeployment(document, deps)] as const),
  ]);
}

/** Per document, its JSON with the caller's origin as its server, memoized per origin. */
function openApiJsonByNetwork(documents: Map<string | undefined, OpenApiDocument>) {
  return new Map(
    [...documents].map(([network, document]) => [
      network,
      perOrigin((origin) =>
        JSON.stringify({ ...document, servers: [{ url: origin, description: "This deployment" }] }),
      ),
    ]),
  );
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

/** The A2A / ERC-8004 agent card at an origin, one skill per POST route of the root prefix; memoized per origin. */
function agentCards(contract: AnalyticsContract, networks: AgentCard["networks"]): (origin: string) => AgentCard {
  const rootPost = contract.paid.filter((r) => !r.legacy && r.payment.network.prefix === "");
  return perOrigin(
    (origin): AgentCard => ({
      protocolVersion: "0.3.0",
      name: contract.document.info.title,
      description:
        "Pay-per-request DeFi analytics with an AI insight and a decision signal on every answer; x402 payments in USDC on Solana, Base and SKALE.",
      url: origin,
      version: contract.document.info.version,
      capabilities: { streaming: false, pushNotifications: false },
      defaultInputModes: ["application/json"],
      defaultOutputModes: ["application/json"],
      skills: rootPost.map((route) => ({
        id: route.name,
        name: route.summary,
        description: route.description,
        tags: route.tags,
        endpoint: `POST ${route.path}`,
        price_usd: route.payment.price.amount,
        price_micro_usdc: route.payment.maxAmountRequired,
      })),
      type: "https://eips.ethereum.org/EIPS/eip-8004#registration-v1",
      registrations: [],
      x402Support: true,
      x402Versions: [1, 2],
      networks,
      mcp: mcpEndpointAt(contract, origin),
    }),
  );
}

/** A paid route discovery lists: its concrete path and its offer. */
interface DiscoveryTemplate {
  route: PaidRoute;
  path: string;
  offer: RouteOffer;
}

/** The paid routes discovery lists, in the contract's order. */
function discoveryTemplates(contract: AnalyticsContract, config: AnalyticsConfig): DiscoveryTemplate[] {
  // Discovery lists URLs a prober can call as written: the venue is filled in; routes still needing an id (a pool, a
  // mint) or query parameters (a question, an address) are listed by their POST twin.
  return contract.paid
    .filter((route) => !route.queryRequired)
    .map((route) => ({ route, path: concretePath(route, { venue: "meteora" }) }))
    .filter(({ path }) => !path.includes("{"))
    .map(({ route, path }) => ({ route, path, offer: routeOffer(route, config, contract.document) }));
}

/** The x402 discovery document at an origin, memoized per origin. */
function discoveryDocuments(
  contract: AnalyticsContract,
  templates: DiscoveryTemplate[],
): (origin: string) => X402Discovery {
  return perOrigin(
    (origin): X402Discovery => ({
      version: 1,
      resources: templates.map(({ route, path }) => `${route.method.toUpperCase()} ${path}`),
      items: templates.map(({ route, path, offer }) => {
        const resource = `${origin}${path}`;
        const at = offerAt(offer, resource);
        return {
          resource,
          method: route.method.toUpperCase() as "GET" | "POST",
          type: "http",
          x402Version: 1,
          accepts: [at.v1],
          paymentRequired: challengeV2(at, offer.extensions, "Payment required"),
        };
      }),
      mcp: mcpEndpointAt(contract, origin),
    }),
  );
}

/** Where an origin serves its paid operations as MCP tools. */
const mcpEndpointAt = (contract: AnalyticsContract, origin: string): ServiceInfo["mcp"] => ({
  url: `${origin}${MCP_PATH}`,
  transport: "streamable-http",
  tools: contract.operations.length,
});

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
  const documents = deployedDocuments({ contract, config, settlement });
  const openApiJsonOf = openApiJsonByNetwork(documents);
  const pages = referencePages(documents);
  const agentCard = agentCards(contract, networks);
  const discovery = discoveryDocuments(contract, discoveryTemplates(contract, config));

  return {
    Free_serviceInfo: (req, res) => {
      res.type("application/json").send(serviceInfoBody(requestOrigin(req, config.publicBaseUrl))(cache()));
    },
    Free_openApiDocument: (req, res) => {
      res.type("application/json").send(chosen(openApiJsonOf, req)(requestOrigin(req, config.publicBaseUrl)));
    },
    Free_docsPage: (req, res) => {
      res.type("text/html").send(chosen(pages, req));
    },
    Free_agentCard: (req, res) => {
      res.json(agentCard(requestOrigin(req, config.publicBaseUrl)));
    },
    Free_x402Discovery: (req, res) => {
      res.json(discovery(requestOrigin(req, config.publicBaseUrl)));
    },
    Free_didDocument: didDocumentHandler(config),
  };
}
