/**
 * What request validation lets through but no caller means: a query key without a value
 * (`?limit`), a key given twice (`?limit=1&limit=2`), and numbers that are not finite (`Infinity`,
 * `NaN`, `1e309`, which the validator's type coercion turns into a JSON-unrepresentable number).
 * Each is a 400 naming the field, before any payment is looked at.
 */
import type { RequestHandler } from "express";
import { ApiError, type FieldError } from "./errors.js";

function refuse(errors: FieldError[]): ApiError {
  return new ApiError(400, "invalid_request", errors.map((e) => `${e.field}: ${e.message}`).join("; "), { errors });
}

/** Before validation: every query key carries one value. */
export const refuseAmbiguousQuery: RequestHandler = function refuseAmbiguousQuery(req, _res, next) {
  const errors: FieldError[] = [];
  for (const [field, value] of Object.entries(req.query)) {
    if (Array.isArray(value)) errors.push({ location: "query", field, message: "must be given once" });
    else if (value === "") errors.push({ location: "query", field, message: "must have a value" });
    else if (typeof value !== "string") errors.push({ location: "query", field, message: "must be a plain value" });
  }
  next(errors.length ? refuse(errors) : undefined);
};

function nonFinite(value: unknown, path: string, out: string[]): void {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) out.push(path);
  } else if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) nonFinite(item, `${path}[${i}]`, out);
  } else if (value && typeof value === "object")
    for (const [key, item] of Object.entries(value)) nonFinite(item, path ? `${path}.${key}` : key, out);
}

/** After validation (and its coercion of query strings to numbers): every number is finite. */
export const refuseNonFiniteNumbers: RequestHandler = function refuseNonFiniteNumbers(req, _res, next) {
  const errors: FieldError[] = [];
  for (const location of ["query", "body"] as const) {
    const found: string[] = [];
    nonFinite(req[location], "", found);
    for (const field of found) errors.push({ location, field, message: "must be a finite number" });
  }
  next(errors.length ? refuse(errors) : undefined);
};
