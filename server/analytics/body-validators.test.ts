// The paid lane's body validators against express-openapi-validator, which words the 400 for a body the lane
// refuses: for every paid POST, the same verdict on schema-valid and fuzzed bodies, and the same defaults filled in.
// A body the lane accepted that the Express validator refuses would be answered (and charged) on the lane alone.
import express from "express";
import fc from "fast-check";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { fuzzedBody, validBody } from "../../conformance/arbitraries.js";
import { DOCS } from "../../conformance/cases.js";
import type { Schema } from "../../conformance/openapi-doc.js";
import { NETWORKS } from "../../lib/networks.js";
import { openApiValidation } from "../http/validator.js";
import { bodyValidators } from "./body-validators.js";
import { loadAnalyticsContract } from "./contract.js";

const contract = loadAnalyticsContract();
const validatorFor = openApiValidation(contract.document, { validateResponses: false, prefixes: NETWORKS.map((n) => n.prefix) });
const laneValidator = bodyValidators(contract);
// One prefix's routes: the three share each operation's schema.
const posts = contract.paid.filter((route) => route.method === "post" && route.payment.network.prefix === "");

/** What the Express validator makes of `body`: the body it hands on, defaults filled in, or undefined for a refusal. */
function expressVerdicts(path: string) {
  const app = express()
    .use(express.json())
    .post(path, validatorFor(path), (req, res) => {
      res.json({ body: req.body });
    })
    .use(((error, _req, res, _next) => res.status(error.status ?? 500).json({ refused: true })) as express.ErrorRequestHandler);
  return async (body: unknown) => {
    const res = await request(app).post(path).set("content-type", "application/json").send(JSON.stringify(body));
    if (res.status === 400) return undefined;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.body as unknown;
  };
}

/** What the lane makes of `body` as it arrives (parsed from its JSON, as both sides receive it). */
function laneVerdict(validate: (body: unknown) => boolean, body: unknown): unknown {
  const parsed = JSON.parse(JSON.stringify(body));
  return validate(parsed) ? parsed : undefined;
}

describe("the paid lane's body validators", () => {
  it("cover every paid POST", () => {
    expect(posts.length).toBe(contract.operations.length);
  });

  for (const route of posts) {
    it(`${route.operationId}: accept and complete exactly the bodies express-openapi-validator accepts`, async () => {
      const op = DOCS.analytics.paths[route.path]?.post;
      const schema = op?.requestBody?.content["application/json"]?.schema as Schema;
      const express = expressVerdicts(route.path);
      const validate = laneValidator(route);
      const seed = { method: "POST" as const, path: route.path };
      const bodies = fc.oneof(validBody(DOCS.analytics, schema, seed), fuzzedBody(DOCS.analytics, schema, seed));
      const examples = [{}, (op?.requestBody?.content["application/json"] as { example?: unknown } | undefined)?.example ?? {}];
      for (const body of examples) expect(laneVerdict(validate, body)).toEqual(await express(body));
      await fc.assert(
        fc.asyncProperty(bodies, async ({ body, rawBody }) => {
          // only an object or an array reaches a validator: the strict JSON parser refuses any other text first
          if (rawBody !== undefined || body === null || typeof body !== "object") return;
          expect(laneVerdict(validate, body)).toEqual(await express(body));
        }),
        { numRuns: 60, seed: 20261127 },
      );
    });
  }
});
