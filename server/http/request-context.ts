/**
 * Request id (echoed in `X-Request-Id`) and one structured log line per request; the `quiet` paths
 * (probes and scrapes, every few seconds) log at debug level.
 */
import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";
import type { Logger } from "pino";

declare global {
  namespace Express {
    interface Request {
      requestId: string;
    }
  }
}

const SAFE_ID = /^[A-Za-z0-9._-]{1,64}$/;

export function requestContext(logger: Logger, quiet: ReadonlySet<string> = new Set()): RequestHandler {
  return function requestContext(req, res, next) {
    const incoming = req.get("x-request-id");
    req.requestId = incoming && SAFE_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader("X-Request-Id", req.requestId);
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger[quiet.has(req.path) ? "debug" : "info"](
        { requestId: req.requestId, method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 },
        "request",
      );
    });
    next();
  };
}
