/**
 * The front of `npm run mock`: a small Express app before one Prism process. Prism stays the
 * engine (request validation, the contract's examples, `Prefer: code=...` for any documented
 * status); the front makes paid operations charge like the service (mock-payments.ts) and serves
 * what Prism cannot: the document itself (`/openapi.json`, by network too), its `/docs` page, and the
 * `/.well-known/did.json` of the fixed key it signs offers and receipts with (mock-payments.ts).
 *
 * A paid request that asks for an answer (no `Prefer`, or `Prefer: code=200|206`):
 * - is first sent to Prism as `Prefer: code=402` (a POST without a body as `{}`, which the service reads
 *   as "all defaults"), so that Prism judges its input; a valid one gets the contract's challenge;
 * - without `PAYMENT-SIGNATURE` or `X-PAYMENT` answers that challenge whatever its input, `resource` at
 *   the mock's own origin, with the v2 challenge of the service's own offer in `PAYMENT-REQUIRED`; input
 *   that breaks the contract is named in the body's `errors`, with the service's "Fix … before paying"
 *   message (docs/payments.md, "Input and the challenge"), so that an indexer's probe gets its 402;
 * - with a payment header and input that breaks the contract answers the service's 400 naming each
 *   field, before the payment is looked at;
 * - with a header that is not base64 JSON, or both headers, answers 400 `invalid_payload` naming
 *   them; with a payment for another version, scheme or network, a v2 `accepted` that is not the
 *   offer, or an unreadable payload, the challenge naming the reason;
 * - with a well-formed payment goes to Prism as asked, and a 2xx answer gets a mock receipt in the
 *   header of the version paid in (`PAYMENT-RESPONSE` or `X-PAYMENT-RESPONSE`).
 * Beside Prism's judgement of the input, the front names what Prism cannot, with the service's code and
 * words: a POST body that is not JSON; a body field the operation does not have (the contract closes
 * every body with `unevaluatedProperties`, which Prism does not apply); a Solana address whose base58
 * text is not 32 bytes. A registry name that breaks the name rule documented on `AgentName`
 * (normalization, then 3 to 32 characters of a-z, 0-9 and single separators), which no schema of the
 * raw path can express, is the registry's 400 (a free service: no challenge).
 * The analytics front serves the discovery surfaces as the service builds them (discovery-surfaces.ts,
 * from the mock's configuration): `/openapi.json` with each route's `deployment`, the agent card and
 * `/.well-known/x402`, at the mock's own origin, so that they agree with its live challenges.
 * Prism's own x402 headers are placeholders generated from the schema: the front never relays them,
 * nor Prism's CORS headers: the front answers browsers (preflights too) with the service's policy.
 * Any other `Prefer` status (402, 400, 404, 500, 502) is Prism's example, never charged. A request
 * Prism finds invalid gets the service's 400 body naming each field (from Prism's `sl-violations`).
 * `/mcp` serves the paid tools and `/a2a` the paid skills, charged the same way (mock-tools.ts, mock-skills.ts),
 * without Prism.
 */
import { randomUUID } from "node:crypto";
import express, { type Request, type RequestHandler, type Response } from "express";
import type { components } from "../generated/types/analytics.js";
import { NETWORKS } from "../lib/networks.js";
import type { A2aEndpoint } from "../server/a2a/a2a-endpoint.js";
import { A2A_PATH } from "../server/a2a/protocol.js";
import { loadAnalyticsContract } from "../server/analytics/contract/analytics-contract.js";
import { type DiscoverySurfaces, discoverySurfaces } from "../server/analytics/free/discovery-surfaces.js";
import { didDocument } from "../server/analytics/payments/x402/receipts/did.js";
import { offerAt } from "../server/analytics/payments/x402/requirements.js";
import { solanaAddressErrors } from "../server/analytics/segments/input-rules.js";
import { ANALYTICS_CORS, cors, REGISTRY_CORS } from "../server/http/cors.js";
import { type FieldError, invalidField, invalidInput, toErrorResponse } from "../server/http/errors.js";
import { handlerChain } from "../server/http/handler-chain.js";
import {
  bodyOrDefaults,
  type ParsedRequest,
  refuseDeepBodies,
  refuseOtherCharsets,
} from "../server/http/input-guard.js";
import { createLogger } from "../server/http/logger.js";
import { MCP_PATH, mcpEndpoint } from "../server/mcp/streamable-endpoint.js";
import { DOCS_ASSETS_PATH, docsAssets, referencePage } from "../server/reference-page/reference-page.js";
import { MAX_AGE } from "../server/registry/handlers.js";
import { checkName } from "../server/registry/names.js";
import { type MockCalls, mockCalls } from "./mock-calls.js";
import { type MockLookups, mockLookups } from "./mock-lookups.js";
import {
  challengeAnswer,
  inputToFix,
  type MockAnswer,
  type MockRoute,
  malformedAnswer,
  mockConfig,
  mockReceipt,
  mockRoutes,
  readPayment,
  unknownFieldErrors,
} from "./mock-payments.js";
import { mockSkillsEndpoint } from "./mock-skills.js";
import { mockToolServer } from "./mock-tools.js";
import { loadDoc, type OpenApiDoc } from "./openapi-doc.js";

type PaymentRequiredBody = components["schemas"]["X402.PaymentRequiredBody"];

/** Headers that belong to one hop, never forwarded either way. */
const HOP_BY_HOP = new Set([
  "host",
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "accept-encoding",
  "content-encoding",
]);
/** The x402 headers, which the front alone writes (Prism would send schema placeholders). */
/** The `Cache-Control` of the services' documents and pages. */
const DOCUMENT_CACHE = `public, max-age=${MAX_AGE.document}`;
const X402_HEADERS = new Set(["payment-required", "payment-response", "x-payment-response"]);

interface PaidOperation extends MockRoute {
  method: string;
  pattern: RegExp;
  /** The contract's 402 example of the operation: what Prism answers a valid request asked for its challenge. */
  contractChallenge: PaymentRequiredBody;
}

/** A path template (`/agents/{name}`) as a pattern of the paths it stands for, capturing each parameter. */
const templatePattern = (template: string) =>
  new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "([^/]+)")}$`);

type Examples = { responses: Record<string, { content?: Record<string, { example?: unknown }> }> };

function paidOperations(document: OpenApiDoc): PaidOperation[] {
  return mockRoutes().map(({ route, offer }) => {
    const operation = document.paths[route.path]?.[route.method] as Examples | undefined;
    const example = operation?.responses["402"]?.content?.["application/json"]?.example;
    if (!example) throw new Error(`${route.operationId}: the contract has no 402 example`);
    return {
      route,
      offer,
      method: route.method.toUpperCase(),
      pattern: templatePattern(route.path),
      contractChallenge: example as PaymentRequiredBody,
    };
  });
}

/**
 * The analytics discovery surfaces as the service builds them, from the mock's configuration: the documents with each
 * route's `deployment` (settled on the embedded ledger's terms: simulated, any well-formed payment), the agent card,
 * `/.well-known/x402`.
 */
function mockSurfaces(): DiscoverySurfaces {
  const contract = loadAnalyticsContract();
  return discoverySurfaces({ contract, config: mockConfig(contract), settlement: "ledger" });
}

/** The documents the front serves: the whole one, and for the analytics service one per network. */
function servedDocuments(service: "analytics" | "registry"): Map<string | undefined, OpenApiDoc> {
  const whole = loadDoc("3.1", service);
  return new Map([
    [undefined, whole],
    ...NETWORKS.map(({ name }) => [name, loadDoc("3.1", `analytics-${name}`)] as const),
  ]);
}

const LOCATIONS = new Set(["body", "query", "path", "header"]);

/**
 * What the service's handler would be given: a POST's JSON body, or a legacy GET's query and path parameters;
 * undefined for a body that is not a JSON object (Prism answers that).
 */
function inputOf(operation: PaidOperation, req: Request): Record<string, unknown> | undefined {
  if (operation.method === "GET") {
    const names = [...operation.route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
    // Express decodes a path's parameters before the service reads them (a capture that is not percent-encoding: Prism answers it)
    let values: string[];
    try {
      values = (operation.pattern.exec(req.path)?.slice(1) ?? []).map(decodeURIComponent);
    } catch {
      return undefined;
    }
    return {
      ...Object.fromEntries(new URLSearchParams(req.originalUrl.split("?")[1] ?? "")),
      ...Object.fromEntries(names.map((n, i) => [n, values[i]])),
    };
  }
  if (!Buffer.isBuffer(req.body) || !req.body.length) return {};
  try {
    const parsed: unknown = JSON.parse(req.body.toString("utf8"));
    return parsed && typeof parsed === "object" && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A POST body the service cannot read, named as the service names it: sent as another media type than JSON, or not
 * JSON at all (Prism answers the one with its 415, the other with a body of its own).
 */
function unreadableBody(operation: PaidOperation, req: Request): FieldError | undefined {
  if (operation.method !== "POST" || !Buffer.isBuffer(req.body) || !req.body.length) return undefined;
  if (!req.is("application/json"))
    return { location: "header", field: "content-type", message: "must be application/json" };
  try {
    JSON.parse(req.body.toString("utf8"));
    return undefined;
  } catch {
    return { location: "body", field: "body", message: "is not valid JSON" };
  }
}

/**
 * What the front itself finds wrong with a paid request's input, with the service's code: a body that is not JSON, a
 * body field the operation does not have, a Solana address whose base58 text is not 32 bytes. `unreadable`: the body
 * could not be read at all (nothing else of it can be judged, by the front or by Prism).
 */
function ownErrors(operation: PaidOperation, req: Request): { errors: FieldError[]; unreadable: boolean } {
  const unreadable = unreadableBody(operation, req);
  if (unreadable) return { errors: [unreadable], unreadable: true };
  const input = inputOf(operation, req);
  const errors = input
    ? [...unknownFieldErrors(operation.route, input), ...solanaAddressErrors(operation.route, input)]
    : [];
  return { errors, unreadable: false };
}

/** The registry's paths that name an agent (their one parameter, `{name}`, an `AgentName`), as patterns capturing it. */
const namedPaths = (doc: OpenApiDoc) =>
  Object.keys(doc.paths)
    .filter((path) => path.includes("{name}"))
    .map(templatePattern);

/** The service's 400 for a GET whose agent name breaks the name rule; undefined for any other request. */
function nameRuleAnswer(patterns: RegExp[], req: Request): MockAnswer | undefined {
  const raw =
    req.method === "GET" || req.method === "HEAD"
      ? patterns.map((p) => p.exec(req.path)?.[1]).find((name) => name !== undefined)
      : undefined;
  if (raw === undefined) return undefined;
  let name: string;
  try {
    name = decodeURIComponent(raw);
  } catch {
    return undefined; // not percent-encoding: Prism answers it
  }
  const check = checkName(name);
  return check.status === "invalid" ? toErrorResponse(invalidField("path", "name", check.message)) : undefined;
}

/** Prism's validation failures (its `sl-violations` header) as the service's 400 body, or undefined when there are none. */
export function validationAnswer(header: string | null): MockAnswer | undefined {
  let violations: { location?: string[]; message?: string }[];
  try {
    violations = JSON.parse(header ?? "[]");
  } catch {
    return undefined;
  }
  const errors = violations.map(({ location = [], message = "" }) => {
    const [, where = "body", ...field] = location;
    const missing = /required property '([^']+)'/.exec(message)?.[1];
    return {
      location: LOCATIONS.has(where) ? where : "body",
      field: [...field, ...(missing ? [missing] : [])].join(".") || where,
      message: /\b(must .*)$/.exec(message)?.[1] ?? message,
    };
  });
  if (!errors.length) return undefined;
  const message = errors.map((e) => `${e.field}: ${e.message}`).join("; ");
  return { status: 400, headers: {}, body: { error: "invalid_request", message, errors } };
}

const preferredStatus = (req: Request) => Number(/\bcode=(\d{3})\b/.exec(req.get("prefer") ?? "")?.[1]) || undefined;
const originOf = (req: Request) => `${req.protocol}://${req.get("host")}`;
/** The operation's offer for the URL requested, at the mock's origin. */
const offerFor = (req: Request, operation: PaidOperation) => offerAt(operation.offer, `${originOf(req)}${req.path}`);

/** A paid POST without a body, as the service reads it: `{}`, every field at its default. */
const NO_BODY = Buffer.from("{}");

/**
 * The request sent on to Prism (with `prefer` when given), and its answer read whole. `paid`: a paid operation's,
 * whose POST without a body is sent as `{}` (Prism would refuse the missing body the service reads as defaults).
 */
async function forward(prismUrl: string, req: Request, prefer?: string, paid = false) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined && !HOP_BY_HOP.has(name))
      headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  if (prefer) headers.set("prefer", prefer);
  let body = Buffer.isBuffer(req.body) && req.body.length ? req.body : undefined;
  if (!body && paid && req.method === "POST") {
    body = NO_BODY;
    headers.set("content-type", "application/json");
  }
  const response = await fetch(`${prismUrl}${req.originalUrl}`, { method: req.method, headers, body });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

type PrismAnswer = Awaited<ReturnType<typeof forward>>;

/** Prism's answer without its hop, x402 and CORS headers; its 400 as the service's body. */
function relay(res: Response, answer: PrismAnswer, extra: Record<string, string> = {}) {
  const invalid = answer.status === 400 ? validationAnswer(answer.headers.get("sl-violations")) : undefined;
  res.status(answer.status);
  answer.headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name) && !X402_HEADERS.has(name) && !name.startsWith("access-control-"))
      res.setHeader(name, value);
  });
  if (invalid) res.json(invalid.body);
  else res.set(extra).end(answer.body);
}

const send = (res: Response, answer: MockAnswer) => res.status(answer.status).set(answer.headers).json(answer.body);

/** The contract's 402 for this request from Prism (or Prism's 400 when the request itself is invalid), at the mock's origin. */
async function challenge(
  prismUrl: string,
  req: Request,
  res: Response,
  operation: PaidOperation,
  refusal?: Parameters<typeof challengeAnswer>[3],
) {
  const probe = await forward(prismUrl, req, "code=402", true);
  if (probe.status !== 402) return relay(res, probe);
  send(
    res,
    challengeAnswer(JSON.parse(probe.body.toString("utf8")), offerFor(req, operation), operation.offer, refusal),
  );
}

/** The field errors of Prism's refusal of a request (its 400 with `sl-violations`), or undefined for any other answer. */
function prismErrors(answer: PrismAnswer): FieldError[] | undefined {
  if (answer.status !== 400) return undefined;
  return (validationAnswer(answer.headers.get("sl-violations"))?.body as { errors?: FieldError[] } | undefined)?.errors;
}

/**
 * The 402 of a request without payment, whatever its input: Prism judges what the front has not found wrong already,
 * and every error is named in the body. When Prism refuses the request, the challenge is the contract's own example
 * (what Prism answers a valid one).
 */
async function unpaidChallenge(
  prismUrl: string,
  req: Request,
  res: Response,
  operation: PaidOperation,
  own: ReturnType<typeof ownErrors>,
) {
  let contractBody = operation.contractChallenge;
  let errors = own.errors;
  if (!own.unreadable) {
    const probe = await forward(prismUrl, req, "code=402", true);
    const refused = prismErrors(probe);
    if (probe.status === 402) contractBody = JSON.parse(probe.body.toString("utf8"));
    else if (refused) errors = [...errors, ...refused];
    else return relay(res, probe);
  }
  const input = errors.length ? inputToFix(operation, errors) : undefined;
  send(res, challengeAnswer(contractBody, offerFor(req, operation), operation.offer, undefined, input));
}

/**
 * The front's own documents: `/openapi.json` and `/docs` (by network too) and the receipts' `did.json`. True when
 * the request was one of them and is answered.
 */
function servedDocument(
  documents: Map<string | undefined, OpenApiDoc>,
  surfaces: DiscoverySurfaces | undefined,
  receiptKey: ReturnType<typeof mockConfig>["receipts"] | undefined,
  req: Request,
  res: Response,
): boolean {
  const network = req.query.network as string | undefined;
  // The documents and their page are cacheable as the services serve them (the registry's contract requires it).
  if (req.method === "GET" && (req.path === "/openapi.json" || req.path === "/docs"))
    res.set("Cache-Control", DOCUMENT_CACHE);
  const deployed = surfaces?.openApiJson.get(network);
  if (req.method === "GET" && req.path === "/openapi.json" && deployed) {
    res.type("application/json").send(deployed(originOf(req)));
    return true;
  }
  if (req.method === "GET" && req.path === "/openapi.json" && documents.has(network)) {
    res.json({
      ...documents.get(network),
      servers: [{ url: originOf(req), description: "The mock (npm run mock)" }],
    });
    return true;
  }
  if (req.method === "GET" && req.path === "/.well-known/x402" && surfaces) {
    res.json(surfaces.x402Discovery(originOf(req)));
    return true;
  }
  if (req.method === "GET" && req.path === "/.well-known/agent-card.json" && surfaces) {
    res.json(surfaces.agentCard(originOf(req)));
    return true;
  }
  if (req.method === "GET" && req.path === "/docs" && documents.has(network)) {
    const { title } = (documents.get(network) as OpenApiDoc).info;
    const documentUrl = network ? `/openapi.json?network=${network}` : "/openapi.json";
    res.type("text/html").send(referencePage({ title: `${title} (mock)`, documentUrl }));
    return true;
  }
  if (req.method === "GET" && req.path === "/.well-known/did.json" && receiptKey) {
    res.json(didDocument(originOf(req), receiptKey));
    return true;
  }
  return false;
}

/**
 * A paid operation asked for its answer: challenged without payment (its input's errors named), refused with a 400
 * when paid with input that breaks the contract, or answered by Prism with a receipt.
 */
async function paidAnswer(
  prismUrl: string,
  operation: PaidOperation,
  req: Request,
  res: Response,
  lookups: MockLookups,
): Promise<void> {
  const own = ownErrors(operation, req);
  const offer = offerFor(req, operation);
  const payment = readPayment((name) => req.get(name), offer);
  if (payment.kind === "none") return await unpaidChallenge(prismUrl, req, res, operation, own);
  if (own.errors.length) {
    send(res, toErrorResponse(invalidInput(own.errors)));
    return;
  }
  if (payment.kind === "refused") return await challenge(prismUrl, req, res, operation, payment);
  if (payment.kind === "malformed") {
    const probe = await forward(prismUrl, req, "code=402", true);
    if (probe.status === 402) send(res, malformedAnswer(payment));
    else relay(res, probe);
    return;
  }
  const answer = await forward(prismUrl, req, undefined, true);
  const signing = { receipts: operation.offer.receipts, answerBody: answer.body.toString("utf8") };
  const receipt = answer.status < 300 ? mockReceipt(payment, offer, signing) : {};
  const header = Object.values(receipt)[0];
  if (header) lookups.remember(payment, offer.v2.amount, header);
  relay(res, answer, receipt);
}

/** A POST's body as the service reads an agent endpoint's (server/analytics/app.ts): JSON, no other charset, not too deep. */
const agentBody = handlerChain<ParsedRequest, Response>([
  refuseOtherCharsets,
  express.json({ limit: "100kb" }) as never,
  bodyOrDefaults,
  refuseDeepBodies,
]);

/**
 * The service's A2A endpoint over the mock's skills (mock-skills.ts), built on its first request, its body read as the
 * service reads it: a body the service cannot read is the endpoint's JSON-RPC parse error, as the service's front answers.
 */
function a2aRoute(calls: () => MockCalls): RequestHandler {
  let endpoint: A2aEndpoint | undefined;
  return (req, res, next) => {
    endpoint ??= mockSkillsEndpoint(calls());
    const served = endpoint;
    const request = req as ParsedRequest;
    request.requestId = randomUUID();
    if (req.method !== "POST") return void served.serve(request, res).catch(next);
    agentBody(request, res, (error) => {
      if (!error) return void served.serve(request, res).catch(next);
      if (toErrorResponse(error).status === 400) return served.unreadable(error, request, res);
      next(error);
    });
  };
}

export function mockFront(service: "analytics" | "registry", prismUrl: string): express.Express {
  const documents = servedDocuments(service);
  const paid = service === "analytics" ? paidOperations(documents.get(undefined) as OpenApiDoc) : [];
  const receiptKey = service === "analytics" ? mockConfig().receipts : undefined;
  const surfaces = service === "analytics" ? mockSurfaces() : undefined;
  const named = service === "registry" ? namedPaths(documents.get(undefined) as OpenApiDoc) : [];
  const lookups = mockLookups(documents.get(undefined) as OpenApiDoc);
  const app = express();
  app.disable("x-powered-by");
  // Browsers are answered as by the service, the front's own answers (402, 400) included; Prism's CORS headers are not relayed.
  app.use(cors(service === "analytics" ? ANALYTICS_CORS : REGISTRY_CORS));
  app.use(DOCS_ASSETS_PATH, docsAssets());
  // The paid tools over MCP and the paid skills over A2A, charged as the service charges them (mock-calls.ts, one
  // judgement of a call for both); the mock answers its own names only.
  let calls: MockCalls | undefined;
  const callsOnce = () => {
    calls ??= mockCalls();
    return calls;
  };
  if (service === "analytics") {
    app.all(
      MCP_PATH,
      express.json({ limit: "100kb" }),
      mcpEndpoint(() => mockToolServer(callsOnce(), lookups), {
        publicBaseUrl: undefined,
        trustProxy: false,
        logger: createLogger("silent"),
      }),
    );
    app.all(A2A_PATH, a2aRoute(callsOnce));
  }
  app.use(express.raw({ type: () => true, limit: "1mb" }));

  app.use(async (req, res, next) => {
    try {
      if (servedDocument(documents, surfaces, receiptKey, req, res)) return;
      const misnamed = nameRuleAnswer(named, req);
      if (misnamed) return send(res, misnamed);
      const lookup = req.method === "GET" && service === "analytics" ? await lookups.answer(req.path) : undefined;
      if (lookup) return send(res, lookup);
      const operation = paid.find((p) => p.method === req.method && p.pattern.test(req.path));
      const preferred = preferredStatus(req);
      if (!operation || (preferred !== undefined && preferred !== 200 && preferred !== 206)) {
        if (operation && preferred === 402) return await challenge(prismUrl, req, res, operation);
        return relay(res, await forward(prismUrl, req));
      }
      await paidAnswer(prismUrl, operation, req, res, lookups);
    } catch (error) {
      next(error);
    }
  });
  return app;
}
