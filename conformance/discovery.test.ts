// discovery_agreement: what a payer or an indexer reads of a paid route before paying is what the route answers. On
// every paid route of every selected prefix, the live 402 (the example request, unpaid) is held against each
// discovery surface the target serves: the OpenAPI document at /openapi.json (the operation's `x-payment-info`: its
// price, and its `deployment`'s network, CAIP-2 id, asset and payTo), the agent card at /.well-known/agent-card.json
// (the operation's skill's price, the prefix's network), MCP `tools/list` (the tool's price, where `_meta` states
// it), and /.well-known/x402 (each item of the route against the live 402 of its own resource, probed as an indexer
// does: `accepts` the v1 body's, `paymentRequired` the v2 challenge, its Bazaar extension included). A field that
// disagrees fails the check, named with its surface. The agent card must also be one an A2A v1.0 client can use: a
// JSON-RPC interface of version 1.0 at /a2a, the x402 extension required, one skill per paid operation.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe } from "vitest";
import { paidCases, title } from "./cases.js";
import { Findings } from "./checks.js";
import {
  type AgentCard,
  checkAgentCardA2a,
  checkAgentCardAgreement,
  checkDiscoveryItem,
  checkOpenApiAgreement,
  checkToolAgreement,
  itemsOf,
  type ListedTool,
  liveChallenge,
  operationName,
  type X402Discovery,
} from "./discovery-checks.js";
import { send } from "./http.js";
import type { OpenApiDoc } from "./openapi-doc.js";
import { caseTest, settings, useTarget } from "./suite.js";
import { ALL_PREFIXES } from "./targets.js";

const url = useTarget({ analytics: true });
const CHECK = "discovery_agreement";

/** A served JSON document, or an error naming it. */
async function served<T>(path: string): Promise<T> {
  const answer = await send(url("analyticsUrl"), { method: "GET", path }, settings.timeoutMs);
  if (answer.status !== 200 || answer.json === undefined)
    throw new Error(`GET ${path} answered ${answer.status} ${answer.contentType}: ${answer.text.slice(0, 200)}`);
  return answer.json as T;
}

/** Every tool `tools/list` describes, page by page, with the official MCP SDK client. */
async function listedTools(): Promise<ListedTool[]> {
  const client = new Client({ name: "defi-intel-conformance", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url("analyticsUrl")}/mcp`)));
  try {
    const tools: ListedTool[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  } finally {
    await client.close();
  }
}

/** The surfaces, each read once per file (a surface that cannot be read fails every test that needs it, naming it). */
const SURFACES = {
  openapi: () => served<OpenApiDoc>("/openapi.json"),
  agentCard: () => served<AgentCard>("/.well-known/agent-card.json"),
  tools: listedTools,
  x402: () => served<X402Discovery>("/.well-known/x402"),
};
const NAMES: Record<keyof typeof SURFACES, string> = {
  openapi: "/openapi.json",
  agentCard: "/.well-known/agent-card.json",
  tools: "MCP tools/list",
  x402: "/.well-known/x402",
};
const read = new Map<keyof typeof SURFACES, Promise<unknown>>();
/** The surface, or undefined and a finding naming why it could not be read. */
async function surface<K extends keyof typeof SURFACES>(
  f: Findings,
  name: K,
): Promise<Awaited<ReturnType<(typeof SURFACES)[K]>> | undefined> {
  if (!read.has(name)) read.set(name, SURFACES[name]());
  try {
    return (await read.get(name)) as Awaited<ReturnType<(typeof SURFACES)[K]>>;
  } catch (error) {
    f.add(NAMES[name], `cannot be read: ${(error as Error).message}`);
    return undefined;
  }
}

describe(`${CHECK} on ${settings.kind}`, () => {
  caseTest(
    `GET /.well-known/x402 · free · ${CHECK}: every item a paid route, listed in resources`,
    "discovery",
    async () => {
      const f = new Findings(`/.well-known/x402 ${CHECK}`);
      const discovery = await surface(f, "x402");
      if (discovery) {
        const every = paidCases(ALL_PREFIXES);
        const items = Array.isArray(discovery.items) ? discovery.items : [];
        if (!items.length) f.add("/.well-known/x402 items", "lists no paid resource");
        items.forEach((item, index) => {
          if (!every.some((c) => itemsOf(c, discovery).some((found) => found.index === index)))
            f.add(
              `/.well-known/x402 items[${index}]`,
              `${item.method} ${item.resource} is no paid route of the contract`,
            );
        });
        const lines = items.map((item) => `${item.method} ${new URL(String(item.resource)).pathname}`);
        f.equal("/.well-known/x402 resources", discovery.resources, lines, " (each item's method and path)");
      }
      f.assert();
    },
  );

  caseTest(
    `GET /.well-known/agent-card.json · free · ${CHECK}: an A2A v1.0 card, one skill per paid operation`,
    "discovery",
    async () => {
      const f = new Findings(`/.well-known/agent-card.json ${CHECK}`);
      const card = await surface(f, "agentCard");
      if (card) checkAgentCardA2a(f, card, [...new Set(paidCases(ALL_PREFIXES).map(operationName))]);
      f.assert();
    },
  );

  for (const c of paidCases(settings.prefixes))
    caseTest(
      title(c, `${CHECK}: /openapi.json, agent card, tools/list, /.well-known/x402 = the live 402`),
      "discovery",
      async () => {
        const f = new Findings(`${c.label} ${CHECK}`);
        const live = liveChallenge(f, await send(url("analyticsUrl"), c.request, settings.timeoutMs));
        if (live) {
          const openapi = await surface(f, "openapi");
          if (openapi) checkOpenApiAgreement(f, c, openapi, live);
          const card = await surface(f, "agentCard");
          if (card) checkAgentCardAgreement(f, c, card, live);
          const tools = await surface(f, "tools");
          if (tools) checkToolAgreement(f, c, tools, live);
          const discovery = await surface(f, "x402");
          for (const found of discovery ? itemsOf(c, discovery) : []) {
            const { pathname, search } = new URL(String(found.item.resource));
            const probe = { method: found.item.method, path: `${pathname}${search}` };
            const where = `/.well-known/x402 items[${found.index}]: the live 402 of ${probe.method} ${probe.path}`;
            const itemLive = liveChallenge(f, await send(url("analyticsUrl"), probe, settings.timeoutMs), where);
            if (itemLive) checkDiscoveryItem(f, c, found, itemLive);
          }
        }
        f.assert();
      },
    );
});
