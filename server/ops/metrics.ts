/**
 * Prometheus metrics of one service (prom-client): its own registry of families, the process's
 * default metrics (shared by both services of a process: it is one process), and the request
 * metrics every route passes through. Labels are bounded by construction: an operation's name,
 * never a path with its parameters, a payer or a request id.
 */
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";
import type { NodeHandler } from "../http/handler-chain.js";
import { operationOf } from "../http/request-context.js";

export interface ServiceMetrics {
  /** Where the service's own families are registered. */
  readonly registry: Registry;
  readonly contentType: string;
  /** The whole page: the service's families, then the process's. */
  page(): Promise<string>;
}

/** Latency buckets in seconds, from a cached free answer (ms) to a paid answer near its deadline (30 s). */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

let processRegistry: Registry | undefined;

/** The default process metrics (CPU, memory, event loop lag, GC, handles), collected once per process. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export function createServiceMetrics(): ServiceMetrics {
  const registry = new Registry();
  const shared = processMetrics();
  return {
    registry,
    contentType: registry.contentType,
    page: async () => `${await registry.metrics()}\n${await shared.metrics()}`,
  };
}

/** The label of a request whose path matches no operation of the document. */
export const UNMATCHED = "unmatched";

/**
 * Counts every answer by operation and status and times it. `labelOf` names the operation from the
 * operation id the request was routed to (request-context.ts's `operationOf`), undefined when none matched.
 */
export function requestMetrics(registry: Registry, labelOf: (operationId: string | undefined) => string): NodeHandler {
  const requests = new Counter({
    name: "http_requests_total",
    help: "Answers by operation and HTTP status.",
    labelNames: ["operation", "status"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time from the request's arrival to the last byte of its answer, by operation and HTTP status.",
    labelNames: ["operation", "status"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  return function requestMetrics(req, res, next) {
    const started = performance.now();
    res.on("finish", () => {
      const labels = { operation: labelOf(operationOf(req)), status: String(res.statusCode) };
      requests.inc(labels);
      duration.observe(labels, (performance.now() - started) / 1000);
    });
    next();
  };
}
