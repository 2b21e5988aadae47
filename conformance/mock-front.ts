/**
 * The front of `npm run mock`: a small Express app before one Prism process. Prism stays the
 * engine (request validation, the contract's examples, `Prefer: code=...` for any documented
 * status); the front makes paid operations charge like the service (mock-payments.ts) and serves
 * what Prism cannot: the document itself (`/openapi.json`, by network too) and its `/docs` page.
 *
 * A paid request that asks for an answer (no `Prefer`, or `Prefer: code=200|206`):
 * - is first sent to Prism as `Prefer: code=402`, so an invalid request gets Prism's 400 before any
 *   payment, as on the service; a valid one gets the contract's challenge;
 * - without `X-PAYMENT` answers that challenge, `resource` at the mock's own origin;
 * - with a header that is not base64 JSON answers 400 `invalid_payload`; with a payment for another
 *   version, scheme or network, or an unreadable payload, the challenge naming the reason;
 * - with a well-formed payment goes to Prism as asked, and a 2xx answer gets a mock receipt.
 * Any other `Prefer` status (402, 400, 404, 500, 502) is Prism's example, never charged. A request
 * Prism finds invalid gets the service's 400 body naming each field (from Prism's `sl-violations`).
 */
import express, { type Request, type Response } from "express";
import { NETWORKS } from "../lib/networks.js";
import { DOCS_ASSETS_PATH, docsAssets, referencePage } from "../server/docs/reference-page.js";
import { type Asked, challengeAnswer, type MockAnswer, malformedAnswer, readPayment, receiptHeader } from "./mock-payments.js";
import { loadDoc, type OpenApiDoc, operations } from "./openapi-doc.js";

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

interface PaidOperation {
  method: string;
  pattern: RegExp;
  asked: Asked;
}

function paidOperations(document: OpenApiDoc): PaidOperation[] {
  const defaults = document["x-x402-development-defaults"] as { svm?: { feePayer?: string } } | undefined;
  return operations(document).flatMap(({ method, path, op }) => {
    const info = op["x-payment-info"];
    if (!info) return [];
    const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`);
    const feePayer = info.network.family === "svm" ? defaults?.svm?.feePayer : undefined;
    return [{ method: method.toUpperCase(), pattern, asked: { network: info.network.testnet.network, ...(feePayer ? { feePayer } : {}) } }];
  });
}

/** The documents the front serves: the whole one, and for the analytics service one per network. */
function servedDocuments(service: "analytics" | "registry"): Map<string | undefined, OpenApiDoc> {
  const whole = loadDoc("3.1", service);
  return new Map([[undefined, whole], ...NETWORKS.map(({ name }) => [name, loadDoc("3.1", `analytics-${name}`)] as const)]);
}

const LOCATIONS = new Set(["body", "query", "path", "header"]);

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

export function mockFront(service: "analytics" | "registry", prismUrl: string): express.Express {
  const documents = servedDocuments(service);
  const paid = paidOperations(documents.get(undefined) as OpenApiDoc);
  const app = express();
  app.disable("x-powered-by");
  app.use(DOCS_ASSETS_PATH, docsAssets());
  app.use(express.raw({ type: () => true, limit: "1mb" }));

  async function forward(req: Request, prefer?: string) {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (value !== undefined && !HOP_BY_HOP.has(name)) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    if (prefer) headers.set("prefer", prefer);
    const body = Buffer.isBuffer(req.body) && req.body.length ? req.body : undefined;
    const response = await fetch(`${prismUrl}${req.originalUrl}`, { method: req.method, headers, body });
    return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
  }

  function relay(res: Response, answer: Awaited<ReturnType<typeof forward>>, extra: Record<string, string> = {}) {
    const invalid = answer.status === 400 ? validationAnswer(answer.headers.get("sl-violations")) : undefined;
    res.status(answer.status);
    answer.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name)) res.setHeader(name, value);
    });
    if (invalid) res.json(invalid.body);
    else res.set(extra).end(answer.body);
  }

  const send = (res: Response, answer: MockAnswer) => res.status(answer.status).set(answer.headers).json(answer.body);

  /** The contract's 402 for this request from Prism (or Prism's 400 when the request itself is invalid), at the mock's origin. */
  async function challenge(req: Request, res: Response, refusal?: Parameters<typeof challengeAnswer>[2]) {
    const probe = await forward(req, "code=402");
    if (probe.status !== 402) return relay(res, probe);
    send(res, challengeAnswer(JSON.parse(probe.body.toString("utf8")), `${originOf(req)}${req.path}`, refusal));
  }

  app.use(async (req, res, next) => {
    try {
      const network = req.query.network as string | undefined;
      if (req.method === "GET" && req.path === "/openapi.json" && documents.has(network)) {
        return res.json({ ...documents.get(network), servers: [{ url: originOf(req), description: "The mock (npm run mock)" }] });
      }
      if (req.method === "GET" && req.path === "/docs" && documents.has(network)) {
        const { title } = (documents.get(network) as OpenApiDoc).info;
        const documentUrl = network ? `/openapi.json?network=${network}` : "/openapi.json";
        return res.type("text/html").send(referencePage({ title: `${title} (mock)`, documentUrl }));
      }
      const operation = paid.find((p) => p.method === req.method && p.pattern.test(req.path));
      const preferred = preferredStatus(req);
      if (!operation || (preferred !== undefined && preferred !== 200 && preferred !== 206)) {
        if (operation && preferred === 402) return await challenge(req, res);
        return relay(res, await forward(req));
      }
      const payment = readPayment(req.headers, operation.asked);
      if (payment.kind === "none") return await challenge(req, res);
      if (payment.kind === "refused") return await challenge(req, res, payment);
      if (payment.kind === "malformed") {
        const probe = await forward(req, "code=402");
        return probe.status === 402 ? send(res, malformedAnswer(payment.message)) : relay(res, probe);
      }
      const answer = await forward(req);
      relay(res, answer, answer.status < 300 ? receiptHeader(payment) : {});
    } catch (error) {
      next(error);
    }
  });
  return app;
}
