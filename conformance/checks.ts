/**
 * The judgements: every answer is held against the 3.1 document by the independent validator
 * (schema-validator.ts) and against the interface's facts (price, networks, signal vocabulary).
 * Problems are collected, not thrown one by one, and reported together under the case's label, so
 * a failure reads `Base_defiTvl [base] 402 challenge: accepts[0].maxAmountRequired: ...`.
 */
import type { PaymentRequirements } from "../client/x402/types.js";
import type { NegativeCase, PaidCase, Service } from "./cases.js";
import { DOCS } from "./cases.js";
import type { Answer } from "./http.js";
import { createResponseValidator, type ResponseValidator } from "./schema-validator.js";

const validators: Partial<Record<Service, ResponseValidator>> = {};
const validatorOf = (service: Service) => (validators[service] ??= createResponseValidator(DOCS[service]));

export class Findings {
  readonly problems: { field: string; message: string }[] = [];
  constructor(readonly label: string) {}

  add(field: string, message: string): void {
    this.problems.push({ field, message });
  }

  equal(field: string, actual: unknown, expected: unknown, why = ""): void {
    if (actual !== expected) this.add(field, `expected ${JSON.stringify(expected)}${why}, got ${JSON.stringify(actual)}`);
  }

  /** Throws one error naming the case and every field at fault. */
  assert(): void {
    if (!this.problems.length) return;
    const lines = this.problems.map((p) => `  - ${p.field}: ${p.message}`);
    throw new Error(`${this.label}: ${this.problems.length} contract violation(s)\n${lines.join("\n")}`);
  }
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
  const documented = DOCS[c.service].paths[c.template]?.[c.method.toLowerCase()]?.responses[String(answer.status)]?.content ?? {};
  if ("text/html" in documented) {
    if (!answer.contentType.startsWith("text/html") || !/<html[\s>]/i.test(answer.text))
      f.add("content-type", `expected an HTML page, got "${answer.contentType}": ${answer.text.slice(0, 120)}`);
    return undefined;
  }
  if (answer.json === undefined) {
    f.add("content-type", `expected a JSON body, got "${answer.contentType}": ${answer.text.slice(0, 120)}`);
    return undefined;
  }
  for (const v of validatorOf(c.service).validate(c.method, c.template, answer.status, answer.json)) f.add(v.path, v.message);
  return answer.json as Record<string, unknown>;
}

/** The 402 challenge: x402 v1, one requirement for the prefix's network, the interface's price, an absolute resource URL. */
export function checkChallenge(f: Findings, c: PaidCase, answer: Answer, origin?: string): PaymentRequirements | undefined {
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
    f.add("accepts[0].network", `expected ${networks.join(" or ")} (prefix "${c.prefix.prefix || "/"}"), got ${JSON.stringify(a.network)}`);
  else f.equal("accepts[0].asset", a.asset, c.assets[a.network as string], ` (USDC on ${a.network})`);
  f.equal("accepts[0].maxAmountRequired", a.maxAmountRequired, c.price.micro, ` (${c.price.usd} USD in micro-USDC)`);
  checkResource(f, c, a.resource, origin);
  const extra = (a.extra ?? {}) as Record<string, unknown>;
  if (c.prefix.family === "svm" && typeof extra.feePayer !== "string") f.add("accepts[0].extra.feePayer", "is required on Solana");
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
  if (!url.pathname.endsWith(path as string)) f.add("accepts[0].resource", `must name the requested path ${path}, got ${resource}`);
  if (origin && url.origin !== origin) f.add("accepts[0].resource", `must be on ${origin}, got ${resource}`);
}

/** A paid answer: the envelope for its status, the signal in the operation's vocabulary; a 206 carries no model output. */
export function checkEnvelope(f: Findings, c: PaidCase, answer: Answer, statuses: readonly number[]): void {
  const body = checkAnswer(f, c, answer, statuses);
  if (!body) return;
  if (!c.signals.includes(body.signal as string))
    f.add("signal", `expected one of ${c.signals.join(", ")} (the operation's vocabulary), got ${JSON.stringify(body.signal)}`);
  if (answer.status === 206) {
    f.equal("insight", body.insight, null, " (206: every model attempt failed)");
    f.equal("model_used", body.model_used, null, " (206)");
  }
}

/** The settlement receipt of a paid answer, for the network that was paid. */
export function checkReceipt(f: Findings, answer: Answer, network: string): void {
  const header = answer.headers.get("x-payment-response");
  if (!header) {
    f.add("X-PAYMENT-RESPONSE", "header is required on a paid answer");
    return;
  }
  try {
    const receipt = JSON.parse(Buffer.from(header, "base64").toString("utf8"));
    f.equal("X-PAYMENT-RESPONSE.success", receipt.success, true);
    f.equal("X-PAYMENT-RESPONSE.network", receipt.network, network);
  } catch {
    f.add("X-PAYMENT-RESPONSE", "must be base64 of a JSON receipt");
  }
}

/**
 * A 400 with the JSON error body naming the invalid field. Prism's body is generated from the
 * schema, so there the field is looked for in its `sl-violations` header instead.
 */
export function checkRejection(f: Findings, c: NegativeCase, answer: Answer, fromPrism: boolean): void {
  const body = checkAnswer(f, c, answer, [400]);
  if (!body) return;
  if (fromPrism) {
    const violations = JSON.parse(answer.headers.get("sl-violations") ?? "[]") as { location?: string[]; message?: string }[];
    const named = violations.some((v) => v.location?.includes(c.field) || v.message?.includes(`'${c.field}'`));
    if (!named) f.add("sl-violations", `must name ${c.location}.${c.field}, got ${JSON.stringify(violations)}`);
    return;
  }
  f.equal("error", body.error, "invalid_request");
  const errors = Array.isArray(body.errors) ? (body.errors as { location?: string; field?: string }[]) : [];
  if (!errors.some((e) => e.location === c.location && e.field === c.field))
    f.add("errors", `must name ${c.location}.${c.field}, got ${JSON.stringify(errors)}`);
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
  for (const v of validatorOf("analytics").validateComponent(component, answer.json)) f.add(v.path, `${v.message} (${component})`);
}
