/**
 * The one JSON error body of both services, and what sends it (the Express error handler, the paid
 * front) from validator errors, body-parser errors and the services' own `ApiError`s. Internals never leak:
 * anything unexpected becomes a 500 `internal_error` and is logged with the request id.
 */
import type { ServerResponse } from "node:http";
import type { ErrorRequestHandler, RequestHandler } from "express";
import type { Logger } from "pino";
import type { components } from "../../generated/types/analytics.js";
import { StoreUnavailable } from "../db/unavailable.js";
import { sendJson } from "./send-json.js";

export type ErrorBody = components["schemas"]["Common.ErrorBody"];
export type ErrorCode = ErrorBody["error"];
export type FieldError = components["schemas"]["Common.FieldError"];

/** An error the service raises on purpose; its status and code reach the caller as they are. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: Pick<ErrorBody, "errors" | "provider"> = {},
    readonly headers: Record<string, string> = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** A 400 naming one invalid field. */
export function invalidField(location: FieldError["location"], field: string, message: string): ApiError {
  return invalidInput([{ location, field, message }]);
}

const LOCATIONS: Record<string, FieldError["location"]> = {
  body: "body",
  query: "query",
  path: "path",
  params: "path",
  headers: "header",
};

/**
 * `/body/limit` → `{location: "body", field: "limit"}`; `/headers/x-payment` → header `x-payment`.
 * Anything else names the URL path itself (e.g. a path that is not valid percent-encoding).
 */
function fieldOf(path: string): Pick<FieldError, "location" | "field"> {
  const [, where = "", ...rest] = path.split("/");
  const location = LOCATIONS[where];
  return location ? { location, field: rest.join(".") || where } : { location: "path", field: path };
}

/** A validator's, body-parser's or zlib's error, as far as the mapping reads it. */
type ValidatorError = {
  status?: number;
  statusCode?: number;
  type?: string;
  code?: unknown;
  body?: unknown;
  errors?: { path: string; message: string; errorCode?: string }[];
  headers?: Record<string, string>;
};

/** Maps any thrown error (of a request for `path`) to a status, headers and error body. */
export function toErrorResponse(
  error: unknown,
  path = "",
): { status: number; body: ErrorBody; headers: Record<string, string> } {
  if (error instanceof ApiError) {
    return {
      status: error.status,
      body: { error: error.code, message: error.message, ...error.details },
      headers: error.headers,
    };
  }
  // The database is out of reach; the service serves again once it is back. (The paid routes say what it means for a payment.)
  if (error instanceof StoreUnavailable) {
    return {
      status: 503,
      body: {
        error: "service_unavailable",
        message: "The service's database cannot be reached right now. Repeat the request in a few seconds.",
      },
      headers: { "Retry-After": "2" },
    };
  }
  const e = (error ?? {}) as ValidatorError;
  const status = e.status ?? e.statusCode ?? 500;
  const items = e.errors ?? [];
  const isResponseError = items.some((item) => item.path.startsWith("/response"));
  if (status >= 500 || isResponseError) {
    return {
      status: 500,
      body: { error: "internal_error", message: "The service failed to produce a valid answer." },
      headers: {},
    };
  }
  if (status === 404) return { status: 404, body: { error: "not_found", message: "No such endpoint." }, headers: {} };
  if (status === 405) {
    return {
      status: 405,
      body: { error: "method_not_allowed", message: "Method not allowed on this path." },
      headers: e.headers?.Allow ? { Allow: e.headers.Allow } : {},
    };
  }
  // The router could not percent-decode a path parameter.
  if (error instanceof URIError)
    return bad([{ location: "path", field: path, message: "is not valid percent-encoding" }]);
  if (e.type === "entity.parse.failed") {
    // The strict parser refuses JSON that is not an object or array (`null`, `5`, `"text"`) with the same error as broken JSON.
    return bad([
      {
        location: "body",
        field: "body",
        message: parsesAsJson(e.body) ? "must be a JSON object" : "is not valid JSON",
      },
    ]);
  }
  if (status === 413 || e.type === "entity.too.large") {
    return bad([{ location: "body", field: "body", message: "is larger than the 100 kB limit" }]);
  }
  if (e.type === "charset.unsupported")
    return bad([{ location: "header", field: "content-type", message: "charset must be utf-8" }]);
  if (e.type === "encoding.unsupported")
    return bad([{ location: "header", field: "content-encoding", message: "must be gzip, deflate, br or identity" }]);
  // zlib could not decompress the body as its Content-Encoding says.
  if (typeof e.code === "string" && e.code.startsWith("Z_"))
    return bad([
      {
        location: "header",
        field: "content-encoding",
        message: "does not match the body, which could not be decompressed",
      },
    ]);
  if (e.type === "request.size.invalid")
    return bad([{ location: "header", field: "content-length", message: "does not match the body's length" }]);
  if (status === 415) {
    return bad([{ location: "header", field: "content-type", message: "must be application/json" }]);
  }
  if (status >= 400 && status < 500 && items.length) return bad(validatorFieldErrors(items));
  if (status >= 400 && status < 500)
    return bad([{ location: "body", field: "request", message: String((error as Error).message) }]);
  return {
    status: 500,
    body: { error: "internal_error", message: "The service failed to produce a valid answer." },
    headers: {},
  };
}

/** The fields a validator's errors name (`/body/limit` → body `limit`), each with what is wrong with it. */
export function validatorFieldErrors(
  items: readonly { path: string; message: string; errorCode?: string }[],
): FieldError[] {
  return items.map((item) => ({ ...fieldOf(item.path), message: messageOf(item) }));
}

/** A 400 naming each invalid field, as every entry of a service words it. */
export function invalidInput(errors: FieldError[]): ApiError {
  return new ApiError(400, "invalid_request", errors.map((error) => `${error.field}: ${error.message}`).join("; "), {
    errors,
  });
}

/**
 * The contract closes its request bodies with `...Record<never>` (`unevaluatedProperties: {not: {}}`), its only use
 * of `not` (a test of the documents keeps it so): Ajv's "must NOT be valid" there means a field the body does not have.
 */
function messageOf(item: { message: string; errorCode?: string }): string {
  return item.errorCode === "not.openapi.validation" ? NOT_A_FIELD : item.message;
}

/** What a 400 says of a body field the operation does not have (the mock words it the same). */
export const NOT_A_FIELD = "is not a field of this request";

function parsesAsJson(text: unknown): boolean {
  if (typeof text !== "string") return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function bad(errors: FieldError[]) {
  const { status, code, message, details, headers } = invalidInput(errors);
  return { status, body: { error: code, message, ...details }, headers };
}

/** Answers `error` with the JSON error body and the request id; a server fault is logged with both. */
export function sendError(
  res: ServerResponse,
  error: unknown,
  request: { requestId: string; path: string },
  logger: Logger,
): void {
  const { status, body, headers } = toErrorResponse(error, request.path);
  if (status >= 500) logger.error({ err: error, requestId: request.requestId, path: request.path }, "request failed");
  if (res.headersSent) return;
  // Written as bytes, not through res.json: response validation (which wraps res.json) must never turn
  // an error answer into a server fault of its own.
  sendJson(res, status, JSON.stringify({ ...body, request_id: request.requestId }), headers);
}

/** Final error handler of the Express apps. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return function errorHandler(error, req, res, _next) {
    sendError(res, error, req, logger);
  };
}

/** JSON 404 for paths the document does not describe. */
export const notFound: RequestHandler = (_req, _res, next) => next(new ApiError(404, "not_found", "No such endpoint."));

/** A 502: an upstream provider failed, timed out or answered a shape the service does not accept. Never charged. */
export function upstreamError(
  provider: string,
  message = `The upstream provider ${provider} failed; retry later.`,
): ApiError {
  return new ApiError(502, "upstream_error", message, { provider });
}

/** A 404 for an entity the request names (pool, mint, position, agent). Never charged. */
export function entityNotFound(what: string, id: string): ApiError {
  return new ApiError(404, "not_found", `Unknown ${what}: ${id}.`);
}
