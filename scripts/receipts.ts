/**
 * `npm run receipts -- verify FILE|-`: checks a signed receipt of the analytics service (x402's
 * offer-receipt extension) against the key the service publishes in its did:web document, and says
 * what it proves. Reads the decoded `PAYMENT-RESPONSE` JSON (or an MCP `x402/payment-response`), the
 * receipt object alone, the raw base64 header, or the bare JWS. Exit 0: the signature verifies; 1: it
 * does not, or the key cannot be found; 2: the command line or the input is not one.
 */
import type { JsonWebKey } from "node:crypto";
import { readFileSync } from "node:fs";
import { commandLine } from "../lib/command-line.mjs";
import { didWebDocumentUrl } from "../server/analytics/payments/x402/receipts/did.js";
import { decodeCompact, verifyCompact } from "../server/analytics/payments/x402/receipts/jws.js";
import { OFFER_RECEIPT } from "../server/analytics/payments/x402/receipts/offer-receipt.js";

const USAGE = `usage: npm run receipts -- verify FILE|- [--url URL]

Verifies a receipt of a paid answer: the decoded PAYMENT-RESPONSE JSON, the receipt object alone
({"format":"jws","signature":...}), the raw base64 PAYMENT-RESPONSE header, or the JWS itself, read from
FILE or (-) standard input. Prints what it proves (payer, network, resource, time, transaction); exits 1
when the signature does not verify under the service's published key.

  --url URL   the service whose /.well-known/did.json holds the key (default: the did:web the receipt's
              kid names, else http://localhost:4021)
  --help      this text`;

const DEFAULT_URL = "http://localhost:4021";

const { values, positionals } = commandLine(USAGE, { valued: ["--url"], positionals: 2 });
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

const { payer, network, resourceUrl, issuedAt, transaction } = verified.payload;
console.log(`VERIFIED: signed by ${kid} (from ${documentUrl})`);
console.log(`  payer        ${String(payer)}`);
console.log(`  network      ${String(network)}`);
console.log(`  resource     ${String(resourceUrl)}`);
console.log(
  `  issued       ${typeof issuedAt === "number" ? `${new Date(issuedAt * 1000).toISOString()} (${issuedAt})` : "(none)"}`,
);
console.log(`  transaction  ${transaction === undefined ? "(none)" : String(transaction)}`);
