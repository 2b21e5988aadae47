// Property-based fuzzing from the request schemas: fuzzed bodies, query and path parameters and garbage
// X-PAYMENT headers get a 4xx JSON error, and schema-valid random inputs with a valid payment get no 5xx;
// every request runs under a timeout, so a hang fails too. Fixed seed by default (FUZZ_SEED, or `random`);
// FUZZ_RUNS sets the runs per property (`npm run conformance -- --runs 500`).
import fc from "fast-check";
import { describe } from "vitest";
import { fuzzedBody, fuzzedParameters, garbagePayment, validBody } from "./arbitraries.js";
import { DOCS, type PaidCase, paidCases } from "./cases.js";
import { checkClientAnswer, Findings } from "./checks.js";
import { type CaseRequest, send, withHeaders } from "./http.js";
import type { Operation, Schema } from "./openapi-doc.js";
import { createPayer } from "./payer.js";
import { caseTest, settings, useTarget } from "./suite.js";

const url = useTarget({ analytics: true });
const pay = await createPayer();
const RUNS = Number(process.env.FUZZ_RUNS) || 40;
const SEED = process.env.FUZZ_SEED === "random" ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED) || 20261121;
const OPTIONS = { numRuns: RUNS, seed: SEED };
const TIMEOUT = 60_000 + RUNS * 2_000;

const cases = paidCases(settings.prefixes);
const opOf = (c: PaidCase) => DOCS.analytics.paths[c.template]?.[c.method.toLowerCase()] as Operation;
const bodySchema = (c: PaidCase) => opOf(c).requestBody?.content["application/json"]?.schema as Schema;
const posts = cases.filter((c) => c.method === "POST" && bodySchema(c));
const gets = cases.filter((c) => c.legacy);

/** Sends one fuzzed request and holds the answer against `checkClientAnswer`, naming the case and the input. */
async function expectClientAnswer(c: PaidCase, request: CaseRequest, paidFor = false): Promise<void> {
  const f = new Findings(`${c.label} fuzz ${request.method} ${request.path}`);
  checkClientAnswer(f, c, await send(url("analyticsUrl"), request, settings.timeoutMs), paidFor);
  f.assert();
}

/** Inputs carry the case's label, not the case, so that a counterexample prints short. */
const byLabel = new Map(cases.map((c) => [c.label, c]));
const caseOf = (label: string) => byLabel.get(label) as PaidCase;
const labels = (list: PaidCase[]) => fc.constantFrom(...list.map((c) => c.label));

const row = (check: string) => `fuzz · ${settings.prefixes.map((p) => p.name).join("+")} · ${check} (seed ${SEED}, ${RUNS} runs)`;

describe(`fuzzing on ${settings.kind}`, () => {
  caseTest(
    row("request bodies → 4xx"),
    "fuzz",
    () =>
      fc.assert(
        fc.asyncProperty(
          labels(posts).chain((op) =>
            fuzzedBody(DOCS.analytics, bodySchema(caseOf(op)), caseOf(op).request).map((request) => ({ op, request })),
          ),
          ({ op, request }) => expectClientAnswer(caseOf(op), request),
        ),
        OPTIONS,
      ),
    TIMEOUT,
  );

  caseTest(
    row("query and path parameters → 4xx"),
    "fuzz",
    () =>
      fc.assert(
        fc.asyncProperty(
          labels(gets).chain((op) =>
            fuzzedParameters(DOCS.analytics, caseOf(op).template, opOf(caseOf(op))).map((request) => ({ op, request })),
          ),
          ({ op, request }) => expectClientAnswer(caseOf(op), request),
        ),
        OPTIONS,
      ),
    TIMEOUT,
  );

  caseTest(
    row("garbage X-PAYMENT → 4xx"),
    "fuzz",
    () =>
      fc.assert(
        fc.asyncProperty(labels(cases), garbagePayment, (op, header) =>
          expectClientAnswer(caseOf(op), withHeaders(caseOf(op).request, { "X-PAYMENT": header })),
        ),
        OPTIONS,
      ),
    TIMEOUT,
  );

  caseTest(
    row("schema-valid inputs, paid → never 5xx"),
    ["fuzz", "paid"],
    () =>
      fc.assert(
        fc.asyncProperty(
          labels(cases).chain((op) => {
            const c = caseOf(op);
            const valid = c.legacy
              ? fuzzedParameters(DOCS.analytics, c.template, opOf(c), true)
              : validBody(DOCS.analytics, bodySchema(c), c.request);
            return valid.map((request) => ({ op, request }));
          }),
          async ({ op, request }) => {
            const c = caseOf(op);
            const challenge = await send(url("analyticsUrl"), request, settings.timeoutMs);
            const requirement = (challenge.json as { accepts?: Parameters<typeof pay>[0][] } | undefined)?.accepts?.[0];
            if (challenge.status !== 402 || !requirement) return expectClientAnswer(c, request);
            await expectClientAnswer(c, withHeaders(request, { "X-PAYMENT": await pay(requirement) }), true);
          },
        ),
        OPTIONS,
      ),
    TIMEOUT,
  );
});
