/**
 * What request validation lets through but no caller means: a query key without a value
 * (`?limit`), a key given twice (`?limit=1&limit=2`), a bracketed key (`?limit[x]=1`; the
 * validator's bracket parsing drops `limit[__proto__]=1` altogether, so the default would answer),
 * numbers that are not finite (`Infinity`, `NaN`, `1e309`, which the validator's type coercion
 * turns into a JSON-unrepresentable number), a JSON body nested deeper than any input of the
 * contract (`MAX_BODY_DEPTH`), which every walk of it (these checks, the request's fingerprint)
 * would otherwise follow until the stack overflows, and a POST body the JSON parser did not read.
 * Each is a 400 naming the field, before any payment is looked at.
 */

import type { IncomingMessage } from "node:http";
import { parse as parseContentType } from "content-type";
import type { RequestHandler } from "express";
import { type FieldError, invalidInput as refuse } from "./errors.js";
import type { NodeHandler } from "./handler-chain.js";

/** A request as the JSON parser leaves it: `body` is what it read, if anything. */
export type ParsedRequest = IncomingMessage & { body?: unknown };

/**
 * The fields of a request target's query string, each a plain name given once with a value (percent-decoded, `+` a
 * space), and every key that is not: a key with brackets (`limit[x]`, a validator's nested syntax), given twice, or
 * without a value.
 */
export function queryFields(target: string): { fields: Record<string, string>; errors: FieldError[] } {
  // No prototype: a key named `__proto__` is a field like any other (and an unknown one).
  const fields: Record<string, string> = Object.create(null);
  const errors: FieldError[] = [];
  const search = target.indexOf("?");
  if (search < 0 || search === target.length - 1) return { fields, errors };
  const values = new Map<string, string[]>();
  for (const [field, value] of new URLSearchParams(target.slice(search + 1)))
    values.set(field, [...(values.get(field) ?? []), value]);
  for (const [field, [value, ...more]] of values) {
    if (/[[\]]/.test(field))
      errors.push({ location: "query", field, message: "must be a plain name, without brackets" });
    else if (more.length) errors.push({ location: "query", field, message: "must be given once" });
    else if (!value) errors.push({ location: "query", field, message: "must have a value" });
    else fields[field] = value;
  }
  return { fields, errors };
}

/** Before validation: every query key is a plain name carrying one value. */
export const refuseAmbiguousQuery: RequestHandler = function refuseAmbiguousQuery(req, _res, next) {
  const { errors } = queryFields(req.originalUrl);
  next(errors.length ? refuse(errors) : undefined);
};

/**
 * Before the JSON parser, on a POST (the one method with a body here): a JSON body is UTF-8 (RFC
 * 8259). The parser also decodes the other `utf-*` charsets, and reads a body that decodes to nothing
 * (one byte as UTF-16) as `{}`: all defaults, charged. The header is read by the parser's own
 * `content-type` module, so that both see the same charset (a regular expression can be misled by a
 * quoted parameter holding `;charset=utf-8`).
 */
export const refuseOtherCharsets: NodeHandler = function refuseOtherCharsets(req, _res, next) {
  const header = req.headers["content-type"];
  if (req.method !== "POST" || !header) return next();
  // content-type 2 never throws: what it cannot read has no charset, and the parser then refuses or skips the body.
  const charset = parseContentType(header).parameters.charset?.toLowerCase();
  if (charset === undefined || charset === "utf-8") return next();
  next(refuse([{ location: "header", field: "content-type", message: "charset must be utf-8" }]));
};

/**
 * After the JSON parser, on a POST: a request without a body means "all defaults" (an empty JSON
 * object for the validator to fill in). A body the parser did not read (no Content-Type, another
 * media type, or one it cannot parse, such as `;`) is refused naming `content-type`, never answered
 * as if it were absent.
 */
export const bodyOrDefaults: NodeHandler<ParsedRequest> = function bodyOrDefaults(req, _res, next) {
  if (req.method !== "POST" || req.body !== undefined) return next();
  if (sentBody(req))
    return next(refuse([{ location: "header", field: "content-type", message: "must be application/json" }]));
  req.body = {};
  req.headers["content-type"] = "application/json";
  next();
};

/** Whether the request came with a body (chunked, or a length above zero), read or not. */
export function sentBody(req: { headers: Record<string, string | string[] | undefined> }): boolean {
  return req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
}

/** Levels of arrays and objects a request body may nest; the contract's inputs use three at most. */
export const MAX_BODY_DEPTH = 32;

/** The top-level field under which `body` nests deeper than `MAX_BODY_DEPTH` ("body" when the body itself is an array), if any. */
function tooDeep(body: unknown): string | undefined {
  if (!body || typeof body !== "object") return undefined;
  // An explicit stack, not recursion: the point is to survive any depth.
  const stack: [value: unknown, depth: number, field: string][] = Object.entries(body).map(([key, value]) => [
    value,
    1,
    Array.isArray(body) ? "body" : key,
  ]);
  while (stack.length) {
    const [value, depth, field] = stack.pop() as [unknown, number, string];
    if (!value || typeof value !== "object") continue;
    if (depth >= MAX_BODY_DEPTH) return field;
    for (const item of Object.values(value)) stack.push([item, depth + 1, field]);
  }
  return undefined;
}

/** Before validation, on any method: a parsed body nests no deeper than `MAX_BODY_DEPTH`. */
export const refuseDeepBodies: NodeHandler<ParsedRequest> = function refuseDeepBodies(req, _res, next) {
  const field = tooDeep(req.body);
  next(
    field === undefined
      ? undefined
      : refuse([{ location: "body", field, message: `nests deeper than ${MAX_BODY_DEPTH} levels` }]),
  );
};

function nonFinite(value: unknown, path: string, out: string[]): void {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) out.push(path);
  } else if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) nonFinite(item, `${path}[${i}]`, out);
  } else if (value && typeof value === "object")
    for (const [key, item] of Object.entries(value)) nonFinite(item, path ? `${path}.${key}` : key, out);
}

/** The fields of a parsed body or query that hold a number JSON cannot carry (`1e309` parses as Infinity). */
export function nonFiniteFields(value: unknown): string[] {
  const found: string[] = [];
  nonFinite(value, "", found);
  return found;
}

/** A number as a query string means one: decimal digits with an optional point (`5`, `0.5`, `.5`, `5.`) and exponent. */
export const DECIMAL = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * After validation and its coercion of query strings to numbers: every number is finite, and every
 * query value coerced to a number was written in decimal (the coercion also reads `0x10` as 16,
 * `0b11` as 3 and ` 10 ` as 10).
 */
export const refuseMalformedNumbers: RequestHandler = function refuseMalformedNumbers(req, _res, next) {
  const errors: FieldError[] = [];
  for (const location of ["query", "body"] as const)
    for (const field of nonFiniteFields(req[location]))
      errors.push({ location, field, message: "must be a finite number" });
  const search = req.originalUrl.indexOf("?");
  if (search >= 0) {
    const query = req.query as Record<string, unknown>;
    for (const [field, raw] of new URLSearchParams(req.originalUrl.slice(search + 1))) {
      if (typeof query[field] === "number" && Number.isFinite(query[field]) && !DECIMAL.test(raw))
        errors.push({ location: "query", field, message: "must be a decimal number" });
    }
  }
  next(errors.length ? refuse(errors) : undefined);
};
