// The pipeline's input check against express-openapi-validator and the Express path's number guard: for every paid
// POST, on schema-valid and fuzzed bodies, the same defaults filled in for a body both accept, and the same fields
// named, with the same words, for one they refuse. A request gets the same answer whichever way it came.
import express from "express";
import fc from "fast-check";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { fuzzedBody, validBody } from "../../../conformance/arbitraries.js";
import { DOCS } from "../../../conformance/cases.js";
import type { Schema } from "../../../conformance/openapi-doc.js";
import { NETWORKS } from "../../../lib/networks.js";
import { errorHandler } from "../../http/errors.js";
import { refuseMalformedNumbers } from "../../http/input-guard.js";
import { createLogger } from "../../http/logger.js";
import { openApiValidation } from "../../http/validator.js";
import { loadAnalyticsContract } from "../contract/analytics-contract.js";
import { inputChecks } from "./input-check.js";

const contract = loadAnalyticsContract();
const validatorFor = openApiValidation(contract.document, {
  validateResponses: false,
  prefixes: NETWORKS.map((n) => n.prefix),
});
const checks = inputChecks(contract);
// One prefix's routes: the three share each operation's schema.
const posts = contract.paid.filter((route) => route.method === "post" && route.payment.network.prefix === "");

/** What the Express path makes of `body`: the body it hands on, defaults filled in, or the fields its 400 names. */
function expressVerdicts(path: string) {
  const app = express()
    .use(express.json())
    .post(path, validatorFor(path), refuseMalformedNumbers, (req, res) => {
      res.json({ body: req.body });
    })
    .use(errorHandler(createLogger("silent")));
  return async (body: unknown) => {
    const res = await request(app).post(path).set("content-type", "application/json").send(JSON.stringify(body));
    if (res.status === 400) return { refused: res.body.errors, message: res.body.message };
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { body: res.body.body as unknown };
  };
}

/** What the pipeline's check makes of `body` as it arrives (parsed from its JSON, as both sides receive it). */
function checkVerdict(check: (body: unknown) => { field: string; message: string }[], body: unknown) {
  const parsed = JSON.parse(JSON.stringify(body));
  const errors = check(parsed);
  return errors.length
    ? { refused: errors, message: errors.map((e) => `${e.field}: ${e.message}`).join("; ") }
    : { body: parsed };
}

describe("the pipeline's input check", () => {
  it("cover every paid POST", () => {
    expect(posts.length).toBe(contract.operations.length);
  });

  for (const route of posts) {
    it(`${route.operationId}: accepts, completes and refuses bodies, naming the same fields, as the Express path`, async () => {
      const op = DOCS.analytics.paths[route.path]?.post;
      const schema = op?.requestBody?.content["application/json"]?.schema as Schema;
      const express = expressVerdicts(route.path);
      const check = checks(route);
      const seed = { method: "POST" as const, path: route.path };
      const bodies = fc.oneof(validBody(DOCS.analytics, schema, seed), fuzzedBody(DOCS.analytics, schema, seed));
      const examples = [
        {},
        (op?.requestBody?.content["application/json"] as { example?: unknown } | undefined)?.example ?? {},
      ];
      for (const body of examples) expect(checkVerdict(check, body)).toEqual(await express(body));
      await fc.assert(
        fc.asyncProperty(bodies, async ({ body, rawBody }) => {
          // only an object or an array reaches a validator: the strict JSON parser refuses any other text first
          if (rawBody !== undefined || body === null || typeof body !== "object") return;
          expect(checkVerdict(check, body)).toEqual(await express(body));
        }),
        { numRuns: 60, seed: 20261127 },
      );
    });
  }
});
