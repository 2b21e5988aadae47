/**
 * The judgements of discovery: what an indexer or a payer learns of a paid route before paying must be what the route
 * answers. `indexer_probe`: x402's Bazaar indexer sends each route the method its declaration names, no payment and
 * no body (or `{}`), and catalogues it only when the answer is a 402 whose v2 challenge its validators
 * (`@x402/extensions/bazaar`) accept.
 */
import { validateAndExtract, validateDiscoveryExtensionSpec } from "@x402/extensions/bazaar";
import type { PaidCase } from "./cases.js";
import { decodeHeader, type Findings } from "./checks.js";
import type { Answer } from "./http.js";

const CHALLENGE = "PAYMENT-REQUIRED";

/** A JSON-like value read as an object (an empty one when it is not). */
const objectOf = (value: unknown): Record<string, unknown> =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/**
 * x402's Bazaar indexer probing `c`'s route: a 402 whose `PAYMENT-REQUIRED` decodes to an x402 v2 challenge with at
 * least one requirement, and whose `extensions.bazaar` passes `validateDiscoveryExtensionSpec` and
 * `validateAndExtract` (valid, no errors), declaring the route's method.
 */
export function checkIndexerProbe(f: Findings, c: PaidCase, answer: Answer): void {
  if (answer.status !== 402) {
    f.add(
      "status",
      `expected 402 (an indexer lists only a route that answers it), got ${answer.status}: ${answer.text.slice(0, 300)}`,
    );
    return;
  }
  const header = answer.headers.get(CHALLENGE);
  if (header === null) {
    f.add(CHALLENGE, "header is required (the v2 challenge an indexer reads)");
    return;
  }
  let challenge: Record<string, unknown>;
  try {
    challenge = decodeHeader(header);
  } catch (error) {
    f.add(CHALLENGE, `must be base64 of a JSON object: ${(error as Error).message}`);
    return;
  }
  f.equal(`${CHALLENGE}.x402Version`, challenge.x402Version, 2);
  if (!Array.isArray(challenge.accepts) || !challenge.accepts.length)
    f.add(`${CHALLENGE}.accepts`, `must offer at least one requirement, got ${JSON.stringify(challenge.accepts)}`);
  const bazaar = objectOf(challenge.extensions).bazaar;
  const field = `${CHALLENGE}.extensions.bazaar`;
  if (!bazaar || typeof bazaar !== "object") {
    f.add(field, "is required (what an indexer catalogues)");
    return;
  }
  const spec = validateDiscoveryExtensionSpec(bazaar as Record<string, unknown>);
  if (!spec.valid) f.add(field, `validateDiscoveryExtensionSpec: ${(spec.errors ?? []).join("; ")}`);
  let extracted: ReturnType<typeof validateAndExtract>;
  try {
    extracted = validateAndExtract(bazaar as Parameters<typeof validateAndExtract>[0]);
  } catch (error) {
    f.add(field, `validateAndExtract threw: ${(error as Error).message}`);
    return;
  }
  if (!extracted.valid || extracted.errors?.length)
    f.add(
      field,
      `validateAndExtract: ${extracted.valid ? "valid" : "invalid"}, ${(extracted.errors ?? []).join("; ") || "no errors named"}`,
    );
  const input = objectOf(objectOf(extracted.info).input);
  f.equal(`${field}.info.input.type`, input.type, "http");
  f.equal(`${field}.info.input.method`, input.method, c.method, " (the route's method)");
}
