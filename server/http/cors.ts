/**
 * Open CORS for browser callers: any origin may read; the payment header may be sent and the
 * receipt header read (x402 clients need both), and preflights are answered here.
 */
import type { RequestHandler } from "express";

export function cors({
  methods,
  requestHeaders,
  exposedHeaders,
}: {
  methods: string;
  requestHeaders: string;
  exposedHeaders: string;
}): RequestHandler {
  return function cors(req, res, next) {
    res.setHeader("Access-Control-Allow-Origin", "*");
    res.setHeader("Access-Control-Expose-Headers", exposedHeaders);
    if (req.method !== "OPTIONS") return next();
    res.setHeader("Access-Control-Allow-Methods", methods);
    res.setHeader("Access-Control-Allow-Headers", requestHeaders);
    res.setHeader("Access-Control-Max-Age", "86400");
    res.status(204).end();
  };
}
