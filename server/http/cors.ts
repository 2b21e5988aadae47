/**
 * Open CORS for browser callers: any origin may read; the payment header may be sent and the
 * receipt header read (x402 clients need both), and preflights are answered here. Each service's
 * policy is defined once, here, so that the mock (conformance/mock-front.ts) answers browsers as
 * the service does.
 */
import type { NodeHandler } from "./handler-chain.js";

export interface CorsPolicy {
  methods: string;
  requestHeaders: string;
  exposedHeaders: string;
}

export const ANALYTICS_CORS: CorsPolicy = {
  methods: "GET, HEAD, POST, OPTIONS",
  // Both protocol versions' payment headers in, their challenge and receipt headers out: browsers hide what is not listed.
  // The official clients (@x402/fetch, x402-fetch) also send `Access-Control-Expose-Headers` as a request header on
  // their paid retry: a preflight that did not allow it would stop every browser payment.
  requestHeaders: "Content-Type, PAYMENT-SIGNATURE, X-PAYMENT, Access-Control-Expose-Headers",
  exposedHeaders: "PAYMENT-REQUIRED, PAYMENT-RESPONSE, X-PAYMENT-RESPONSE, X-Request-Id",
};

export const REGISTRY_CORS: CorsPolicy = {
  methods: "GET, HEAD, OPTIONS",
  requestHeaders: "If-None-Match, X-Request-Id",
  exposedHeaders: "ETag, X-Request-Id",
};

export function cors({ methods, requestHeaders, exposedHeaders }: CorsPolicy): NodeHandler {
  return function cors(req, res, next) {
    res.setHeader("Access-Control-Allow-Origin", "*");
    res.setHeader("Access-Control-Expose-Headers", exposedHeaders);
    if (req.method !== "OPTIONS") return next();
    res.setHeader("Access-Control-Allow-Methods", methods);
    res.setHeader("Access-Control-Allow-Headers", requestHeaders);
    res.setHeader("Access-Control-Max-Age", "86400");
    res.statusCode = 204;
    res.end();
  };
}
