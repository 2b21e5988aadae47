// Property-based fuzzing from the request schemas: fuzzed bodies, query and path parameters and garbage
// X-PAYMENT or PAYMENT-SIGNATURE headers get a 4xx JSON error (a 402 with both versions' challenges); and,
// paid with a valid payment in either x402 version, schema-valid inputs with adversarial numbers and strings
// get no 5xx, fuzzed ones a 4xx, and every answer keeps the charge invariant: a receipt (of the version paid
// in) only with a contract-valid 200 or 206, never with a 4xx or 5xx, and (where the ledger can be read: the
// in-process target) one settled row exactly for each answer that carries one.
// Every request runs under a timeout, so a hang fails too. Fixed seed by default (FUZZ_SEED, or
// `random`); FUZZ_RUNS sets the runs per property (`npm run conformance -- --runs 500`).
import fc from "fast-check";
import { describe } from "vitest";
import type { PaymentRequirements } from "../client/x402/types.js";
import { fuzzedBody, fuzzedParameters, garbagePayment, validBody } from "./arbitraries.js";
import { DOCS, type PaidCase, paidCases } from "./cases.js";
import { newRequestId, useCharges } from "./charges.js";
import {
  checkClientAnswer,
  checkNoReceipt,
  checkReceipt,
  decodeHeader,
  Findings,
  type PaymentRequiredV2,
  X402_VERSIONS,
  type X402Version,
} from "./checks.js";
import { type CaseRequest, send, withHeaders } from "./http.js";
import { type Operation, parametersOf, type Schema } from "./openapi-doc.js";
import { createPayer, paymentHeader } from "./payer.js";
import { effective } from "./schemas.js";
import { caseTest, settings, useTarget } from "./suite.js";

const url = useTarget({ analytics: true });
const pay = await createPayer();
const checkCharged = useCharges(url.ledgerDb);
const RUNS = Number(process.env.FUZZ_RUNS) || 40;
const SEED =
  process.env.FUZZ_SEED === "random" ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED) || 20261121;
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

type Challenge = { requirement: PaymentRequirements; v2: PaymentRequiredV2 };

/** Each case's challenge in both versions, asked once with its valid request (an invalid one's body names its errors). */
const challenges = new Map<string, Challenge>();
async function challengeOf(c: PaidCase): Promise<Challenge> {
  let challenge = challenges.get(c.label);
  if (!challenge) {
    const answer = await send(url("analyticsUrl"), c.request, settings.timeoutMs);
    const requirement = (answer.json as { accepts: PaymentRequirements[] }).accepts[0] as PaymentRequirements;
    challenge = { requirement, v2: decodeHeader(answer.headers.get("payment-required") ?? "") as PaymentRequiredV2 };
    challenges.set(c.label, challenge);
  }
  return challenge;
}

/**
 * Whether every field a 400 names is one whose description in the document says when it is a 400 (a rule over live
 * data no schema can state, e.g. "a chain the aggregator does not list is a 400 naming `chain`").
 */
function refusalDocumented(c: PaidCase, body: unknown): boolean {
  const errors = (body as { errors?: { location?: string; field?: string }[] } | undefined)?.errors ?? [];
  const described = (location?: string, field?: string) => {
    if (location === "body") return descriptions(effective(DOCS.analytics, bodySchema(c)).properties?.[field ?? ""]);
    const parameter = parametersOf(DOCS.analytics, opOf(c)).find((p) => p?.in === location && p.name === field);
    // a legacy GET's query parameter is its POST twin's body field, which may carry the sentence
    const twin = DOCS.analytics.paths[c.template]?.post?.requestBody?.content["application/json"]?.schema;
    const twinField = twin ? effective(DOCS.analytics, twin).properties?.[field ?? ""] : undefined;
    return `${parameter?.description ?? ""} ${descriptions(parameter?.schema)} ${descriptions(twinField)}`;
  };
  return errors.length > 0 && errors.every((e) => /\b400\b/.test(described(e.location, e.field)));
}

/** The descriptions of a schema and of every schema it refers to or combines (a component states its own rule). */
function descriptions(schema: Schema | undefined, depth = 0): string {
  if (!schema || depth > 8) return "";
  const referred = schema.$ref ? DOCS.analytics.components.schemas[schema.$ref.split("/").pop() as string] : undefined;
  const members = [referred, ...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  return [schema.description ?? "", ...members.map((m) => descriptions(m, depth + 1))].join(" ");
}

/**
 * Sends `request` paid with a fresh valid payment in `version` and holds the answer against the
 * client-answer rules and the charge invariant; `expected4xx` for inputs the contract refuses,
 * `valid` for inputs the schemas admit (never refused with a 400).
 */
async function expectPaidAnswer(
  c: PaidCase,
  request: CaseRequest,
  expected4xx: boolean,
  version: X402Version,
  valid = false,
): Promise<void> {
  const requestId = newRequestId("fuzz");
  const { requirement, v2 } = await challengeOf(c);
  const paid = withHeaders(request, {
    ...(await paymentHeader(pay, version, requirement, v2)),
    "X-Request-Id": requestId,
  });
  const answer = await send(url("analyticsUrl"), paid, settings.timeoutMs);
  const input = JSON.stringify(request.body ?? request.rawBody ?? "");
  const f = new Findings(`${c.label} paid fuzz (x402 v${version}) ${request.method} ${request.path} ${input}`);
  checkClientAnswer(f, c, answer, !expected4xx);
  if (valid && answer.status === 400 && !refusalDocumented(c, answer.json))
    f.add(
      "status",
      `a schema-valid input refused with a 400 its fields' descriptions do not announce: ${answer.text.slice(0, 300)}`,
    );
  const delivered = answer.status === 200 || answer.status === 206;
  if (delivered) checkReceipt(f, answer, { version, network: requirement.network, amount: c.price.micro });
  else checkNoReceipt(f, answer);
  await checkCharged(f, requestId, { status: answer.status, delivered });
  f.assert();
}

const row = (check: string) =>
  `fuzz · ${settings.prefixes.map((p) => p.name).join("+")} · ${check} (seed ${SEED}, ${RUNS} runs)`;

describe(`fuzzing on ${settings.kind}`, () => {
  caseTest(
    row("negative_data_rejection: fuzzed request bodies → 4xx"),
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
    row("negative_data_rejection: fuzzed query and path parameters → 4xx"),
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
    row("garbage X-PAYMENT or PAYMENT-SIGNATURE → 4xx"),
    "fuzz",
    () =>
      fc.assert(
        fc.asyncProperty(
          labels(cases),
          fc.constantFrom("X-PAYMENT", "PAYMENT-SIGNATURE"),
          garbagePayment,
          (op, name, header) => expectClientAnswer(caseOf(op), withHeaders(caseOf(op).request, { [name]: header })),
        ),
        OPTIONS,
      ),
    TIMEOUT,
  );

  caseTest(
    row(
      "positive_data_acceptance: schema-valid inputs with adversarial numbers and strings, paid → never 400 or 5xx, charged exactly when delivered",
    ),
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
          fc.constantFrom(...X402_VERSIONS),
          ({ op, request }, version) => expectPaidAnswer(caseOf(op), request, false, version, true),
        ),
        OPTIONS,
      ),
    TIMEOUT,
  );

  caseTest(
    row("negative_data_rejection: fuzzed bodies, query and path parameters, paid → 4xx, no receipt, nothing charged"),
    ["fuzz", "paid"],
    () =>
      fc.assert(
        fc.asyncProperty(
          labels(cases).chain((op) => {
            const c = caseOf(op);
            const fuzzed = c.legacy
              ? fuzzedParameters(DOCS.analytics, c.template, opOf(c))
              : fuzzedBody(DOCS.analytics, bodySchema(c), c.request);
            return fuzzed.map((request) => ({ op, request }));
          }),
          fc.constantFrom(...X402_VERSIONS),
          // a fuzzed request may happen to be valid: then it is judged as a paid answer
          ({ op, request }, version) => expectPaidAnswer(caseOf(op), request, false, version),
        ),
        OPTIONS,
      ),
    TIMEOUT,
  );
});
