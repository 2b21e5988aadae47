/**
 * The judgements: every answer is held against the 3.1 document by the independent validator
 * (schema-validator.ts) and against the interface's facts (price, networks, signal vocabulary).
 * Problems are collected, not thrown one by one, and reported together under the case's label, so
 * a failure reads `Base_defiTvl [base] 402 challenge: accepts[0].maxAmountRequired: ...`; a field of an
 * x402 header is named after the header (`PAYMENT-REQUIRED.accepts[0].amount`).
 */
import { isDeepStrictEqual } from "node:util";
import type { PaymentRequirements } from "../client/x402/types.js";
import type { components } from "../generated/types/analytics.js";
import { findNetwork } from "../lib/networks.js";
import type { NegativeCase, PaidCase, Service } from "./cases.js";
import { DOCS } from "./cases.js";
import type { Answer } from "./http.js";
import { createResponseValidator, type ResponseValidator, validateWithSchema } from "./schema-validator.js";

export type PaymentRequiredV2 = components["schemas"]["X402.PaymentRequiredV2"];
export type X402Version = 1 | 2;
export const X402_VERSIONS = [1, 2] as const;

const validators: Partial<Record<Service, ResponseValidator>> = {};
const validatorOf = (service: Service) => (validators[service] ??= createResponseValidator(DOCS[service]));
/** A value against a component schema of the analytics document (`X402.…`). */
export const validateX402 = (component: string, value: unknown) =>
  validatorOf("analytics")
    .validateComponent(component, value)
    .map((v) => ({ ...v, path: dotted(v.path) }));

export class Findings {
  readonly problems: { field: string; message: string }[] = [];
  constructor(readonly label: string) {}

  add(field: string, message: string): void {
    this.problems.push({ field, message });
  }

  equal(field: string, actual: unknown, expected: unknown, why = ""): void {
    if (!isDeepStrictEqual(actual, expected))
      this.add(field, `expected ${JSON.stringify(expected)}${why}, got ${JSON.stringify(actual)}`);
  }

  /** Throws one error naming the case and every field at fault. */
  assert(): void {
    if (!this.problems.length) return;
    const lines = this.problems.map((p) => `  - ${p.field}: ${p.message}`);
    throw new Error(`${this.label}: ${this.problems.length} contract violation(s)\n${lines.join("\n")}`);
  }
}

const PROMETHEUS_TEXT = "text/plain; version=0.0.4";
/** A sample line: a metric name, optional labels, a value (and optionally a timestamp). */
const SAMPLE = /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[^}]*\})? (-?[0-9.eE+-]+|NaN|[+-]Inf)( -?[0-9]+)?$/;

/** Prometheus text exposition (0.0.4): its media type, and every line a comment, blank, or a sample. */
function checkExposition(f: Findings, answer: Answer): void {
  if (!answer.contentType.startsWith(PROMETHEUS_TEXT))
    f.add("content-type", `expected "${PROMETHEUS_TEXT}", got "${answer.contentType}"`);
  const lines = answer.text.split("\n").filter((line) => line && !line.startsWith("#"));
  if (!lines.length) f.add("body", "holds no sample");
  const bad = lines.find((line) => !SAMPLE.test(line));
  if (bad !== undefined) f.add("body", `not a Prometheus sample line: ${bad.slice(0, 120)}`);
}

/** Status, JSON media type and the body against the document's schema for that status. */
export function checkAnswer(
  f: Findings,
  c: { service: Service; method: string; template: string },
  answer: Answer,
  statuses: readonly number[],
): Record<string, unknown> | undefined {
  if (!statuses.includes(answer.status)) {
    f.add("status", `expected ${statuses.join(" or ")}, got ${answer.status}: ${answer.text.slice(0, 300)}`);
    return undefined;
  }
  const documented =
    DOCS[c.service].paths[c.template]?.[c.method.toLowerCase()]?.responses[String(answer.status)]?.content ?? {};
  if ("text/html" in documented) {
    if (!answer.contentType.startsWith("text/html") || !/<html[\s>]/i.test(answer.text))
      f.add("content-type", `expected an HTML page, got "${answer.contentType}": ${answer.text.slice(0, 120)}`);
    return undefined;
  }
  if (PROMETHEUS_TEXT in documented) {
    checkExposition(f, answer);
    return undefined;
  }
  if (answer.json === undefined) {
    f.add("content-type", `expected a JSON body, got "${answer.contentType}": ${answer.text.slice(0, 120)}`);
    return undefined;
  }
  for (const v of validatorOf(c.service).validate(c.method, c.template, answer.status, answer.json))
    f.add(v.path, v.message);
  return answer.json as Record<string, unknown>;
}

/**
 * What a page on another origin needs to read the answer (the contract's CORS): `Access-Control-Allow-Origin: *`,
 * and each of `exposed` listed in `Access-Control-Expose-Headers` (or `*`, every header, for a request without
 * credentials, as x402 clients send), without which a browser hides it from the script.
 */
export function checkBrowserReadable(f: Findings, answer: Answer, exposed: readonly string[] = []): void {
  const origin = answer.headers.get("access-control-allow-origin");
  if (origin !== "*")
    f.add("access-control-allow-origin", `expected "*" (any origin may read), got ${JSON.stringify(origin)}`);
  const listed = (answer.headers.get("access-control-expose-headers") ?? "")
    .split(",")
    .map((name) => name.trim().toLowerCase());
  for (const name of exposed)
    if (!listed.includes(name.toLowerCase()) && !listed.includes("*"))
      f.add("access-control-expose-headers", `must list ${name}, got ${JSON.stringify(listed.filter(Boolean))}`);
}

/** The 402 challenge: x402 v1, one requirement for the prefix's network, the interface's price, an absolute resource URL. */
export function checkChallenge(
  f: Findings,
  c: PaidCase,
  answer: Answer,
  origin?: string,
): PaymentRequirements | undefined {
  const body = checkAnswer(f, c, answer, [402]);
  if (!body) return undefined;
  f.equal("x402Version", body.x402Version, 1);
  const accepts = Array.isArray(body.accepts) ? (body.accepts as Record<string, unknown>[]) : [];
  f.equal("accepts.length", accepts.length, 1);
  const a = accepts[0];
  if (!a) return undefined;
  for (const field of ["scheme", "network", "maxAmountRequired", "resource", "payTo", "asset"])
    if (typeof a[field] !== "string" || !a[field]) f.add(`accepts[0].${field}`, "is required (a non-empty string)");
  f.equal("accepts[0].scheme", a.scheme, "exact");
  const networks = Object.keys(c.assets);
  if (!networks.includes(a.network as string))
    f.add(
      "accepts[0].network",
      `expected ${networks.join(" or ")} (prefix "${c.prefix.prefix || "/"}"), got ${JSON.stringify(a.network)}`,
    );
  else f.equal("accepts[0].asset", a.asset, c.assets[a.network as string], ` (USDC on ${a.network})`);
  f.equal("accepts[0].maxAmountRequired", a.maxAmountRequired, c.price.micro, ` (${c.price.usd} USD in micro-USDC)`);
  checkResource(f, c, a.resource, origin);
  const extra = (a.extra ?? {}) as Record<string, unknown>;
  if (c.prefix.family === "svm" && typeof extra.feePayer !== "string")
    f.add("accepts[0].extra.feePayer", "is required on Solana");
  if (c.prefix.family === "evm" && (typeof extra.name !== "string" || typeof extra.version !== "string"))
    f.add("accepts[0].extra", "must name the EIP-712 domain (name, version) on EVM networks");
  return a as unknown as PaymentRequirements;
}

function checkResource(f: Findings, c: PaidCase, resource: unknown, origin?: string): void {
  let url: URL;
  try {
    url = new URL(String(resource));
  } catch {
    f.add("accepts[0].resource", `must be an absolute URL, got ${JSON.stringify(resource)}`);
    return;
  }
  const path = c.request.path.split("?")[0];
  if (!url.pathname.endsWith(path as string))
    f.add("accepts[0].resource", `must name the requested path ${path}, got ${resource}`);
  if (origin && url.origin !== origin) f.add("accepts[0].resource", `must be on ${origin}, got ${resource}`);
}

/** A paid answer: the envelope for its status, the signal in the operation's vocabulary; a 206 carries no model output. */
export function checkEnvelope(f: Findings, c: PaidCase, answer: Answer, statuses: readonly number[]): void {
  const body = checkAnswer(f, c, answer, statuses);
  if (!body) return;
  if (!c.signals.includes(body.signal as string))
    f.add(
      "signal",
      `expected one of ${c.signals.join(", ")} (the operation's vocabulary), got ${JSON.stringify(body.signal)}`,
    );
  if (answer.status === 206) {
    f.equal("insight", body.insight, null, " (206: every model attempt failed)");
    f.equal("model_used", body.model_used, null, " (206)");
  }
}

/** A JSON pointer (`/accepts/0/amount`) as the suite names fields (`.accepts[0].amount`). */
const dotted = (pointer: string) =>
  pointer
    .split("/")
    .filter(Boolean)
    .map((step) => (/^\d+$/.test(step) ? `[${step}]` : `.${step}`))
    .join("");

/** Base64 of a JSON object, as every x402 header carries it; throws when it is not. */
export function decodeHeader(header: string): Record<string, unknown> {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(header) || header.length % 4 !== 0) throw new Error("not base64");
  const value = JSON.parse(Buffer.from(header, "base64").toString("utf8"));
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new Error("not a JSON object");
  return value;
}

/** An x402 header of `answer` decoded and held against its component schema, or undefined (and a finding) when it cannot be. */
function headerObject(
  f: Findings,
  answer: Answer,
  header: string,
  component: string,
  where: string,
): Record<string, unknown> | undefined {
  const value = answer.headers.get(header);
  if (value === null) {
    f.add(header, `header is required ${where}`);
    return undefined;
  }
  let decoded: Record<string, unknown>;
  try {
    decoded = decodeHeader(value);
  } catch {
    f.add(header, `must be base64 of a JSON object (${component}), got ${JSON.stringify(value.slice(0, 80))}`);
    return undefined;
  }
  for (const v of validatorOf("analytics").validateComponent(component, decoded))
    f.add(`${header}${dotted(v.path)}`, `${v.message} (${component})`);
  return decoded;
}

const CHALLENGE_V2 = "PAYMENT-REQUIRED";
/** The v1 body's reason when no payment header was sent, and the v2 challenge's. */
const NO_PAYMENT = { 1: "X-PAYMENT header is required", 2: "Payment required" } as const;
const BAZAAR_SCHEMA = "https://json-schema.org/draft/2020-12/schema";

/**
 * The x402 v2 challenge beside the v1 body of a 402: `PAYMENT-REQUIRED` is base64 JSON of an
 * `X402.PaymentRequiredV2` offering exactly what the v1 body offers (one requirement, the network
 * as its CAIP-2 id, `amount` the interface's price), for the same resource and reason, with a
 * Bazaar extension that describes the operation and satisfies its own schema; and the 402 is never
 * cached. Reads the v1 body's entry without judging it (`checkChallenge` does).
 */
export function checkChallengeV2(f: Findings, c: PaidCase, answer: Answer): PaymentRequiredV2 | undefined {
  f.equal("Cache-Control", answer.headers.get("cache-control"), "no-store", " (a challenge is never cached)");
  const challenge = headerObject(f, answer, CHALLENGE_V2, "X402.PaymentRequiredV2", "on a 402");
  if (!challenge) return undefined;
  const field = (path: string) => `${CHALLENGE_V2}.${path}`;
  const body = (answer.json ?? {}) as { error?: unknown; accepts?: unknown };
  const v1 = ((Array.isArray(body.accepts) ? body.accepts[0] : undefined) ?? {}) as Record<string, unknown>;
  f.equal(field("x402Version"), challenge.x402Version, 2);
  if (body.error === NO_PAYMENT[1]) f.equal(field("error"), challenge.error, NO_PAYMENT[2], " (no payment was sent)");
  else f.equal(field("error"), challenge.error, body.error, " (the v1 body's reason)");
  const resource = (challenge.resource ?? {}) as Record<string, unknown>;
  f.equal(field("resource.url"), resource.url, v1.resource, " (the v1 body's resource)");
  const accepts = Array.isArray(challenge.accepts) ? (challenge.accepts as Record<string, unknown>[]) : [];
  f.equal(field("accepts.length"), accepts.length, 1);
  const a = accepts[0];
  if (a) {
    const caip2 = findNetwork(String(v1.network))?.details.caip2;
    f.equal(field("accepts[0].network"), a.network, caip2, ` (the CAIP-2 id of the v1 body's ${v1.network})`);
    f.equal(field("accepts[0].amount"), a.amount, c.price.micro, ` (${c.price.usd} USD in micro-USDC)`);
    for (const key of ["scheme", "asset", "payTo", "maxTimeoutSeconds", "extra"])
      f.equal(field(`accepts[0].${key}`), a[key], v1[key], " (the v1 body's)");
  }
  checkBazaar(f, c, (challenge.extensions as { bazaar?: unknown } | undefined)?.bazaar);
  return challenge as PaymentRequiredV2;
}

/** The Bazaar extension of a v2 challenge: the operation's method, and `info` valid under its own JSON Schema 2020-12. */
function checkBazaar(f: Findings, c: PaidCase, bazaar: unknown): void {
  if (!bazaar || typeof bazaar !== "object") return; // the component schema requires it
  const { info, schema } = bazaar as { info?: { input?: { method?: unknown } }; schema?: unknown };
  const field = `${CHALLENGE_V2}.extensions.bazaar`;
  f.equal(`${field}.info.input.method`, info?.input?.method, c.method, " (the operation's method)");
  if (!schema || typeof schema !== "object") return;
  f.equal(`${field}.schema.$schema`, (schema as { $schema?: unknown }).$schema, BAZAAR_SCHEMA);
  try {
    for (const v of validateWithSchema(schema, info))
      f.add(`${field}.info${dotted(v.path)}`, `${v.message} (the extension's schema)`);
  } catch (error) {
    f.add(`${field}.schema`, `is not a JSON Schema 2020-12: ${(error as Error).message}`);
  }
}

/** How a payment was made: the version of its header, the v1 network paid, and the amount (the interface's price). */
export interface Paid {
  version: X402Version;
  network: string;
  amount: string;
  /** The resource paid for, as the challenge named it. */
  resource?: string;
}

export const RECEIPTS = {
  1: { header: "X-PAYMENT-RESPONSE", component: "X402.SettlementReceipt", paidIn: "X-PAYMENT" },
  2: { header: "PAYMENT-RESPONSE", component: "X402.SettlementReceiptV2", paidIn: "PAYMENT-SIGNATURE" },
} as const;

/**
 * The settlement receipt of a paid answer, in the header of the version paid in and in no other:
 * successful, for the network paid (in v2 as its CAIP-2 id, with the amount settled).
 */
export function checkReceipt(f: Findings, answer: Answer, paid: Paid): void {
  const { header, component, paidIn } = RECEIPTS[paid.version];
  const other = RECEIPTS[paid.version === 1 ? 2 : 1].header;
  if (answer.headers.get(other) !== null)
    f.add(other, `must not come with a payment in ${paidIn} (the receipt is in ${header})`);
  const receipt = headerObject(f, answer, header, component, "on a paid answer");
  if (!receipt) return;
  f.equal(`${header}.success`, receipt.success, true);
  if (paid.version === 1) f.equal(`${header}.network`, receipt.network, paid.network);
  else {
    f.equal(
      `${header}.network`,
      receipt.network,
      findNetwork(paid.network)?.details.caip2,
      ` (the CAIP-2 id of ${paid.network})`,
    );
    f.equal(`${header}.amount`, receipt.amount, paid.amount, " (the price)");
  }
}

/**
 * An answer that was not delivered carries no receipt in either version. The one v2 header it may
 * carry is a 402's report of a settlement that failed (`success: false`, no transaction).
 */
export function checkNoReceipt(f: Findings, answer: Answer): void {
  for (const { header } of Object.values(RECEIPTS)) {
    if (answer.headers.get(header) === null) continue;
    if (answer.status === 402 && header === RECEIPTS[2].header)
      headerObject(f, answer, header, "X402.SettlementFailureV2", "on a refused settlement");
    else f.add(header, `must not come with a ${answer.status}`);
  }
}

/**
 * A 400 with the JSON error body naming the invalid field. Prism's body is generated from the
 * schema, so there the field is looked for in its `sl-violations` header instead.
 */
export function checkRejection(f: Findings, c: NegativeCase, answer: Answer, fromPrism: boolean): void {
  const body = checkAnswer(f, c, answer, [400]);
  if (!body) return;
  // Prism's own refusals carry its violations; the mock front's (a field a closed body does not have) the service's body.
  if (fromPrism && answer.headers.has("sl-violations")) {
    const violations = JSON.parse(answer.headers.get("sl-violations") ?? "[]") as {
      location?: string[];
      message?: string;
    }[];
    const named = violations.some((v) => v.location?.includes(c.field) || v.message?.includes(`'${c.field}'`));
    if (!named) f.add("sl-violations", `must name ${c.location}.${c.field}, got ${JSON.stringify(violations)}`);
    return;
  }
  f.equal("error", body.error, "invalid_request");
  const errors = Array.isArray(body.errors) ? (body.errors as { location?: string; field?: string }[]) : [];
  if (!errors.some((e) => e.location === c.location && e.field === c.field))
    f.add("errors", `must name ${c.location}.${c.field}, got ${JSON.stringify(errors)}`);
}

/** The start of the 402's `message` to an unpaid request whose input breaks the contract. */
const FIX_FIRST = /^Fix .+ before paying/s;

/**
 * The 402 of an unpaid request whose input breaks the contract (decision 0016: a request without payment gets its
 * challenge whatever its input, so that an indexer's probe is answered): the challenge in both versions, as any
 * unpaid request of the operation gets it; its body an `X402.PaymentRequiredBody` whose `errors` name the field as
 * the 400 of the same request paid names it, and whose `message` says to fix them before paying; the v2
 * `PAYMENT-REQUIRED` the plain challenge, which every x402 client reads unchanged. What to pay is returned.
 */
export function checkInputChallenge(
  f: Findings,
  c: NegativeCase & { paid: PaidCase },
  answer: Answer,
): { requirement?: PaymentRequirements; v2?: PaymentRequiredV2 } {
  const paid: PaidCase = { ...c.paid, request: c.request };
  const requirement = checkChallenge(f, paid, answer);
  if (answer.status !== 402 || answer.json === undefined) return {};
  const body = answer.json as { errors?: unknown; message?: unknown };
  const errors = Array.isArray(body.errors) ? (body.errors as { location?: string; field?: string }[]) : [];
  if (!errors.some((e) => e.location === c.location && e.field === c.field))
    f.add(
      "errors",
      `must name ${c.location}.${c.field} (as the 400 of the request paid), got ${JSON.stringify(errors)}`,
    );
  if (typeof body.message !== "string" || !FIX_FIRST.test(body.message))
    f.add("message", `must start "Fix … before paying" (the input's errors), got ${JSON.stringify(body.message)}`);
  const v2 = checkChallengeV2(f, paid, answer);
  if (v2 && "errors" in v2)
    f.add(`${CHALLENGE_V2}.errors`, "must be absent: the v2 challenge stays the plain challenge");
  return { requirement, v2 };
}

/**
 * An answer to an input the caller got wrong (or did not pay for): a 4xx, never a 5xx, with the JSON
 * error body (or the 402 challenge). `paidFor` allows the answers a valid paid request may get.
 */
export function checkClientAnswer(f: Findings, c: PaidCase, answer: Answer, paidFor = false): void {
  const ok = answer.status < 500 && (paidFor || answer.status >= 400);
  if (!ok) {
    f.add("status", `expected ${paidFor ? "below 500" : "a 4xx"}, got ${answer.status}: ${answer.text.slice(0, 300)}`);
    return;
  }
  if (answer.status === 200 || answer.status === 206) {
    checkEnvelope(f, c, answer, [200, 206]);
    return;
  }
  if (answer.json === undefined) {
    f.add("content-type", `expected a JSON error body, got "${answer.contentType}"`);
    return;
  }
  const component = answer.status === 402 ? "X402.PaymentRequiredBody" : "Common.ErrorBody";
  for (const v of validatorOf("analytics").validateComponent(component, answer.json))
    f.add(v.path, `${v.message} (${component})`);
  if (answer.status === 402) checkChallengeV2(f, c, answer);
}
