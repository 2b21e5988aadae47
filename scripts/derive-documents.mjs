// Derivations `npm run generate` applies to the emitted documents, each from facts already in them,
// so nothing here can disagree with the spec: the price sentences and tables a reader of the docs
// page sees (from `x-payment-info`), a realistic example for every error status (from the
// operation's own inputs and answers), and the per-network documents (one prefix's paid operations
// plus the free ones).

import { parameterOf } from "../lib/openapi-refs.mjs";

const JSON_MEDIA = "application/json";

/** Every operation of a document with its path and method. */
function* operationsOf(doc) {
  for (const [path, item] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(item)) yield { path, method, op };
}

/** The prefix name of a paid operation: its operation id's first part (`Base_defiTvl` → `base`). */
export const prefixNameOf = (op) => op.operationId.split("_")[0].toLowerCase();

const networkLine = (network) =>
  `${network.testnet.network} (testnet profile, the default) or ${network.mainnet.network} (mainnet)`;

/** One row per operation (POST path), one column per prefix with its price there. */
function priceTable(doc) {
  const rows = new Map();
  const prefixes = new Map();
  for (const { path, method, op } of operationsOf(doc)) {
    const info = op["x-payment-info"];
    if (!info || method !== "post") continue;
    const name = prefixNameOf(op);
    prefixes.set(name, info.network);
    const bare = path.slice(info.network.prefix.length);
    const row = rows.get(bare) ?? { summary: op.summary, prices: new Map() };
    row.prices.set(name, `${info.price.amount} (${info.maxAmountRequired})`);
    rows.set(bare, row);
  }
  const names = [...prefixes.keys()];
  const networks = [
    "| prefix | paths | network | asset (testnet / mainnet) | gas |",
    "|---|---|---|---|---|",
    ...names.map((name) => {
      const n = prefixes.get(name);
      return `| \`${name}\` | \`${n.prefix || "/"}...\` | ${networkLine(n)} | \`${n.testnet.asset}\` / \`${n.mainnet.asset}\` | ${n.gas} |`;
    }),
  ];
  const prices = [
    `| operation | path | ${names.map((name) => `\`${name}\``).join(" | ")} |`,
    `|---|---|${names.map(() => "---|").join("")}`,
    ...[...rows].map(
      ([path, row]) =>
        `| ${row.summary} | \`POST ${path}\` | ${names.map((n) => row.prices.get(n) ?? "-").join(" | ")} |`,
    ),
  ];
  return [
    "## Networks",
    "",
    "The URL prefix chooses the network; the deployment's profile chooses testnet or mainnet (`GET /` says which).",
    "",
    ...networks,
    "",
    "## Prices per network",
    "",
    "USD per call, with the exact amount in micro-USDC (the 402's `maxAmountRequired`). Legacy GETs cost what their POST costs.",
    "",
    ...prices,
  ].join("\n");
}

/**
 * Appends the price of each paid operation to its description, and the networks and price tables
 * to the document's description (only the prefixes the document has).
 */
export function describePrices(doc) {
  for (const { op } of operationsOf(doc)) {
    const info = op["x-payment-info"];
    if (!info) continue;
    const price = `**Price: ${info.price.amount} USD** per call (${info.maxAmountRequired} micro-USDC), paid in USDC on ${networkLine(info.network)}`;
    op.description = `${op.description ?? op.summary}\n\n${price}: call without a payment for the 402 challenge (x402 v2 in the \`PAYMENT-REQUIRED\` header, v1 in the body), then repeat the call with the signed payment in \`PAYMENT-SIGNATURE\` (v2) or \`X-PAYMENT\` (v1).`;
  }
  if ([...operationsOf(doc)].some(({ op }) => op["x-payment-info"]))
    doc.info.description = `${doc.info.description}\n\n${priceTable(doc)}`;
}

const resolve = (doc, schema) => {
  let current = schema;
  while (current?.$ref || (current?.allOf?.length === 1 && !current.properties && !current.type))
    current = current.$ref
      ? doc.components.schemas[decodeURIComponent(current.$ref.split("/").pop())]
      : current.allOf[0];
  return current ?? {};
};

/** The operation's inputs as `{location, field, schema, required, example}`, body fields first. */
function inputsOf(doc, op) {
  const media = op.requestBody?.content?.[JSON_MEDIA];
  const body = resolve(doc, media?.schema);
  const fields = Object.entries(body.properties ?? {}).map(([field, schema]) => ({
    location: "body",
    field,
    schema: { ...resolve(doc, schema), ...schema },
    required: body.required?.includes(field) ?? false,
    example: media?.example?.[field],
  }));
  const params = (op.parameters ?? [])
    .map((p) => parameterOf(doc, p))
    .filter((p) => p.in !== "header")
    .map((p) => ({
      location: p.in,
      field: p.name,
      schema: resolve(doc, p.schema),
      required: !!p.required,
      example: p.example,
    }));
  return [...fields, ...params];
}

/** The first input with a rule a caller can break, as the validator words it (express-openapi-validator over Ajv). */
function violationOf(doc, op) {
  const inputs = inputsOf(doc, op);
  for (const input of inputs) {
    const s = resolve(doc, input.schema);
    if (s.maximum !== undefined) return { ...input, message: `must be <= ${s.maximum}` };
    if (s.enum) return { ...input, message: `must be equal to one of the allowed values: ${s.enum.join(", ")}` };
    if (s.maxLength !== undefined) return { ...input, message: `must NOT have more than ${s.maxLength} characters` };
  }
  const required = inputs.find((input) => input.required && input.location === "body");
  if (required) return { ...required, message: `must have required property '${required.field}'` };
  const pattern = inputs.find((input) => resolve(doc, input.schema).pattern);
  return pattern && { ...pattern, message: `must match pattern "${resolve(doc, pattern.schema).pattern}"` };
}

const REQUEST_ID = "3f2b8c1e-5d7a-4e9b-a1c6-0d4e8f2a9b71";

/** What the service answers for each error status of this operation, with the wording the service uses. */
function errorExample(doc, op, status) {
  if (status === "400") {
    const v = violationOf(doc, op);
    if (!v) return undefined;
    return {
      error: "invalid_request",
      message: `${v.field}: ${v.message}`,
      errors: [{ location: v.location, field: v.field, message: v.message }],
      request_id: REQUEST_ID,
    };
  }
  if (status === "404") {
    // the entity is a required path or body value that is not one of a closed set (a venue is not an entity)
    const entity = inputsOf(doc, op).find(
      (input) =>
        input.required && input.location !== "query" && input.example !== undefined && !resolve(doc, input.schema).enum,
    );
    const message = entity ? `Unknown ${entity.field}: ${entity.example}.` : "No such endpoint.";
    return { error: "not_found", message, request_id: REQUEST_ID };
  }
  if (status === "500")
    return {
      error: "internal_error",
      message: "The service failed to produce a valid answer.",
      request_id: REQUEST_ID,
    };
  if (status === "502") {
    const answer = op.responses["200"]?.content?.[JSON_MEDIA]?.example;
    const provider = answer?.sources?.[0] ?? "upstream";
    return {
      error: "upstream_error",
      message: `The upstream provider ${provider} failed; retry later.`,
      provider,
      request_id: REQUEST_ID,
    };
  }
  if (status === "503")
    return {
      error: "service_unavailable",
      message:
        "The service is temporarily unavailable; nothing was charged. Repeat the request after Retry-After seconds.",
      request_id: REQUEST_ID,
    };
  return undefined;
}

/** Gives every JSON error answer without an example the one this operation would really get. */
export function deriveErrorExamples(doc) {
  for (const { op } of operationsOf(doc)) {
    for (const [status, response] of Object.entries(op.responses)) {
      const media = response.content?.[JSON_MEDIA];
      if (!media || media.example !== undefined || Number(status) < 400 || status === "402") continue;
      const example = errorExample(doc, op, status);
      if (example) media.example = example;
    }
  }
}

/** The prefix names of a document's paid operations, in document order. */
export const prefixNames = (doc) => [
  ...new Set([...operationsOf(doc)].filter(({ op }) => op["x-payment-info"]).map(({ op }) => prefixNameOf(op))),
];

/**
 * The document restricted to one prefix's operations (its paid ones and its payment lookups, whose operation ids name
 * the prefix too) and the free ones (description tables not yet added).
 */
export function networkDocument(doc, name) {
  const copy = structuredClone(doc);
  const prefixes = new Set(prefixNames(doc));
  copy.info.title = `${copy.info.title} (${name})`;
  for (const [path, item] of Object.entries(copy.paths)) {
    for (const [method, op] of Object.entries(item))
      if (prefixes.has(prefixNameOf(op)) && prefixNameOf(op) !== name) delete item[method];
    if (!Object.keys(item).length) delete copy.paths[path];
  }
  return copy;
}
