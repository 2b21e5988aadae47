/**
 * Dredd hooks for `npm run dredd` (scripts/dredd.mjs), which runs Dredd in its own process next to
 * the in-process services and hands these hooks `globalThis.conformanceDredd`:
 * `{ pay(version, body, challenge, identifier?) → {header: value}, unknownAgent, skipped: Map<reason, count> }`:
 * `pay` signs a 402 (its v1 body and its `PAYMENT-REQUIRED` value) into the payment header of that x402 version
 * (in v2 naming its purchase with the x402 `payment-identifier` `identifier`, when given).
 *
 * Dredd checks status codes, routes and media types (its OpenAPI 3 parser gives it no body schema):
 * the vitest suite is the body judge. Each transaction is made to produce its documented status, or
 * skipped below with the reason it cannot be produced against a healthy server.
 */
const hooks = require("hooks");

/** Statuses no request to a healthy, offline server can produce, by service. */
const METRICS_TOKEN =
  "METRICS_TOKEN is not set on the in-process services, so /metrics is open; the vitest suite checks the 401";
const SKIPPED = {
  analytics: {
    206: "needs every model attempt to fail; the vitest suite checks 206 against a degraded in-process service",
    401: METRICS_TOKEN,
    404: "needs a paid request naming an entity the data does not hold; the fuzzing meets such 404s and checks their body",
    409: "needs a payment identifier another payer bought with; the conformance suite provokes it on every paid operation",
    500: "an unexpected server failure cannot be provoked on purpose",
    502: "needs an upstream provider or the settlement to fail",
    503: "needs the ledger to be unreachable or an answer slower than its payment's deadline; the vitest suite provokes both",
  },
  registry: {
    401: METRICS_TOKEN,
    500: "an unexpected server failure cannot be provoked on purpose",
    503: "needs the store to be unreachable or a /readyz check failing; the vitest suite provokes both (server/registry/app.test.ts, test/multi-instance/, server/ops/)",
  },
};

/** Text answers Dredd would compare literally, by media type: what the real body must look like instead. */
const TEXT = {
  "text/html": { looksRight: (body) => /^<!doctype html>/i.test(body), placeholder: "<!doctype html> (an HTML page)" },
  "text/plain; version=0.0.4": {
    looksRight: (body) => /^# (HELP|TYPE) /m.test(body),
    placeholder: "# HELP (Prometheus metrics)",
  },
};
const textOf = (service, transaction) => Object.keys(mediaOf(service, transaction)).find((type) => type in TEXT);

const DOCUMENTS = {
  analytics: require("../generated/openapi/3.0/analytics.json"),
  registry: require("../generated/openapi/3.0/registry.json"),
};

/**
 * Responses Dredd can only compare by status and media type: where the document has no example,
 * Dredd generates one holding every optional field and then requires them all; and a union that the
 * example shows one branch of (the EVM `extra` of the first x402 discovery item, where the service
 * lists Solana first) cannot be inferred from one example. The vitest suite validates these bodies.
 */
const STRUCTURE_NOT_INFERABLE = new Set(["GET /.well-known/x402 200"]);

/** The media types the document gives the transaction's expected response. */
function mediaOf(service, transaction) {
  const { resourceName } = transaction.origin;
  const method = transaction.request.method.toLowerCase();
  return DOCUMENTS[service].paths[resourceName]?.[method]?.responses[transaction.expected.statusCode]?.content ?? {};
}

/** Whether Dredd can compare the body with the document's example (or there is no body, as on a 304). */
function bodyComparable(service, transaction) {
  const { resourceName } = transaction.origin;
  const method = transaction.request.method;
  const status = transaction.expected.statusCode;
  if (STRUCTURE_NOT_INFERABLE.has(`${method} ${resourceName} ${status}`)) return false;
  const media = Object.values(mediaOf(service, transaction));
  return media.length === 0 || media.some((m) => m.example !== undefined || m.examples !== undefined);
}

const context = () => {
  if (!globalThis.conformanceDredd)
    throw new Error("run these hooks through `npm run dredd`, which provides the payer");
  return globalThis.conformanceDredd;
};

const serviceOf = (transaction) => (/registry/.test(transaction.origin.filename) ? "registry" : "analytics");
const baseOf = (transaction) => `${transaction.protocol}//${transaction.host}:${transaction.port}`;

function dropHeader(request, name) {
  for (const key of Object.keys(request.headers))
    if (key.toLowerCase() === name.toLowerCase()) delete request.headers[key];
}

/**
 * The transaction's request as sent so far, to ask the server what it would answer (a challenge, an ETag: nothing is
 * paid or changed, so it is asked again once if the connection fails). Between two Dredd runs a pooled keep-alive
 * connection can sit idle past the server's keep-alive timeout, and the next request on it fails as it is closed.
 */
async function probe(transaction, extraHeaders = {}) {
  const { method, uri, headers, body } = transaction.request;
  const ask = () =>
    fetch(`${baseOf(transaction)}${uri}`, {
      method,
      headers: { ...headers, ...extraHeaders },
      body: body || undefined,
    });
  return ask().catch(ask);
}

/** The payment request header and the receipt response header of each x402 version. */
const X402 = {
  1: { payment: "X-PAYMENT", receipt: "X-PAYMENT-RESPONSE" },
  2: { payment: "PAYMENT-SIGNATURE", receipt: "PAYMENT-RESPONSE" },
};

/**
 * A paid request: ask for the challenge, then attach a payment for exactly what it asks (network of
 * the prefix). POSTs pay in x402 v2, legacy GETs in v1, so both versions are paid on every prefix; the
 * document lists both receipt headers and an answer carries the one of the version paid in.
 */
async function attachPayment(transaction) {
  const challenge = await probe(transaction);
  if (challenge.status !== 402) return; // a free endpoint
  const version = transaction.request.method === "POST" ? 2 : 1;
  const header = await context().pay(version, await challenge.json(), challenge.headers.get("payment-required"));
  Object.assign(transaction.request.headers, header);
  const other = X402[version === 2 ? 1 : 2].receipt.toLowerCase();
  for (const name of Object.keys(transaction.expected.headers ?? {}))
    if (name.toLowerCase() === other) delete transaction.expected.headers[name];
}

/**
 * An invalid request the service must reject with 400: malformed JSON, or a query key without a value (a free GET
 * that takes no query parameter ignores `name=value` pairs, so an undocumented parameter with a value is no 400 there).
 */
function invalidate(transaction) {
  if (transaction.request.method === "POST") transaction.request.body = "{not json";
  else transaction.request.uri += `${transaction.request.uri.includes("?") ? "&" : "?"}undocumented_parameter`;
}

/** The same path naming an agent nobody holds. */
function unknownAgent(transaction) {
  const template = transaction.origin.resourceName;
  const segments = template.split("/");
  const at = segments.indexOf("{name}");
  const uri = transaction.request.uri.split("?");
  const parts = uri[0].split("/");
  parts[at] = context().unknownAgent;
  transaction.request.uri = [parts.join("/"), ...uri.slice(1)].join("?");
  transaction.fullPath = transaction.request.uri;
}

/** A payment lookup's path (`{prefix}/payments/{id}`, `{prefix}/payments/by-transaction/{transaction}`). */
const LOOKUP = /^(.*)\/payments\/(?:by-transaction\/\{transaction\}|\{id\})$/;

/**
 * A lookup that must find a payment (its 200): `/defi/tvl` bought under the lookup's prefix with a fresh
 * payment-identifier, then the lookup pointed at that purchase, by its identifier or by its transaction.
 */
async function purchaseToLookUp(transaction) {
  const [, prefix] = LOOKUP.exec(transaction.origin.resourceName);
  const url = `${baseOf(transaction)}${prefix}/defi/tvl`;
  const post = (headers = {}) =>
    fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: "{}" });
  const challenge = await post();
  const id = `pay_dredd_${Date.now()}_${Math.random().toString(36).slice(2)}`;
  const header = await context().pay(2, await challenge.json(), challenge.headers.get("payment-required"), id);
  const paid = await post(header);
  const settlement = JSON.parse(Buffer.from(paid.headers.get("payment-response") ?? "", "base64").toString("utf8"));
  const key = transaction.origin.resourceName.endsWith("{id}") ? id : settlement.transaction;
  transaction.request.uri = transaction.request.uri.replace(/[^/?]+(\?|$)/, `${encodeURIComponent(key)}$1`);
  // a settled payment has nothing to ask again about: `Retry-After` comes only with a pending one
  for (const name of Object.keys(transaction.expected.headers ?? {}))
    if (name.toLowerCase() === "retry-after") delete transaction.expected.headers[name];
}

async function prepare(transaction) {
  const service = serviceOf(transaction);
  const status = Number(transaction.expected.statusCode);
  const lookup = LOOKUP.test(transaction.origin.resourceName);
  // a lookup's 404 is its example's own id or transaction, which names no payment: no entity to invent
  const reason = lookup && status === 404 ? undefined : SKIPPED[service][status];
  if (reason) {
    transaction.skip = true;
    const { skipped } = context();
    const key = `${status} (${service}): ${reason}`;
    skipped.set(key, (skipped.get(key) ?? 0) + 1);
    return;
  }
  // A text answer (the /docs page, the metrics) has no JSON to compare: Dredd checks its status and media type
  // (and, below, that it looks like what it is); the browser test checks the page, the vitest suite the metrics.
  if (textOf(service, transaction)) delete transaction.expected.bodySchema;
  else if (!bodyComparable(service, transaction)) transaction.expected.body = "{}";
  // Dredd sends each documented payment header with an empty value: none is sent unless paid for (never for a 402).
  for (const { payment } of Object.values(X402)) dropHeader(transaction.request, payment);
  if (lookup && status === 200) await purchaseToLookUp(transaction);
  else if (lookup && status === 404) {
    // the example's id or transaction names no payment of the in-process service: the 404 as documented
  } else if (status === 400) {
    invalidate(transaction);
    // a paid route answers an unpaid invalid request with its challenge naming the fields: the 400 is the paid one's
    if (service === "analytics") await attachPayment(transaction);
  } else if (status === 404) unknownAgent(transaction);
  else if (status === 304) {
    const first = await probe(transaction);
    transaction.request.headers["If-None-Match"] = first.headers.get("etag") ?? "";
  } else if (service === "analytics" && status !== 402) await attachPayment(transaction);
  // A 402 without a payment is a plain challenge: the v2 failure report it lists comes only when settlement refused one.
  if (status === 402)
    for (const name of Object.keys(transaction.expected.headers ?? {}))
      if (name.toLowerCase() === X402[2].receipt.toLowerCase()) delete transaction.expected.headers[name];
  transaction.fullPath = transaction.request.uri;
}

hooks.beforeEach((transaction, done) => {
  prepare(transaction).then(
    () => done(),
    (error) => {
      transaction.fail = `hook could not prepare the request: ${error.message}`;
      done();
    },
  );
});

// Express always adds `; charset=utf-8`; Dredd compares Content-Type literally, and text bodies literally too.
hooks.beforeEachValidation((transaction, done) => {
  const type = transaction.real.headers["content-type"];
  if (type) transaction.real.headers["content-type"] = type.replace(/;\s*charset=utf-8/i, "");
  const text = TEXT[textOf(serviceOf(transaction), transaction)];
  if (text)
    transaction.expected.body = text.looksRight(transaction.real.body ?? "") ? transaction.real.body : text.placeholder;
  done();
});
