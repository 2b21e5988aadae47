/**
 * Request id (echoed in `X-Request-Id`) and one structured log line per request, which carries what
 * a route adds with `logWith` (a paid answer's settlement: one line per paid request, not two); the
 * `quiet` paths (probes and scrapes, every few seconds) log at debug level. Written against Node's
 * own request and response, so that the paid front (analytics/front/paid-front.ts) runs it without Express.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger } from "pino";
import type { NodeHandler } from "./handler-chain.js";

declare module "http" {
  interface IncomingMessage {
    /** Set by `requestContext` for every request either service answers. */
    requestId: string;
  }
}

/** The fields routes add to a request's log line, kept beside the response rather than in Express's `res.locals`. */
const added = new WeakMap<ServerResponse, Record<string, unknown>>();

/** Adds `fields` to the request's log line, written when its answer is sent. */
export function logWith(res: ServerResponse, fields: Record<string, unknown>): void {
  added.set(res, { ...added.get(res), ...fields });
}

/** The path of the request's target, without its query string (Express's parsed path once Express has the request). */
const pathOf = (req: IncomingMessage) => (req as { path?: string }).path ?? (req.url ?? "").replace(/\?.*$/s, "");

/** The operation each request was routed to by a router other than Express's validator (the paid front), for metrics. */
const routed = new WeakMap<IncomingMessage, string>();

/** Records the operation `req` was routed to. */
export function routeTo(req: IncomingMessage, operationId: string): void {
  routed.set(req, operationId);
}

/** The operation `req` was routed to: the paid front's, else the one express-openapi-validator matched, if any. */
export function operationOf(req: IncomingMessage): string | undefined {
  return routed.get(req) ?? (req as { openapi?: { schema?: { operationId?: string } } }).openapi?.schema?.operationId;
}

const SAFE_ID = /^[A-Za-z0-9._-]{1,64}$/;

export function requestContext(logger: Logger, quiet: ReadonlySet<string> = new Set()): NodeHandler {
  return function requestContext(req, res, next) {
    const incoming = req.headers["x-request-id"];
    req.requestId = typeof incoming === "string" && SAFE_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader("X-Request-Id", req.requestId);
    const started = process.hrtime.bigint();
    // on close, not finish: a response cut off by the client still gets its line (and a paid one its settlement)
    res.once("close", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const path = pathOf(req);
      logger[quiet.has(path) ? "debug" : "info"](
        {
          requestId: req.requestId,
          method: req.method,
          path,
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
          ...(res.writableFinished ? {} : { aborted: true }),
          ...added.get(res),
        },
        "request",
      );
    });
    next();
  };
}
