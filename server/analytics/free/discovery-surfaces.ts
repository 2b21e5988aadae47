/**
 * What a deployment publishes for discovery, each at the caller's origin: its OpenAPI documents (whole or for one
 * network) with each paid operation's `x-payment-info` carrying this deployment's payment details, the A2A v1.0 agent
 * card with its ERC-8004 registration fields (one skill per paid operation, as the MCP catalogue names it, with its
 * price), and the x402 discovery document (`/.well-known/x402`: each resource a prober can call, with both versions'
 * challenges). All are derived from the contract, the catalogue and the configuration, so that they cannot disagree
 * with a route's live 402; the service serves them (free-routes.ts), and so does the mock, from its own configuration
 * (conformance/mock-front.ts).
 */
import type { components } from "../../../generated/types/analytics.js";
import { CURRENT_REVISION } from "../../../lib/mcp-revision.js";
import { A2A_BINDING, A2A_PATH, A2A_PROTOCOL_VERSION, X402_EXTENSION_URI } from "../../a2a/protocol.js";
import type { AnalyticsConfig } from "../../config/analytics.js";
import { type PaidTool, paidTools } from "../../mcp/paid/catalogue.js";
import { PAYMENT_STATUS_TOOLS } from "../../mcp/payment-status-tools.js";
import { MCP_PATH } from "../../mcp/streamable-endpoint.js";
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

type ServiceInfo = components["schemas"]["ServiceInfo"];
type AgentCard = components["schemas"]["AgentCard"];
type X402Discovery = components["schemas"]["X402Discovery"];

/** Where an origin serves its agent card (A2A's well-known path). */
const AGENT_CARD_PATH = "/.well-known/agent-card.json";

/** What the discovery surfaces are built from. */
export interface DiscoveryDeps {
  contract: AnalyticsContract;
  config: AnalyticsConfig;
  /** How this deployment settles (each route's `x-payment-info.deployment.settlement`). */
  settlement: ServiceInfo["settlement"];
}

/** A small per-origin memo: the documents are large, and the set of origins a service sees is small. */
export function perOrigin<T>(build: (origin: string) => T, max = 16): (origin: string) => T {
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
export function networkSummaries(deployed: NetworkTarget[]): ServiceInfo["networks"] {
  return deployed.map((target) => ({
    prefix: target.prefix,
    network: target.network,
    caip2: target.caip2 as ServiceInfo["networks"][number]["caip2"],
    asset: target.asset,
    payTo: target.payTo,
  }));
}

/** Where an origin serves its paid operations as MCP tools. */
export const mcpEndpointAt = (contract: AnalyticsContract, origin: string): ServiceInfo["mcp"] => ({
  url: `${origin}${MCP_PATH}`,
  transport: "streamable-http",
  tools: contract.operations.length + PAYMENT_STATUS_TOOLS.length,
});

/** This deployment's payment details for a paid route, as its `x-payment-info` carries them. */
function deploymentOf(route: PaidRoute, { config, settlement }: DiscoveryDeps) {
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
function withDeployment(document: OpenApiDocument, deps: DiscoveryDeps): OpenApiDocument {
  const copy = structuredClone(document);
  for (const route of deps.contract.paid) {
    const info = copy.paths[route.path]?.[route.method]?.["x-payment-info"] as Record<string, unknown> | undefined;
    if (info) info.deployment = deploymentOf(route, deps);
  }
  return copy;
}

/** The whole document (under `undefined`) and each network's, with this deployment's details. */
function deployedDocuments(deps: DiscoveryDeps): Map<string | undefined, OpenApiDocument> {
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

type PaidOperation = { requestBody?: { content?: Record<string, { example?: unknown }> } };

/** A skill's example message: the JSON of the data part that calls it, with the operation's request example. */
function skillExample(document: OpenApiDocument, name: string, route: PaidRoute): string {
  const operation = document.paths[route.path]?.post as PaidOperation | undefined;
  const example = operation?.requestBody?.content?.["application/json"]?.example;
  return JSON.stringify({ skill: name, arguments: example ?? {} });
}

/**
 * The card's skills: one per paid operation, as the MCP catalogue names it (its tool's name), described by its
 * first paragraph, its signal words and its price; its root-prefix POST and price as the 0.3 card gave them.
 */
function agentSkills(contract: AnalyticsContract, tools: Map<string, PaidTool>): AgentCard["skills"] {
  return [...tools].map(([name, tool]) => {
    const routes = [...tool.routes.values()];
    const route = routes[0] as PaidRoute; // the root prefix's (catalogue.ts: root first)
    const networks = [...new Set(routes.map((r) => r.payment.network.title))].join(", ");
    const [about] = route.description.split("\n\n");
    return {
      id: name,
      name: route.summary,
      description: `${about} Signal: ${route.signals.join("|")}. ${tool.price.amount} USD per call (USDC on ${networks}, x402).`,
      tags: route.tags,
      examples: [skillExample(contract.document, name, route)],
      inputModes: ["application/json"],
      outputModes: ["application/json"],
      endpoint: `POST ${route.path}`,
      price_usd: route.payment.price.amount,
      price_micro_usdc: route.payment.maxAmountRequired,
    };
  });
}

/** The x402 extension as the card declares it: required, x402 v2, on this deployment's networks. */
function x402Extension(networks: AgentCard["networks"]): AgentCard["capabilities"]["extensions"][number] {
  return {
    uri: X402_EXTENSION_URI,
    description: "Every skill is paid per call with x402 v2, in USDC: a task asks for its payment before it answers.",
    required: true,
    params: { x402Versions: [2], networks: networks.map((n) => n.caip2) },
  };
}

/**
 * The agent card at an origin, memoized per origin: an A2A v1.0 card (its JSON-RPC endpoint at `/a2a`, the x402
 * extension required, one skill per paid operation) with the ERC-8004 registration fields beside it. No top-level
 * `url`, `protocolVersion` or `preferredTransport`: an A2A v1.0 client reads a card carrying them as a 0.3 card.
 */
function agentCards(
  contract: AnalyticsContract,
  config: AnalyticsConfig,
  networks: AgentCard["networks"],
): (origin: string) => AgentCard {
  // The catalogue is built on the first card asked for, as /mcp builds it on its first call: not at start-up.
  let built: AgentCard["skills"] | undefined;
  const skills = () => {
    built ??= agentSkills(contract, paidTools(contract, config));
    return built;
  };
  const { title, version } = contract.document.info;
  return perOrigin(
    (origin): AgentCard => ({
      name: title,
      description:
        "Pay-per-request DeFi analytics with an AI insight and a decision signal on every answer; x402 payments in USDC on Solana, Base and SKALE.",
      supportedInterfaces: [
        { url: `${origin}${A2A_PATH}`, protocolBinding: A2A_BINDING, protocolVersion: A2A_PROTOCOL_VERSION },
      ],
      provider: { organization: title, url: origin },
      version,
      documentationUrl: `${origin}/docs`,
      capabilities: { streaming: false, pushNotifications: false, extensions: [x402Extension(networks)] },
      securitySchemes: {},
      securityRequirements: [],
      defaultInputModes: ["application/json", "text/plain"],
      defaultOutputModes: ["application/json"],
      skills: skills(),
      type: "https://eips.ethereum.org/EIPS/eip-8004#registration-v1",
      services: [
        { name: "A2A", endpoint: `${origin}${AGENT_CARD_PATH}`, version: A2A_PROTOCOL_VERSION },
        { name: "MCP", endpoint: `${origin}${MCP_PATH}`, version: CURRENT_REVISION },
        { name: "web", endpoint: origin },
      ],
      active: true,
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

/** A deployment's discovery surfaces, each memoized per origin. */
export interface DiscoverySurfaces {
  /** The OpenAPI documents with this deployment's details: the whole one (under `undefined`) and each network's. */
  documents: Map<string | undefined, OpenApiDocument>;
  /** Each document's JSON at an origin (its `servers`). */
  openApiJson: Map<string | undefined, (origin: string) => string>;
  agentCard: (origin: string) => AgentCard;
  x402Discovery: (origin: string) => X402Discovery;
}

export function discoverySurfaces(deps: DiscoveryDeps): DiscoverySurfaces {
  const { contract, config } = deps;
  const documents = deployedDocuments(deps);
  return {
    documents,
    openApiJson: openApiJsonByNetwork(documents),
    agentCard: agentCards(contract, config, networkSummaries(deployedNetworks(config))),
    x402Discovery: discoveryDocuments(contract, discoveryTemplates(contract, config)),
  };
}
