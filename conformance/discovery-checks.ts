/**
 * The judgements of discovery: what an indexer or a payer learns of a paid route before paying must be what the route
 * answers. `indexer_probe`: x402's Bazaar indexer sends each route the method its declaration names, no payment and
 * no body (or `{}`), and catalogues it only when the answer is a 402 whose v2 challenge its validators
 * (`@x402/extensions/bazaar`) accept. `discovery_agreement`: the served OpenAPI document's `x-payment-info`, the agent
 * card, MCP `tools/list` and `/.well-known/x402` each state a route's price, asset, network, recipient and resource
 * as its live 402 does; each field that disagrees is named with its surface (`/openapi.json … deployment.payTo`);
 * and the agent card is one an A2A v1.0 client can use (its JSON-RPC endpoint, the x402 extension, every operation).
 */
import { isDeepStrictEqual } from "node:util";
import { validateAndExtract, validateDiscoveryExtensionSpec } from "@x402/extensions/bazaar";
import type { components } from "../generated/types/analytics.js";
import { A2A_BINDING, A2A_PATH, A2A_PROTOCOL_VERSION, X402_EXTENSION_URI } from "../server/a2a/protocol.js";
import type { PaidCase } from "./cases.js";
import { decodeHeader, type Findings, type PaymentRequiredV2 } from "./checks.js";
import type { Answer } from "./http.js";
import { microUsdc, type OpenApiDoc } from "./openapi-doc.js";

export type X402Discovery = components["schemas"]["X402Discovery"];
export type DiscoveredResource = components["schemas"]["DiscoveredResource"];
export type AgentCard = components["schemas"]["AgentCard"];
/** A tool as `tools/list` describes it, as far as discovery reads it. */
export interface ListedTool {
  name: string;
  _meta?: Record<string, unknown>;
}
/** The `_meta` key of a tool's price (server/mcp/paid/catalogue.ts). */
export const TOOL_PRICE = "x402/price";

const CHALLENGE = "PAYMENT-REQUIRED";

/** A JSON-like value read as an object (an empty one when it is not). */
const objectOf = (value: unknown): Record<string, unknown> =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** The operation a paid case is a route of: its id without the prefix and the legacy suffix (`defiTvl`). */
export const operationName = (c: PaidCase) =>
  c.operationId.slice(c.operationId.indexOf("_") + 1).replace(/Legacy$/, "");

/**
 * x402's Bazaar indexer probing `c`'s route: a 402 whose `PAYMENT-REQUIRED` decodes to an x402 v2 challenge with at
 * least one requirement, and whose `extensions.bazaar` passes `validateDiscoveryExtensionSpec` and
 * `validateAndExtract` (valid, no errors), declaring the route's method.
 */
export function checkIndexerProbe(f: Findings, c: PaidCase, answer: Answer): void {
  if (answer.status !== 402) {
    f.add(
      "status",
      `expected 402 (an indexer lists only a route that answers it), got ${answer.status}: ${answer.text.slice(0, 300)}`,
    );
    return;
  }
  const header = answer.headers.get(CHALLENGE);
  if (header === null) {
    f.add(CHALLENGE, "header is required (the v2 challenge an indexer reads)");
    return;
  }
  let challenge: Record<string, unknown>;
  try {
    challenge = decodeHeader(header);
  } catch (error) {
    f.add(CHALLENGE, `must be base64 of a JSON object: ${(error as Error).message}`);
    return;
  }
  f.equal(`${CHALLENGE}.x402Version`, challenge.x402Version, 2);
  if (!Array.isArray(challenge.accepts) || !challenge.accepts.length)
    f.add(`${CHALLENGE}.accepts`, `must offer at least one requirement, got ${JSON.stringify(challenge.accepts)}`);
  const bazaar = objectOf(challenge.extensions).bazaar;
  const field = `${CHALLENGE}.extensions.bazaar`;
  if (!bazaar || typeof bazaar !== "object") {
    f.add(field, "is required (what an indexer catalogues)");
    return;
  }
  const spec = validateDiscoveryExtensionSpec(bazaar as Record<string, unknown>);
  if (!spec.valid) f.add(field, `validateDiscoveryExtensionSpec: ${(spec.errors ?? []).join("; ")}`);
  let extracted: ReturnType<typeof validateAndExtract>;
  try {
    extracted = validateAndExtract(bazaar as Parameters<typeof validateAndExtract>[0]);
  } catch (error) {
    f.add(field, `validateAndExtract threw: ${(error as Error).message}`);
    return;
  }
  if (!extracted.valid || extracted.errors?.length)
    f.add(
      field,
      `validateAndExtract: ${extracted.valid ? "valid" : "invalid"}, ${(extracted.errors ?? []).join("; ") || "no errors named"}`,
    );
  const input = objectOf(objectOf(extracted.info).input);
  f.equal(`${field}.info.input.type`, input.type, "http");
  f.equal(`${field}.info.input.method`, input.method, c.method, " (the route's method)");
}

/** A route's live 402: the v1 body's requirement and the decoded v2 challenge. */
export interface LiveChallenge {
  v1: Record<string, unknown>;
  v2: PaymentRequiredV2;
}

/** The live 402 of an answer, or undefined (and a finding, under `where`) when it is not one. */
export function liveChallenge(f: Findings, answer: Answer, where = "live 402"): LiveChallenge | undefined {
  const v1 = objectOf((objectOf(answer.json).accepts as unknown[] | undefined)?.[0]);
  const header = answer.headers.get(CHALLENGE);
  if (answer.status !== 402 || !header || !Object.keys(v1).length) {
    f.add(where, `expected the route's challenge, got ${answer.status}: ${answer.text.slice(0, 200)}`);
    return undefined;
  }
  try {
    return { v1, v2: decodeHeader(header) as PaymentRequiredV2 };
  } catch (error) {
    f.add(`${where} ${CHALLENGE}`, `does not decode: ${(error as Error).message}`);
    return undefined;
  }
}

/** What each surface is held to: the live 402's amount, asset, networks (v1 name, CAIP-2) and recipient. */
function facts(live: LiveChallenge) {
  const v2 = objectOf(live.v2.accepts[0]);
  return {
    amount: { v1: live.v1.maxAmountRequired, v2: v2.amount },
    network: live.v1.network,
    caip2: v2.network,
    asset: { v1: live.v1.asset, v2: v2.asset },
    payTo: { v1: live.v1.payTo, v2: v2.payTo },
  };
}

const V1 = " (the live 402's accepts[0]";
const V2 = ` (the live 402's ${CHALLENGE}.accepts[0]`;

/** `actual` against the same field of both live challenges (one finding per version that disagrees). */
function againstBoth(
  f: Findings,
  field: string,
  actual: unknown,
  live: { v1: unknown; v2: unknown },
  v1Key: string,
  v2Key: string,
) {
  f.equal(field, actual, live.v1, `${V1}.${v1Key})`);
  if (!isDeepStrictEqual(live.v1, live.v2)) f.equal(field, actual, live.v2, `${V2}.${v2Key})`);
}

/** A USD price as micro-USDC, or the text itself when it is not a price (so that the finding shows it). */
const micro = (usd: unknown) => {
  try {
    return microUsdc(String(usd));
  } catch {
    return `not a USD price: ${JSON.stringify(usd)}`;
  }
};

/**
 * The served OpenAPI document on `c`'s operation: `x-payment-info`'s price (USD, and `maxAmountRequired` in
 * micro-USDC) is the live amount, and its `deployment` names the live 402's network (its v1 name and CAIP-2 id),
 * asset and recipient.
 */
export function checkOpenApiAgreement(f: Findings, c: PaidCase, doc: OpenApiDoc, live: LiveChallenge): void {
  const surface = `/openapi.json ${c.method} ${c.template} x-payment-info`;
  const info = objectOf(objectOf(doc.paths[c.template]?.[c.method.toLowerCase()])["x-payment-info"]);
  if (!Object.keys(info).length) {
    f.add(surface, "is missing: the served document does not price the route");
    return;
  }
  const want = facts(live);
  againstBoth(
    f,
    `${surface}.price.amount (in micro-USDC)`,
    micro(objectOf(info.price).amount),
    want.amount,
    "maxAmountRequired",
    "amount",
  );
  againstBoth(f, `${surface}.maxAmountRequired`, info.maxAmountRequired, want.amount, "maxAmountRequired", "amount");
  const deployment = objectOf(info.deployment);
  if (!Object.keys(deployment).length) {
    f.add(`${surface}.deployment`, "is missing: the served document names no network, asset or payTo");
    return;
  }
  f.equal(`${surface}.deployment.network`, deployment.network, want.network, `${V1}.network, its v1 name)`);
  f.equal(`${surface}.deployment.caip2`, deployment.caip2, want.caip2, `${V2}.network, CAIP-2)`);
  againstBoth(f, `${surface}.deployment.asset`, deployment.asset, want.asset, "asset", "asset");
  againstBoth(f, `${surface}.deployment.payTo`, deployment.payTo, want.payTo, "payTo", "payTo");
}

/**
 * The agent card on `c`'s operation: its skill's price (USD and micro-USDC) is the live amount (a root-prefix POST is
 * the skill's own endpoint), and the network it lists for `c`'s prefix is the live 402's (v1 name, CAIP-2, asset,
 * recipient).
 */
export function checkAgentCardAgreement(f: Findings, c: PaidCase, card: AgentCard, live: LiveChallenge): void {
  const name = operationName(c);
  const surface = "/.well-known/agent-card.json";
  const want = facts(live);
  const skill = (Array.isArray(card.skills) ? card.skills : []).find((s) => s.id === name);
  if (!skill) f.add(`${surface} skills`, `has no skill ${name} (one per paid operation)`);
  else {
    const field = `${surface} skills[${name}]`;
    againstBoth(f, `${field}.price_micro_usdc`, skill.price_micro_usdc, want.amount, "maxAmountRequired", "amount");
    againstBoth(
      f,
      `${field}.price_usd (in micro-USDC)`,
      micro(skill.price_usd),
      want.amount,
      "maxAmountRequired",
      "amount",
    );
    if (c.prefix.prefix === "" && !c.legacy) f.equal(`${field}.endpoint`, skill.endpoint, `POST ${c.template}`);
  }
  const network = (Array.isArray(card.networks) ? card.networks : []).find((n) => n.prefix === c.prefix.prefix);
  if (!network) {
    f.add(`${surface} networks`, `lists no network for the prefix "${c.prefix.prefix || "/"}"`);
    return;
  }
  const field = `${surface} networks[${c.prefix.prefix || "/"}]`;
  f.equal(`${field}.network`, network.network, want.network, `${V1}.network, its v1 name)`);
  f.equal(`${field}.caip2`, network.caip2, want.caip2, `${V2}.network, CAIP-2)`);
  againstBoth(f, `${field}.asset`, network.asset, want.asset, "asset", "asset");
  againstBoth(f, `${field}.payTo`, network.payTo, want.payTo, "payTo", "payTo");
}

/** A2A 0.3's top-level fields: an A2A v1.0 client (`@a2a-js/sdk`) reads a card carrying any of them as a 0.3 card. */
const A2A_03_FIELDS = ["url", "protocolVersion", "preferredTransport", "additionalInterfaces"];

/** The card's interfaces: one of the JSON-RPC binding, A2A 1.0, at an absolute URL whose path is `/a2a`. */
function checkA2aInterfaces(f: Findings, surface: string, card: Record<string, unknown>): void {
  for (const field of A2A_03_FIELDS.filter((name) => name in card))
    f.add(`${surface} ${field}`, "is A2A 0.3's: an A2A v1.0 client reads a card carrying it as a 0.3 card");
  const interfaces = (Array.isArray(card.supportedInterfaces) ? card.supportedInterfaces : []).map(objectOf);
  const jsonRpc = interfaces.find(
    (i) => i.protocolBinding === A2A_BINDING && i.protocolVersion === A2A_PROTOCOL_VERSION,
  );
  if (!jsonRpc) {
    f.add(
      `${surface} supportedInterfaces`,
      `has no {protocolBinding: "${A2A_BINDING}", protocolVersion: "${A2A_PROTOCOL_VERSION}"} interface, got ${JSON.stringify(card.supportedInterfaces)}`,
    );
    return;
  }
  let path: string | undefined;
  try {
    path = new URL(String(jsonRpc.url)).pathname;
  } catch {}
  f.equal(`${surface} supportedInterfaces[${A2A_BINDING}].url's path`, path, A2A_PATH, " (an absolute URL)");
}

/**
 * The agent card as an A2A v1.0 client reads it: no 0.3 top-level field, a JSON-RPC interface of version 1.0 at
 * `/a2a`, the x402 extension declared and required, and exactly one skill per paid operation (`operations`, the
 * operations' names).
 */
export function checkAgentCardA2a(f: Findings, card: AgentCard, operations: readonly string[]): void {
  const surface = "/.well-known/agent-card.json";
  const raw = objectOf(card);
  checkA2aInterfaces(f, surface, raw);
  const extensions = objectOf(raw.capabilities).extensions;
  const x402 = (Array.isArray(extensions) ? extensions : []).map(objectOf).find((e) => e.uri === X402_EXTENSION_URI);
  if (!x402) f.add(`${surface} capabilities.extensions`, `does not declare the x402 extension ${X402_EXTENSION_URI}`);
  else f.equal(`${surface} capabilities.extensions[x402].required`, x402.required, true, " (every skill is paid)");
  const ids = (Array.isArray(raw.skills) ? raw.skills : []).map((skill) => objectOf(skill).id);
  const missing = operations.filter((name) => !ids.includes(name));
  if (missing.length) f.add(`${surface} skills`, `has no skill ${missing.join(", ")} (one per paid operation)`);
  const extra = ids.filter((id, i) => !operations.includes(id as string) || ids.indexOf(id) !== i);
  if (extra.length)
    f.add(`${surface} skills`, `${JSON.stringify(extra)}: no paid operation, or listed twice (one per paid operation)`);
}

/** MCP `tools/list` on `c`'s operation: its tool exists, and its price, where `_meta` states one, is the live amount. */
export function checkToolAgreement(f: Findings, c: PaidCase, tools: readonly ListedTool[], live: LiveChallenge): void {
  const name = operationName(c);
  const tool = tools.find((t) => t.name === name);
  if (!tool) {
    f.add("MCP tools/list", `has no tool ${name} (one per paid operation)`);
    return;
  }
  const price = objectOf(tool._meta?.[TOOL_PRICE]);
  if (!Object.keys(price).length) return; // a tool need not state its price before it is called
  const field = `MCP tools/list ${name}._meta["${TOOL_PRICE}"]`;
  f.equal(`${field}.currency`, price.currency, "USD");
  againstBoth(
    f,
    `${field}.amount (in micro-USDC)`,
    micro(price.amount),
    facts(live).amount,
    "maxAmountRequired",
    "amount",
  );
}

/** The items of `/.well-known/x402` that are `c`'s route (its method, a path its template matches). */
export function itemsOf(c: PaidCase, discovery: X402Discovery): { item: DiscoveredResource; index: number }[] {
  const pattern = new RegExp(`^${c.template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`);
  const path = (resource: string) => {
    try {
      return new URL(resource).pathname;
    } catch {
      return resource;
    }
  };
  return (Array.isArray(discovery.items) ? discovery.items : [])
    .map((item, index) => ({ item, index }))
    .filter(({ item }) => item.method === c.method && pattern.test(path(String(item.resource))));
}

/** Every leaf where `actual` and `expected` differ, as `.a.b[0]` paths. */
export function differences(
  actual: unknown,
  expected: unknown,
  at = "",
): { path: string; actual: unknown; expected: unknown }[] {
  const bothObjects = actual && expected && typeof actual === "object" && typeof expected === "object";
  if (!bothObjects || Array.isArray(actual) !== Array.isArray(expected))
    return isDeepStrictEqual(actual, expected) ? [] : [{ path: at, actual, expected }];
  const keys = Array.isArray(expected)
    ? [...Array(Math.max((actual as unknown[]).length, expected.length)).keys()]
    : [...new Set([...Object.keys(actual as object), ...Object.keys(expected as object)])];
  return keys.flatMap((key) =>
    differences(
      (actual as Record<string, unknown>)[key],
      (expected as Record<string, unknown>)[key],
      typeof key === "number" ? `${at}[${key}]` : `${at}.${key}`,
    ),
  );
}

const MAX_NAMED = 12;

/** Each field of `actual` (a surface's) that is not the live one, up to a dozen, then how many more. */
function sameAsLive(f: Findings, surface: string, actual: unknown, expected: unknown, live: string): void {
  const found = differences(actual, expected);
  for (const d of found.slice(0, MAX_NAMED))
    f.add(`${surface}${d.path}`, `expected ${JSON.stringify(d.expected)} (${live}), got ${JSON.stringify(d.actual)}`);
  if (found.length > MAX_NAMED) f.add(surface, `and ${found.length - MAX_NAMED} more fields differ from ${live}`);
}

/**
 * An item of `/.well-known/x402` against the live 402 of its own resource (probed as an indexer would: its method, no
 * payment, no body): `method` the route's, `accepts` exactly the v1 body's, `paymentRequired` exactly the v2
 * challenge but for the offers a challenge signs as it is issued (`extensions["offer-receipt"]`); its Bazaar
 * extension included.
 */
export function checkDiscoveryItem(
  f: Findings,
  c: PaidCase,
  found: { item: DiscoveredResource; index: number },
  live: LiveChallenge,
): void {
  const surface = `/.well-known/x402 items[${found.index}]`;
  const { item } = found;
  f.equal(`${surface}.method`, item.method, c.method, " (the route's method)");
  f.equal(`${surface}.resource`, item.resource, live.v1.resource, `${V1}.resource)`);
  const accepts = Array.isArray(item.accepts) ? item.accepts : [];
  f.equal(`${surface}.accepts.length`, accepts.length, 1, " (the live 402's)");
  sameAsLive(f, `${surface}.accepts[0]`, accepts[0], live.v1, "the live 402's accepts[0]");
  const { "offer-receipt": _signed, ...extensions } = objectOf(live.v2.extensions);
  const { "offer-receipt": _listed, ...listed } = objectOf(objectOf(item.paymentRequired).extensions);
  sameAsLive(
    f,
    `${surface}.paymentRequired`,
    { ...objectOf(item.paymentRequired), extensions: listed },
    { ...live.v2, extensions },
    `the live 402's ${CHALLENGE}`,
  );
}
