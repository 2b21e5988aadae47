/**
 * `npm run receipts -- verify FILE|- [--body ANSWER]`: checks a signed receipt of the analytics service
 * (x402's offer-receipt extension) against the key the service publishes in its did:web document, and
 * says what it proves; given the answer's body as received, also that it is the body the receipt binds
 * (its `responseHash`). Reads the decoded `PAYMENT-RESPONSE` JSON (or an MCP `x402/payment-response`),
 * the receipt object alone, the raw base64 header, or the bare JWS. Exit 0: the signature verifies (and
 * the body is the one bound); 1: it does not, the key cannot be found, or the body is another or cannot
 * be checked; 2: the command line or the input is not one.
 */
import type { JsonWebKey } from "node:crypto";
import { readFileSync } from "node:fs";
import { commandLine } from "../lib/command-line.mjs";
import { bindingOf, checkDelivery } from "../server/analytics/payments/x402/receipts/delivery.js";
import { didWebDocumentUrl } from "../server/analytics/payments/x402/receipts/did.js";
import { decodeCompact, verifyCompact } from "../server/analytics/payments/x402/receipts/jws.js";
import { OFFER_RECEIPT } from "../server/analytics/payments/x402/receipts/offer-receipt.js";

const USAGE = `usage: npm run receipts -- verify FILE|- [--url URL] [--body ANSWER]

Verifies a receipt of a paid answer: the decoded PAYMENT-RESPONSE JSON, the receipt object alone
({"format":"jws","signature":...}), the raw base64 PAYMENT-RESPONSE header, or the JWS itself, read from
FILE or (-) standard input. Prints what it proves (payer, network, resource, time, transaction, the
digest of the body delivered); exits 1 when the signature does not verify under the service's published
key, or when ANSWER is not the body the receipt binds.

  --url URL      the service whose /.well-known/did.json holds the key (default: the did:web the
                 receipt's kid names, else http://localhost:4021)
  --body ANSWER  a file (or - for standard input) holding the answer's body as it was received, byte
                 for byte (the service's receipts bind its raw bytes): checks that it is the answer
                 this receipt was issued for
  --help         this text`;

const DEFAULT_URL = "http://localhost:4021";

const { values, positionals } = commandLine(USAGE, { valued: ["--url", "--body"], positionals: 2 });
const [command, source] = positionals;
if (command !== "verify" || source === undefined)
  usage(command === undefined ? "a command is required" : `unknown command ${command}`);

function usage(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

function fail(message: string): never {
  console.error(`NOT VERIFIED: ${message}`);
  process.exit(1);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The JWS of whatever form the receipt came in, or undefined. */
function jwsOf(text: string): string | undefined {
  const trimmed = text.trim();
  if (/^[\w-]+\.[\w-]+\.[\w-]+$/.test(trimmed)) return trimmed;
  let value: unknown;
  try {
    value = JSON.parse(trimmed.startsWith("{") ? trimmed : Buffer.from(trimmed, "base64").toString("utf8"));
  } catch {
    return undefined;
  }
  if (!isObject(value)) return undefined;
  const extension = isObject(value.extensions) ? value.extensions[OFFER_RECEIPT] : undefined;
  const receipt = isObject(extension) && isObject(extension.info) ? extension.info.receipt : value;
  return isObject(receipt) && receipt.format === "jws" && typeof receipt.signature === "string"
    ? receipt.signature
    : undefined;
}

const text = readFileSync(source === "-" ? 0 : source, "utf8");
const bodyPath = values["--body"];
if (bodyPath === "-" && source === "-") usage("the receipt and --body cannot both be read from standard input");
let body: Buffer | undefined;
try {
  body = bodyPath === undefined ? undefined : readFileSync(bodyPath === "-" ? 0 : bodyPath);
} catch (error) {
  usage(`cannot read --body ${bodyPath}: ${error instanceof Error ? error.message : String(error)}`);
}
const jws = jwsOf(text);
if (!jws)
  usage(
    `${source === "-" ? "standard input" : source} holds no JWS receipt (a PAYMENT-RESPONSE with extensions["${OFFER_RECEIPT}"])`,
  );
const decoded = decodeCompact(jws);
const kid = typeof decoded?.header.kid === "string" ? decoded.header.kid : undefined;
if (!decoded || !kid) fail("the receipt is not a JWS whose header names its key (kid)");

const documentUrl = values["--url"]
  ? `${values["--url"].replace(/\/+$/, "")}/.well-known/did.json`
  : (didWebDocumentUrl(kid) ?? `${DEFAULT_URL}/.well-known/did.json`);
let document: unknown;
try {
  const res = await fetch(documentUrl, { headers: { accept: "application/did+json, application/json" } });
  if (!res.ok) fail(`${documentUrl} answered ${res.status}`);
  document = await res.json();
} catch (error) {
  fail(`cannot read ${documentUrl}: ${error instanceof Error ? error.message : String(error)}`);
}
const methods = isObject(document) && Array.isArray(document.verificationMethod) ? document.verificationMethod : [];
const method = methods.find(
  (m): m is { id: string; publicKeyJwk: JsonWebKey } => isObject(m) && m.id === kid && isObject(m.publicKeyJwk),
);
if (!method) fail(`the key ${kid} is not in ${documentUrl}`);
const verified = verifyCompact(jws, method.publicKeyJwk);
if (!verified) fail(`the signature does not verify under ${kid} (from ${documentUrl})`);

if (body) {
  const delivery = checkDelivery(verified.payload, body);
  const signed = `the receipt's signature verifies under ${kid}, but`;
  if (delivery.kind === "unbound")
    fail(
      `${signed} it binds no answer body (version ${String(verified.payload.version)}), so ${bodyPath} cannot be checked`,
    );
  if (delivery.kind === "uncheckable") fail(`${signed} ${bodyPath} cannot be checked against it: ${delivery.reason}`);
  if (delivery.kind === "differs") {
    const { responseHash, responseHashEncoding } = delivery.binding;
    const how =
      responseHashEncoding === "raw"
        ? "the sha256 of its bytes: a copy re-saved, reformatted or ending in a newline differs"
        : `the sha256 of its ${responseHashEncoding} form`;
    fail(
      `${signed} ${bodyPath} is not the answer it was issued for: the receipt binds ${responseHash}, ${bodyPath} hashes to ${delivery.actual} (${how})`,
    );
  }
}

const { payer, network, resourceUrl, issuedAt, transaction } = verified.payload;
const binding = bindingOf(verified.payload);
console.log(`VERIFIED: signed by ${kid} (from ${documentUrl})`);
console.log(`  payer        ${String(payer)}`);
console.log(`  network      ${String(network)}`);
console.log(`  resource     ${String(resourceUrl)}`);
console.log(
  `  issued       ${typeof issuedAt === "number" ? `${new Date(issuedAt * 1000).toISOString()} (${issuedAt})` : "(none)"}`,
);
console.log(`  transaction  ${transaction === undefined ? "(none)" : String(transaction)}`);
console.log(
  `  response     ${binding ? `${binding.responseHash} (${binding.responseHashAlg}, ${binding.responseHashEncoding})` : "(none: the receipt binds no body)"}`,
);
if (body) console.log(`  delivered    ${bodyPath} is that body`);
