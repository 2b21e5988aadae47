/**
 * What the suite exercised: every exchange `send` makes, appended as one JSON line to a file of this
 * worker's in the run directory that `npm run conformance` names in `CONFORMANCE_OBSERVATIONS`. After
 * vitest ends, the script merges the files against the documents (coverage.ts). Nothing is recorded
 * without the variable (a test file run on its own), nor for a base URL no target registered.
 */
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { threadId } from "node:worker_threads";
import type { Answer, CaseRequest } from "./http.js";
import type { Target } from "./targets.js";

export type ObservedService = "analytics" | "registry";

/** One request and what answered it: the request as sent, the status, the response's header names and media type. */
export interface Exchange {
  service: ObservedService;
  method: string;
  /** Concrete path with its query string. */
  path: string;
  /** Request headers as sent, names in lower case. */
  headers: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  status: number;
  /** Response header names, in lower case. */
  responseHeaders: string[];
  contentType: string;
  ms: number;
}

const services = new Map<string, ObservedService>();

/** The base URLs of a target and the service each one is (the degraded service is the analytics contract's). */
export function observeTarget(target: Target): void {
  if (target.analyticsUrl) services.set(target.analyticsUrl, "analytics");
  if (target.degradedUrl) services.set(target.degradedUrl, "analytics");
  if (target.registryUrl) services.set(target.registryUrl, "registry");
}

/** Appends one exchange to this worker's record, when the run keeps one. */
export function recordExchange(
  baseUrl: string,
  request: CaseRequest,
  headers: Record<string, string>,
  answer: Answer,
  ms: number,
): void {
  const dir = process.env.CONFORMANCE_OBSERVATIONS;
  const service = services.get(baseUrl);
  if (!dir || !service) return;
  const exchange: Exchange = {
    service,
    method: request.method,
    path: request.path,
    headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value])),
    ...(request.body === undefined ? {} : { body: request.body }),
    ...(request.rawBody === undefined ? {} : { rawBody: request.rawBody }),
    status: answer.status,
    responseHeaders: [...answer.headers.keys()],
    contentType: answer.contentType,
    ms,
  };
  appendFileSync(join(dir, `${process.pid}-${threadId}.jsonl`), `${JSON.stringify(exchange)}\n`);
}
