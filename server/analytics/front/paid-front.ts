/**
 * The paid front: the one door of every paid request, of `/mcp` and of `/a2a`. A request whose path is a paid
 * route's or an agent endpoint's (by paid-paths.ts's rule) is served here, on Node's own request and response;
 * every other request goes on to the Express app unread (the free routes, the documents, the
 * operations endpoints, a 404). What the front owns, for its paths:
 *
 *   - the start every request of the service gets: request id and log line, metrics, CORS (and a
 *     preflight's answer);
 *   - the method: a paid route's (POST, or a legacy GET; never HEAD, which could not deliver what it
 *     would be charged for), else 405 with `Allow`;
 *   - reading the request: a POST's body (charset, the JSON parser, defaults for an absent body,
 *     depth), a GET's refusal of a body, the query string's fields, the path's parameters;
 *   - the URL paid for: `PUBLIC_BASE_URL`, or the request's origin through a trusted proxy
 *     (`TRUST_PROXY`), then the route's path and the query string;
 *   - handing the call to the route's endpoint (http-call.ts: the pipeline, then its answer), or the
 *     request to the agent endpoint (MCP, A2A), and writing the reply or the contract's error body.
 *
 * Express is not in a paid request's way: it swaps the prototypes of Node's request and response and
 * walks its router, which costs a paid request more than its payment's checks
 * (docs/decisions/0014-one-paid-front.md).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { Logger } from "pino";
import { PAYMENT_HEADERS } from "../../../lib/x402-headers.js";
import {
  ApiError,
  type FieldError,
  invalidField,
  invalidInput,
  sendError,
  toErrorResponse,
} from "../../http/errors.js";
import type { NodeHandler } from "../../http/handler-chain.js";
import { type ParsedRequest, queryFields, sentBody } from "../../http/input-guard.js";
import { originThrough, type TrustProxy, trustedPeer } from "../../http/origin.js";
import { logWith, routeTo } from "../../http/request-context.js";
import { sendJson } from "../../http/send-json.js";
import type { PaidEndpoint, PaidReply } from "./http-call.js";
import { type PathMatch, pathOf, pathTable } from "./paid-paths.js";

/** One method of a paid path: its operation (as the metrics name it) and its endpoint. */
export interface FrontRoute {
  operationId: string;
  serve: PaidEndpoint;
}

/** An agent endpoint (MCP's `/mcp`, A2A's `/a2a`): its tool calls and skills are paid requests too. */
export interface FrontEndpoint {
  path: string;
  operationId: string;
  serve(req: ParsedRequest, res: ServerResponse): Promise<void>;
  /** A POST whose body could not be read, in the endpoint's own wire form; by default the contract's error body. */
  unreadable?(error: unknown, req: ParsedRequest, res: ServerResponse): void;
}

export interface PaidFrontOptions {
  /** Each paid path of the contract, by its documented form, and its routes by method (`GET`, `POST`). */
  paths: ReadonlyMap<string, ReadonlyMap<string, FrontRoute>>;
  endpoints: FrontEndpoint[];
  /** What every request of the service runs first, as the Express app runs it for the rest. */
  start: NodeHandler;
  /** A POST body's handling: charset, JSON parser, defaults for an absent body, depth. */
  body: NodeHandler<ParsedRequest>;
  publicBaseUrl: string | undefined;
  trustProxy: TrustProxy;
  logger: Logger;
}

type Entry = { methods: ReadonlyMap<string, FrontRoute> } | { endpoint: FrontEndpoint };

/** The service's request listener: the paid front before `app`, which serves every request the front does not take. */
export function paidFront(app: RequestListener, options: PaidFrontOptions): RequestListener {
  const { start, logger } = options;
  const entries: [string, Entry][] = [...options.paths].map(([path, methods]) => [path, { methods }]);
  const agents = options.endpoints.map((endpoint): [string, Entry] => [endpoint.path, { endpoint }]);
  const table = pathTable<Entry>([...entries, ...agents]);
  const read = requestReader(options);

  return function front(req: ParsedRequest, res: ServerResponse) {
    const found = table(req.url ?? "/");
    if (!found) return app(req, res);
    const fail = (error: unknown) => sendError(res, error, { requestId: req.requestId, path: found.path }, logger);
    start(req, res, (error) => {
      if (error) return fail(error);
      const { entry } = found;
      if ("endpoint" in entry) return serveEndpoint(req, res, entry.endpoint, options.body, fail);
      const route = entry.methods.get(req.method ?? "");
      if (!route) return fail(methodNotAllowed(entry.methods));
      routeTo(req, route.operationId);
      const serve = (error?: unknown) => {
        const unread = error === undefined ? [] : unreadWithoutPayment(req, error);
        if (!unread) return fail(error);
        Promise.resolve()
          .then(() => route.serve(read(req, found, unread)))
          .then((reply) => sendReply(res, reply))
          .catch(fail);
      };
      if (req.method === "POST") return options.body(req, res, serve);
      // A GET's fields are in its query string: a body would be ignored, and its fields answered at their defaults.
      if (sentBody(req)) return serve(invalidField("body", "body", GET_BODY));
      serve();
    });
  };
}

const GET_BODY = "a GET takes its fields in the query string; send a JSON body with POST instead";

const paymentSent = (req: IncomingMessage) =>
  req.headers[PAYMENT_HEADERS[2].toLowerCase()] !== undefined ||
  req.headers[PAYMENT_HEADERS[1].toLowerCase()] !== undefined;

/**
 * The fields of a request the front could not read (a body that is not JSON, a GET's body), when it carries no
 * payment: it still gets its challenge, naming them (docs/payments.md, "Input and the challenge"). A paid one is the
 * 400 it always was; anything but a 400 of the caller's input (a 413 included) is undefined.
 */
function unreadWithoutPayment(req: IncomingMessage, error: unknown): FieldError[] | undefined {
  if (paymentSent(req)) return undefined;
  const { status, body } = toErrorResponse(error);
  return status === 400 && body.error === "invalid_request" && body.errors?.length ? body.errors : undefined;
}

/** A POST to an agent endpoint has its body read as any POST's; the endpoint answers every method (405 but for POST). */
function serveEndpoint(
  req: ParsedRequest,
  res: ServerResponse,
  endpoint: FrontEndpoint,
  body: NodeHandler<ParsedRequest>,
  fail: (error: unknown) => void,
): void {
  routeTo(req, endpoint.operationId);
  if (req.method !== "POST") return void endpoint.serve(req, res).catch(fail);
  body(req, res, (error) => {
    if (!error) return void endpoint.serve(req, res).catch(fail);
    const { status } = toErrorResponse(error);
    // Only the caller's unreadable input is the endpoint's to word; a 413 or a fault stays the contract's.
    if (endpoint.unreadable && status === 400) return endpoint.unreadable(error, req, res);
    fail(error);
  });
}

/** The 405 of a paid path, naming the methods it takes. */
function methodNotAllowed(methods: ReadonlyMap<string, FrontRoute>): ApiError {
  const allow = [...methods.keys()].sort().join(", ");
  return new ApiError(405, "method_not_allowed", "Method not allowed on this path.", {}, { Allow: allow });
}

/** How the front reads a paid request: its query string and path, the URL paid for, its headers. */
function requestReader({ publicBaseUrl, trustProxy }: PaidFrontOptions) {
  const trusted = trustedPeer(trustProxy);
  return (req: ParsedRequest, found: PathMatch<Entry>, unread: FieldError[]) => {
    const target = req.url ?? "/";
    const query = queryFields(target);
    const path = decodedParams(found.params, pathOf(target));
    const problems = [...unread, ...query.errors, ...path.errors];
    if (problems.length && paymentSent(req)) throw invalidInput(problems);
    return {
      input: {
        ...(req.method === "POST" && { body: req.body }),
        query: query.fields,
        path: path.params,
        ...(problems.length && { unread: problems }),
      },
      resource: () => `${originThrough(req, trusted, publicBaseUrl)}${pathPaidFor(found)}${queryOf(target)}`,
      header: (name: string) => headerOf(req, name),
      requestId: req.requestId,
    };
  };
}

const headerOf = (req: IncomingMessage, name: string) => {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(", ") : value;
};

/** The path parameters, percent-decoded; one that is not valid percent-encoding is an error naming the path. */
function decodedParams(
  params: Record<string, string>,
  path: string,
): { params: Record<string, string>; errors: FieldError[] } {
  const decoded: Record<string, string> = {};
  try {
    for (const name in params) decoded[name] = decodeURIComponent(params[name] as string);
  } catch {
    return { params: decoded, errors: [{ location: "path", field: path, message: "is not valid percent-encoding" }] };
  }
  return { params: decoded, errors: [] };
}

/** The route's path as the contract writes it, its parameters as sent: one URL for every spelling the front accepts. */
const pathPaidFor = ({ path, params }: PathMatch<Entry>) =>
  path.replace(/\{([^}]+)\}/g, (_, name) => params[name] ?? "");

/**
 * The query string of a request target, as the `resource` URL carries it (the full URL being paid
 * for, as the interface defines it). Node accepts characters a URI may not hold (`|`, `{`, a lone
 * `%`): they are percent-encoded, so that `resource` stays a URI.
 */
function queryOf(target: string): string {
  const at = target.indexOf("?");
  if (at < 0 || at === target.length - 1) return "";
  return target
    .slice(at)
    .replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/g, (c) => encodeURIComponent(c));
}

/** Writes a paid reply, adding what it logs to the request's line. */
function sendReply(res: ServerResponse, reply: PaidReply): void {
  if (reply.log) logWith(res, reply.log);
  sendJson(res, reply.status, reply.body, reply.headers);
}
