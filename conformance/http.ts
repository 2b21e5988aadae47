/**
 * The suite's one way to call a target: plain `fetch` against a base URL (the in-process services
 * listen on real ports too), under a request timeout so that a hang fails as a hang. Every exchange
 * is recorded for the run's coverage report (observations.ts).
 */
import { recordExchange } from "./observations.js";

export interface CaseRequest {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Concrete path with its query string, e.g. `/base/lp/meteora/pools?sort=apr`. */
  path: string;
  /** JSON body; `rawBody` sends text as it is (for malformed JSON). */
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface Answer {
  status: number;
  headers: Headers;
  contentType: string;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
}

export async function send(baseUrl: string, request: CaseRequest, timeoutMs: number): Promise<Answer> {
  const headers: Record<string, string> = { accept: "application/json", ...request.headers };
  const hasBody = request.body !== undefined || request.rawBody !== undefined;
  if (hasBody) headers["content-type"] ??= "application/json";
  let response: Response;
  const started = performance.now();
  try {
    response = await fetch(`${baseUrl}${request.path}`, {
      method: request.method,
      headers,
      body: request.rawBody ?? (request.body === undefined ? undefined : JSON.stringify(request.body)),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason =
      error instanceof Error && error.name === "TimeoutError"
        ? `no answer within ${timeoutMs} ms`
        : `${String(error)}${cause ? ` (${cause.code ?? cause.message})` : ""}`;
    throw new Error(`${request.method} ${request.path}: ${reason}`);
  }
  const text = await response.text();
  const contentType = response.headers.get("content-type") ?? "";
  let json: unknown;
  if (/^application\/(.+\+)?json/.test(contentType)) {
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  const answer = { status: response.status, headers: response.headers, contentType, text, json };
  recordExchange(baseUrl, request, headers, answer, Math.round(performance.now() - started));
  return answer;
}

/** `request` with more headers. */
export const withHeaders = (request: CaseRequest, headers: Record<string, string>): CaseRequest => ({
  ...request,
  headers: { ...request.headers, ...headers },
});
