/**
 * Request id (echoed in `X-Request-Id`) and one structured log line per request, which carries what
 * a route adds with `logWith` (a paid answer's settlement: one line per paid request, not two); the
 * `quiet` paths (probes and scrapes, every few seconds) log at debug level.
 */
import { randomUUID } from "node:crypto";
import type { RequestHandler, Response } from "express";
import type { Logger } from "pino";

declare global {
  namespace Express {
    interface Request {
      requestId: string;
    }
  }
}

/** Adds `fields` to the request's log line, written when its answer is sent. */
export function logWith(res: Response, fields: Record<string, unknown>): void {
  res.locals.log = { ...res.locals.log, ...fields };
}

const SAFE_ID = /^[A-Za-z0-9._-]{1,64}$/;

export function requestContext(logger: Logger, quiet: ReadonlySet<string> = new Set()): RequestHandler {
  return function requestContext(req, res, next) {
    const incoming = req.get("x-request-id");
    req.requestId = incoming && SAFE_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader("X-Request-Id", req.requestId);
    const started = process.hrtime.bigint();
    // on close, not finish: a response cut off by the client still gets its line (and a paid one its settlement)
    res.once("close", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger[quiet.has(req.path) ? "debug" : "info"](
        {
          requestId: req.requestId,
          method: req.method,
          path: req.path,
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
          ...(res.writableFinished ? {} : { aborted: true }),
          ...res.locals.log,
        },
        "request",
      );
    });
    next();
  };
}
