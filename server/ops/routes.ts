/**
 * The operators' endpoints of both services, bound by operation id like every other route:
 * `GET /livez`, `GET /readyz` and `GET /metrics` (spec/common/operations.tsp). Their answers are
 * never cached and carry no ETag: a probe must see the state of now.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { RequestHandler, Response } from "express";
import { type OperationsConfig, operationsConfig } from "../config/operations.js";
import { ApiError } from "../http/errors.js";
import { createServiceMetrics, type ServiceMetrics } from "./metrics.js";
import { type ReadinessCheck, readinessProbe } from "./readiness.js";

export interface OperationsOptions extends OperationsConfig {
  metrics: ServiceMetrics;
  /** What this instance needs to serve; `/readyz` asks each. */
  readiness: readonly ReadinessCheck[];
}

/** The operation ids of the operators' endpoints: the same on both services. */
export const OPERATIONS = {
  livez: "Operations_livez",
  readyz: "Operations_readyz",
  metrics: "Operations_metrics",
} as const;

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * Whether an `Authorization` header carries the token. Both sides are hashed first, so the
 * comparison takes the same time whatever the length or the first differing byte.
 */
export function bearerMatches(token: string, header: string | undefined): boolean {
  const given = /^Bearer +(\S+)$/i.exec(header?.trim() ?? "")?.[1] ?? "";
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}

/** JSON sent as bytes: no ETag, so never a 304. */
function sendFresh(res: Response, status: number, body: unknown): void {
  res.status(status).set("Cache-Control", "no-store").type("application/json").end(JSON.stringify(body));
}

export function operationsHandlers({
  metrics,
  readiness,
  readinessTimeoutMs,
  metricsToken,
}: OperationsOptions): Record<string, RequestHandler> {
  const ready = readinessProbe(readiness, readinessTimeoutMs);
  return {
    [OPERATIONS.livez]: (_req, res) => sendFresh(res, 200, { status: "ok" }),
    [OPERATIONS.readyz]: async (_req, res) => {
      const report = await ready();
      sendFresh(res, report.status === "ready" ? 200 : 503, report);
    },
    [OPERATIONS.metrics]: async (req, res) => {
      if (metricsToken !== undefined && !bearerMatches(metricsToken, req.get("authorization")))
        throw new ApiError(
          401,
          "unauthorized",
          "This deployment's metrics need Authorization: Bearer <METRICS_TOKEN>.",
          {},
          {
            "WWW-Authenticate": "Bearer",
          },
        );
      const page = await metrics.page();
      res.status(200).set("Cache-Control", "no-store").type(metrics.contentType).end(page);
    },
  };
}

/** The default of an app built without them (tests, tools): its own metrics, nothing to check, an open page. */
export function embeddedOperations(): OperationsOptions {
  return { ...operationsConfig({}), metrics: createServiceMetrics(), readiness: [] };
}

/** The paths of the operators' endpoints in `document` (their request lines are logged at debug level). */
export function operationsPaths(document: {
  paths: Record<string, { get?: { operationId?: string } }>;
}): ReadonlySet<string> {
  const ids: readonly string[] = Object.values(OPERATIONS);
  return new Set(
    Object.entries(document.paths)
      .filter(([, item]) => ids.includes(item.get?.operationId ?? ""))
      .map(([path]) => path),
  );
}
