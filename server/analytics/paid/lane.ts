/**
 * The paid lane: a POST to a paid route, served without Express. Express costs a paid request
 * more than its payment's signature check: it swaps the prototypes of Node's request and response
 * (which leaves every later access to them slower), walks its router, and the contract's validator
 * adds a route lookup and five promise hops (docs/decisions/0001-paid-lane-beside-express.md). The
 * lane runs the same steps on Node's own objects: the same first middlewares (request id and log
 * line, metrics, CORS), the same body handling (charset, the JSON parser, defaults for an absent
 * body, depth), then the same paid endpoint (http-endpoint.ts), whose pipeline checks the body
 * against the schema as Express's validator would and words its 400 the same, and sends the reply or
 * the error body as Express would.
 *
 * It takes only what it can answer exactly as Express does: a POST whose request target is a paid
 * route's path as documented (no query string, no other spelling), whose origin needs no proxy's
 * word (`PUBLIC_BASE_URL` is set, or no `X-Forwarded-Proto` or `X-Forwarded-Host` came). Everything
 * else goes to the Express app unread; what the lane reads, it answers.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { TLSSocket } from "node:tls";
import type { Logger } from "pino";
import { sendError } from "../../http/errors.js";
import type { NodeHandler } from "../../http/handler-chain.js";
import type { ParsedRequest } from "../../http/input-guard.js";
import { originOf } from "../../http/origin.js";
import { type PaidEndpoint, sendPaidReply } from "./http-endpoint.js";

/** One paid POST route the lane serves. */
export interface LaneRoute {
  path: string;
  operationId: string;
  serve: PaidEndpoint;
}

export interface PaidLaneOptions {
  routes: readonly LaneRoute[];
  /** What every request of the service runs first, as the Express app runs it (and skips for a request the lane started). */
  start: NodeHandler;
  /** The Express app's handling of a POST body before validation: charset, JSON parser, defaults, depth. */
  body: NodeHandler<ParsedRequest>;
  publicBaseUrl: string | undefined;
  logger: Logger;
  /** The MCP endpoint (server/mcp/), for a POST to `/mcp`: its tool calls are paid requests too. */
  mcp?: { path: string; serve: (req: ParsedRequest, res: ServerResponse) => Promise<void> };
}

/** What the metrics read of a request's operation (express-openapi-validator's `req.openapi`, which the lane sets itself). */
type Routed = ParsedRequest & { openapi?: { schema: { operationId: string } } };

const header = (req: IncomingMessage) => (name: string) => req.headers[name.toLowerCase()] as string | undefined;

/** The service's request listener: the paid lane in front of `app`, which serves every request the lane does not take. */
export function withPaidLane(app: RequestListener, options: PaidLaneOptions): RequestListener {
  const { start, body, publicBaseUrl, logger } = options;
  const routes = new Map(
    options.routes.map((route) => [route.path, { ...route, openapi: { schema: { operationId: route.operationId } } }]),
  );

  return function front(req: Routed, res: ServerResponse) {
    const forwarded = req.headers["x-forwarded-proto"] !== undefined || req.headers["x-forwarded-host"] !== undefined;
    if (req.method !== "POST") return app(req, res);
    // A forwarded MCP request goes through Express, whose `host` honours a trusted proxy's X-Forwarded-Host.
    if (options.mcp && req.url === options.mcp.path) return forwarded ? app(req, res) : mcpCall(req, res, options);
    if (forwarded && !publicBaseUrl) return app(req, res);
    const route = routes.get(req.url ?? "");
    if (!route) return app(req, res);
    const fail = (error: unknown) => sendError(res, error, { requestId: req.requestId, path: route.path }, logger);
    start(req, res, (error) => {
      if (error) return fail(error);
      body(req, res, (error) => {
        if (error) return fail(error);
        req.openapi = route.openapi;
        const protocol = (req.socket as TLSSocket).encrypted ? "https" : "http";
        route
          .serve({
            input: req.body as Record<string, unknown>,
            schemaChecked: false,
            params: {},
            resource: () => `${publicBaseUrl || originOf(protocol, req.headers.host)}${route.path}`,
            header: header(req),
            requestId: req.requestId,
          })
          .then((reply) => sendPaidReply(res, reply))
          .catch(fail);
      });
    });
  };
}

/** The MCP endpoint's operation, as the metrics label its requests. */
export const MCP_OPERATION = { schema: { operationId: "mcp" } };

/** A POST to the MCP endpoint: started and its body read as Express would, then the endpoint's. */
function mcpCall(req: Routed, res: ServerResponse, options: PaidLaneOptions): void {
  const { start, body, logger, mcp } = options;
  req.openapi = MCP_OPERATION;
  const fail = (error: unknown) => sendError(res, error, { requestId: req.requestId, path: mcp?.path ?? "" }, logger);
  start(req, res, (error) => {
    if (error) return fail(error);
    body(req, res, (error) => (error ? fail(error) : mcp?.serve(req, res).catch(fail)));
  });
}
