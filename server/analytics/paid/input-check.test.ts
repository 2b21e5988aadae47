// The one input check of paid calls, held to express-openapi-validator as an oracle (the validator the free routes
// still use, and the one the paid routes used before): for every paid POST on schema-valid and fuzzed bodies, and
// every legacy GET on valid and fuzzed query strings and paths, the same input (defaults filled in) for what both
// accept, and the same fields named, with the same words, for what they refuse.
import express from "express";
import fc from "fast-check";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { fuzzedBody, fuzzedParameters, validBody } from "../../../conformance/arbitraries.js";
import { DOCS } from "../../../conformance/cases.js";
import { parametersOf, type Schema } from "../../../conformance/openapi-doc.js";
import { NETWORKS } from "../../../lib/networks.js";
import { errorHandler } from "../../http/errors.js";
import { queryFields, refuseAmbiguousQuery, refuseMalformedNumbers } from "../../http/input-guard.js";
import { createLogger } from "../../http/logger.js";
import { openApiValidation } from "../../http/validator.js";
import { loadAnalyticsContract, type PaidRoute } from "../contract/analytics-contract.js";
import { type CheckedInput, inputChecks } from "./input-check.js";

const contract = loadAnalyticsContract();
const validatorFor = openApiValidation(contract.document, {
  validateResponses: false,
  prefixes: NETWORKS.map((n) => n.prefix),
});
const checks = inputChecks(contract);
// One prefix's routes: the three share each operation's schemas.
const rootRoutes = contract.paid.filter((route) => route.payment.network.prefix === "");
const posts = rootRoutes.filter((route) => route.method === "post");
const gets = rootRoutes.filter((route) => route.method === "get");

type Verdict = { input: unknown } | { refused: { field: string; message: string; location: string }[] };

/** What express-openapi-validator makes of a request: the input it hands on, or the fields its 400 names. */
async function oracleVerdict(sent: request.Test): Promise<Verdict> {
  const res = await sent;
  if (res.status === 400) return { refused: res.body.errors };
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { input: res.body };
}

const verdictOf = (checked: CheckedInput): Verdict =>
  "errors" in checked ? { refused: checked.errors } : { input: JSON.parse(JSON.stringify(checked.input)) };

describe("the paid input check", () => {
  it("covers every paid POST and legacy GET", () => {
    expect(posts.length).toBe(contract.operations.length);
    expect(gets.length).toBe(contract.operations.length);
  });

  for (const route of posts) {
    it(`${route.operationId}: accepts, completes and refuses bodies as the validator does`, async () => {
      const op = DOCS.analytics.paths[route.path]?.post;
      const schema = op?.requestBody?.content["application/json"]?.schema as Schema;
      const app = oracleApp(route);
      const check = checks(route);
      const seed = { method: "POST" as const, path: route.path };
      const bodies = fc.oneof(validBody(DOCS.analytics, schema, seed), fuzzedBody(DOCS.analytics, schema, seed));
      const example = (op?.requestBody?.content["application/json"] as { example?: unknown } | undefined)?.example;
      const judge = async (body: unknown) => {
        const sent = request(app).post(route.path).set("content-type", "application/json").send(JSON.stringify(body));
        const mine = verdictOf(check({ body: JSON.parse(JSON.stringify(body)), query: {}, path: {} }));
        expect(mine).toEqual(await oracleVerdict(sent));
      };
      for (const body of [{}, example ?? {}]) await judge(body);
      await fc.assert(
        fc.asyncProperty(bodies, async ({ body, rawBody }) => {
          // only an object or an array reaches a validator: the strict JSON parser refuses any other text first
          if (rawBody !== undefined || body === null || typeof body !== "object") return;
          await judge(body);
        }),
        { numRuns: 40, seed: 20261207 },
      );
    });
  }

  for (const route of gets) {
    it(`${route.operationId}: reads and refuses query strings and paths as the validator does`, async () => {
      const op = DOCS.analytics.paths[route.path]?.get;
      const app = oracleApp(route);
      const check = checks(route);
      if (!op) throw new Error(`no GET ${route.path}`);
      const numeric = new Set(
        parametersOf(DOCS.analytics, op)
          .filter((p) => p?.in === "query" && ["number", "integer"].includes(String(p.schema?.type)))
          .map((p) => p?.name as string),
      );
      const requests = fc.oneof(
        fuzzedParameters(DOCS.analytics, route.path, op, true),
        fuzzedParameters(DOCS.analytics, route.path, op),
      );
      await fc.assert(
        fc.asyncProperty(requests, async ({ path: target }) => {
          // an empty path segment is no route's path, in Express as in the front: a 404 before any check
          if (target.split("?")[0]?.includes("//")) return;
          const { fields, errors } = queryFields(target);
          const expected = await oracleVerdict(request(app).get(target));
          if (errors.length) expect({ refused: errors }).toEqual(expected);
          else
            expect(verdictOf(check({ query: fields, path: pathOf(route, target) }))).toEqual(
              alsoNamingInfinite(expected, fields, numeric),
            );
        }),
        { numRuns: 40, seed: 20261207 },
      );
    });
  }
});

/**
 * The validator lets a query number JSON cannot carry (`Infinity`, `1e309`) through, and the guard after it names it
 * only when every other field passed; the check names it beside the other fields' errors: every field named at once.
 */
function alsoNamingInfinite(verdict: Verdict, query: Record<string, string>, numeric: Set<string>): Verdict {
  if (!("refused" in verdict)) return verdict;
  const named = new Set(verdict.refused.map((e) => e.field));
  const infinite = Object.entries(query)
    .filter(([field]) => numeric.has(field) && !named.has(field))
    .filter(([, value]) => Math.abs(Number(value)) === Number.POSITIVE_INFINITY)
    .map(([field]) => ({ location: "query", field, message: "must be a finite number" }));
  return { refused: [...verdict.refused, ...infinite] };
}

/** The route behind express-openapi-validator, answering the input it hands on as a legacy GET's handler got it. */
function oracleApp(route: PaidRoute) {
  const respond: express.RequestHandler = (req, res) => {
    const { venue: _venue, ...path } = req.params as Record<string, string>;
    res.json(route.method === "post" ? req.body : { ...route.bodyDefaults, ...req.query, ...path });
  };
  return express()
    .use(express.json())
    .use(refuseAmbiguousQuery)
    .all(route.expressPath, validatorFor(route.path), refuseMalformedNumbers, respond)
    .use(errorHandler(createLogger("silent")));
}

/** The decoded path parameters of `target` for `route`'s template. */
function pathOf(route: PaidRoute, target: string): Record<string, string> {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  const pattern = new RegExp(`^${route.path.replace(/\{\w+\}/g, "([^/]+)")}(?:\\?|$)`);
  const values = target.match(pattern)?.slice(1) ?? [];
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(values[i] ?? "")]));
}
