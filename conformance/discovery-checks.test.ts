// The discovery judgements catch what they must, naming the surface and the field: the service's own surfaces and
// live challenge (built by its code, as it serves them) pass, then each is broken the way a drifting deployment would
// break it.
import { describe, expect, it } from "vitest";
import { loadAnalyticsContract, type PaidRoute } from "../server/analytics/contract/analytics-contract.js";
import { discoverySurfaces } from "../server/analytics/free/discovery-surfaces.js";
import { challengeV2, encodeHeader } from "../server/analytics/payments/x402/protocols.js";
import { offerAt, routeOffer } from "../server/analytics/payments/x402/requirements.js";
import { loadAnalyticsConfig } from "../server/config/analytics.js";
import { paidTools } from "../server/mcp/paid/catalogue.js";
import { type PaidCase, paidCases } from "./cases.js";
import { Findings, type PaymentRequiredV2 } from "./checks.js";
import {
  type AgentCard,
  checkAgentCardA2a,
  checkAgentCardAgreement,
  checkDiscoveryItem,
  checkIndexerProbe,
  checkOpenApiAgreement,
  checkToolAgreement,
  differences,
  itemsOf,
  type ListedTool,
  type LiveChallenge,
  liveChallenge,
  operationName,
} from "./discovery-checks.js";
import type { Answer } from "./http.js";
import type { OpenApiDoc } from "./openapi-doc.js";
import { ALL_PREFIXES } from "./targets.js";

const ORIGIN = "http://localhost:4021";
const contract = loadAnalyticsContract();
const config = loadAnalyticsConfig({}, contract.developmentDefaults);
const surfaces = discoverySurfaces({ contract, config, settlement: "ledger" });
const cases = paidCases(ALL_PREFIXES);
const caseOf = (operationId: string) => cases.find((c) => c.operationId === operationId) as PaidCase;
const post = caseOf("Base_defiTvl");
const legacy = caseOf("Base_lpPoolsLegacy");

/** The 402 the service answers `c`'s route at `path`: the v1 body and the v2 challenge, as JSON and headers. */
function answerOf(c: PaidCase, path = c.request.path.split("?")[0], edit: (v2: PaymentRequiredV2) => void = () => {}) {
  const route = contract.paid.find((r) => r.operationId === c.operationId) as PaidRoute;
  const routed = routeOffer(route, config, contract.document);
  const offer = offerAt(routed, `${ORIGIN}${path}`);
  const v2 = structuredClone(challengeV2(offer, routed.extensions, "Payment required")) as PaymentRequiredV2;
  edit(v2);
  const body = { x402Version: 1, error: "X-PAYMENT header is required", message: "Pay", accepts: [offer.v1] };
  return {
    status: 402,
    headers: new Headers({ "PAYMENT-REQUIRED": encodeHeader(v2) }),
    contentType: "application/json",
    text: JSON.stringify(body),
    json: body,
  } satisfies Answer;
}

const liveOf = (c: PaidCase, answer = answerOf(c)) => liveChallenge(new Findings("live"), answer) as LiveChallenge;
const openapi = () => JSON.parse((surfaces.openApiJson.get(undefined) as (o: string) => string)(ORIGIN)) as OpenApiDoc;
const card = () => structuredClone(surfaces.agentCard(ORIGIN)) as AgentCard;
const tools = () =>
  [...paidTools(contract, config).values()].map(({ definition }) => structuredClone(definition)) as ListedTool[];

function failure(check: (f: Findings) => void): string {
  const f = new Findings("case");
  check(f);
  try {
    f.assert();
  } catch (error) {
    return (error as Error).message;
  }
  return "";
}

describe("indexer_probe's judgement", () => {
  it("passes the service's 402 on a POST and on a legacy GET with path parameters", () => {
    expect(failure((f) => checkIndexerProbe(f, post, answerOf(post)))).toBe("");
    expect(failure((f) => checkIndexerProbe(f, legacy, answerOf(legacy, "/base/lp/meteora/pools")))).toBe("");
  });

  it("names a 400, a missing header, an empty accepts, and what the Bazaar validators refuse", () => {
    expect(failure((f) => checkIndexerProbe(f, post, { ...answerOf(post), status: 400 }))).toContain(
      "status: expected 402 (an indexer lists only a route that answers it), got 400",
    );
    const bare = { ...answerOf(post), headers: new Headers() };
    expect(failure((f) => checkIndexerProbe(f, post, bare))).toContain("PAYMENT-REQUIRED: header is required");
    const broken = answerOf(post, undefined, (v2) => {
      v2.accepts = [];
      const bazaar = v2.extensions.bazaar as unknown as { info: { input: Record<string, unknown> } };
      bazaar.info.input.method = "GET";
      bazaar.info.input.bodyType = "yaml";
    });
    const message = failure((f) => checkIndexerProbe(f, post, broken));
    expect(message).toContain("PAYMENT-REQUIRED.accepts: must offer at least one requirement");
    expect(message).toMatch(/PAYMENT-REQUIRED\.extensions\.bazaar: validateDiscoveryExtensionSpec: .*bodyType/);
    expect(message).toMatch(/PAYMENT-REQUIRED\.extensions\.bazaar: validateAndExtract: invalid/);
  });
});

describe("discovery_agreement's judgement", () => {
  it("passes the service's own surfaces against its live 402", () => {
    for (const c of [post, legacy, caseOf("Solana_defiTvl")]) {
      const live = liveOf(c);
      expect(failure((f) => checkOpenApiAgreement(f, c, openapi(), live))).toBe("");
      expect(failure((f) => checkAgentCardAgreement(f, c, card(), live))).toBe("");
      expect(failure((f) => checkToolAgreement(f, c, tools(), live))).toBe("");
    }
  });

  it("names the OpenAPI document's price and deployment fields that differ from the live 402", () => {
    const doc = openapi();
    const info = doc.paths["/base/defi/tvl"]?.post?.["x-payment-info"] as unknown as Record<string, object>;
    Object.assign(info, { maxAmountRequired: "2000", price: { ...info.price, amount: "0.002" } });
    Object.assign(info.deployment as object, {
      payTo: "0x0000000000000000000000000000000000000001",
      caip2: "eip155:8453",
    });
    const message = failure((f) => checkOpenApiAgreement(f, post, doc, liveOf(post)));
    expect(message).toContain(
      '/openapi.json POST /base/defi/tvl x-payment-info.price.amount (in micro-USDC): expected "1000" (the live 402\'s accepts[0].maxAmountRequired), got "2000"',
    );
    expect(message).toContain('x-payment-info.maxAmountRequired: expected "1000"');
    expect(message).toContain(
      'x-payment-info.deployment.payTo: expected "0xBab484B2daAFAb4BF6eD642A847517d33d106535" (the live 402\'s accepts[0].payTo), got "0x0000000000000000000000000000000000000001"',
    );
    expect(message).toContain(
      'x-payment-info.deployment.caip2: expected "eip155:84532" (the live 402\'s PAYMENT-REQUIRED.accepts[0].network, CAIP-2), got "eip155:8453"',
    );
    const bare = openapi();
    const priced = bare.paths["/base/defi/tvl"]?.post?.["x-payment-info"] as unknown as Record<string, unknown>;
    delete priced.deployment;
    expect(failure((f) => checkOpenApiAgreement(f, post, bare, liveOf(post)))).toContain(
      "x-payment-info.deployment: is missing",
    );
  });

  it("names the agent card's skill price and network, and a tool's price, that differ", () => {
    const edited = card();
    const skill = edited.skills.find((s) => s.id === "defiTvl") as AgentCard["skills"][number];
    skill.price_micro_usdc = "1500";
    const base = edited.networks.find((n) => n.prefix === "/base") as AgentCard["networks"][number];
    base.network = "base";
    const message = failure((f) => checkAgentCardAgreement(f, post, edited, liveOf(post)));
    expect(message).toContain(
      '/.well-known/agent-card.json skills[defiTvl].price_micro_usdc: expected "1000" (the live 402\'s accepts[0].maxAmountRequired), got "1500"',
    );
    expect(message).toContain(
      '/.well-known/agent-card.json networks[/base].network: expected "base-sepolia" (the live 402\'s accepts[0].network, its v1 name), got "base"',
    );
    const listed = tools();
    const tool = listed.find((t) => t.name === operationName(post)) as ListedTool;
    (tool._meta as Record<string, { amount: string }>)["x402/price"] = { amount: "0.01", currency: "USD" } as never;
    expect(failure((f) => checkToolAgreement(f, post, listed, liveOf(post)))).toContain(
      'MCP tools/list defiTvl._meta["x402/price"].amount (in micro-USDC): expected "1000"',
    );
    expect(failure((f) => checkToolAgreement(f, post, [], liveOf(post)))).toContain("has no tool defiTvl");
  });

  it("passes the service's agent card as A2A v1.0, and names a 0.3 field, a missing interface, extension or skill", () => {
    const operations = [...new Set(cases.map(operationName))];
    expect(failure((f) => checkAgentCardA2a(f, card(), operations))).toBe("");
    const legacy = { ...card(), url: ORIGIN, protocolVersion: "0.3.0" } as AgentCard;
    legacy.supportedInterfaces = [{ url: `${ORIGIN}/`, protocolBinding: "HTTP+JSON", protocolVersion: "1.0" }];
    legacy.capabilities.extensions = [];
    legacy.skills = legacy.skills.filter((s) => s.id !== "defiTvl");
    const message = failure((f) => checkAgentCardA2a(f, legacy, operations));
    expect(message).toContain("/.well-known/agent-card.json url: is A2A 0.3's");
    expect(message).toContain("/.well-known/agent-card.json protocolVersion: is A2A 0.3's");
    expect(message).toContain('supportedInterfaces: has no {protocolBinding: "JSONRPC", protocolVersion: "1.0"}');
    expect(message).toContain("capabilities.extensions: does not declare the x402 extension");
    expect(message).toContain("skills: has no skill defiTvl (one per paid operation)");
    const optional = card();
    const [x402] = optional.capabilities.extensions;
    if (x402) x402.required = false;
    optional.supportedInterfaces = [{ ...(optional.supportedInterfaces[0] as object), url: "/a2a" } as never];
    optional.skills.push({ ...(optional.skills[0] as AgentCard["skills"][number]), id: "notAnOperation" });
    const named = failure((f) => checkAgentCardA2a(f, optional, operations));
    expect(named).toContain("capabilities.extensions[x402].required: expected true (every skill is paid), got false");
    expect(named).toContain('supportedInterfaces[JSONRPC].url\'s path: expected "/a2a" (an absolute URL)');
    expect(named).toContain('skills: ["notAnOperation"]: no paid operation, or listed twice');
  });

  it("finds a route's /.well-known/x402 items by method and template, and names each field that differs", () => {
    const discovery = structuredClone(surfaces.x402Discovery(ORIGIN));
    const [found] = itemsOf(legacy, discovery);
    expect(found?.item.resource).toBe(`${ORIGIN}/base/lp/meteora/pools`);
    expect(itemsOf(post, discovery).map(({ item }) => item.method)).toEqual(["POST"]);
    if (!found) return;
    const live = liveOf(legacy, answerOf(legacy, "/base/lp/meteora/pools"));
    expect(failure((f) => checkDiscoveryItem(f, legacy, found, live))).toBe("");
    const bazaar = found.item.paymentRequired.extensions.bazaar as unknown as {
      info: { input: Record<string, unknown> };
    };
    bazaar.info.input.method = "POST";
    found.item.accepts[0] = { ...(found.item.accepts[0] as object), payTo: "0x01" } as never;
    const message = failure((f) => checkDiscoveryItem(f, legacy, found, live));
    expect(message).toContain(
      `/.well-known/x402 items[${found.index}].accepts[0].payTo: expected "0xBab484B2daAFAb4BF6eD642A847517d33d106535" (the live 402's accepts[0]), got "0x01"`,
    );
    expect(message).toContain(
      `/.well-known/x402 items[${found.index}].paymentRequired.extensions.bazaar.info.input.method: expected "GET" (the live 402's PAYMENT-REQUIRED), got "POST"`,
    );
  });

  it("lists every differing leaf by its path", () => {
    expect(differences({ a: [1, { b: 2 }], c: 3 }, { a: [1, { b: 4 }], d: 3 })).toEqual([
      { path: ".a[1].b", actual: 2, expected: 4 },
      { path: ".c", actual: 3, expected: undefined },
      { path: ".d", actual: undefined, expected: 3 },
    ]);
  });
});
