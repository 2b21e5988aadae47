/**
 * The `signatures` check: where a target publishes a did:web document (`/.well-known/did.json`), every
 * offer of its v2 challenges and every receipt of its v2 paid answers (x402's `offer-receipt` extension)
 * must verify under a key that document lists, as the JWS header's `kid` names it, and must say what
 * the exchange was: each offer its `accepts` entry at the challenge's resource, each receipt the payer,
 * network, transaction and resource paid for at the answer's own time, and, when it binds the delivered
 * body (`responseHash`), the body received. Verified with `@x402/extensions`' verifiers, not the
 * service's code. A target that answers 404 there signs nothing and is not judged.
 */
import { createHash } from "node:crypto";
import {
  canonicalize,
  type JWSSignedOffer,
  type JWSSignedReceipt,
  verifyOfferSignatureJWS,
  verifyReceiptSignatureJWS,
} from "@x402/extensions/offer-receipt";
import type { Findings, PaymentRequiredV2 } from "./checks.js";
import { validateX402 } from "./checks.js";

type PublicKey = NonNullable<Parameters<typeof verifyOfferSignatureJWS>[1]>;
/** The keys a target publishes, by verification method id (the `kid` of what they sign). */
export type PublishedKeys = Map<string, PublicKey>;

const EXTENSION = "offer-receipt";

/** The target's published keys, or undefined when it publishes none (a 404). */
export async function publishedKeys(baseUrl: string, timeoutMs: number): Promise<PublishedKeys | undefined> {
  const res = await fetch(`${baseUrl}/.well-known/did.json`, { signal: AbortSignal.timeout(timeoutMs) });
  if (res.status === 404) return undefined;
  if (!res.ok) throw new Error(`GET /.well-known/did.json answered ${res.status}`);
  const document = (await res.json()) as { verificationMethod?: { id?: unknown; publicKeyJwk?: PublicKey }[] };
  const keys: PublishedKeys = new Map();
  for (const method of document.verificationMethod ?? [])
    if (typeof method.id === "string" && method.publicKeyJwk) keys.set(method.id, method.publicKeyJwk);
  return keys;
}

const kidOf = (jws: string): unknown => {
  try {
    return JSON.parse(Buffer.from(jws.split(".")[0] ?? "", "base64url").toString("utf8")).kid;
  } catch {
    return undefined;
  }
};

/** The signed payload of `jws` under the published key its `kid` names, or undefined (and a finding). */
async function verified<T>(
  f: Findings,
  field: string,
  jws: string,
  keys: PublishedKeys,
  verify: (key: PublicKey) => Promise<T>,
) {
  const kid = kidOf(jws);
  const key = typeof kid === "string" ? keys.get(kid) : undefined;
  if (!key) {
    f.add(
      field,
      `its kid ${JSON.stringify(kid)} is not a key of /.well-known/did.json (${[...keys.keys()].join(", ")})`,
    );
    return undefined;
  }
  try {
    return await verify(key);
  } catch (error) {
    f.add(field, `does not verify under ${kid}: ${(error as Error).message}`);
    return undefined;
  }
}

/** Each offer of a v2 challenge: one per `accepts` entry, signed, and committing to that entry at the challenge's resource. */
export async function checkSignedOffers(f: Findings, challenge: PaymentRequiredV2, keys: PublishedKeys, nowMs: number) {
  const field = `PAYMENT-REQUIRED.extensions.${EXTENSION}`;
  const offers = (challenge.extensions as Record<string, { info?: { offers?: JWSSignedOffer[] } }>)[EXTENSION]?.info
    ?.offers;
  if (!Array.isArray(offers))
    return f.add(field, "must carry info.offers: the target publishes a key, so it signs its offers");
  f.equal(`${field}.info.offers.length`, offers.length, challenge.accepts.length, " (one per accepts entry)");
  for (const [index, offer] of offers.entries()) {
    const at = `${field}.info.offers[${index}]`;
    const payload = await verified(f, `${at}.signature`, offer.signature, keys, (key) =>
      verifyOfferSignatureJWS(offer, key),
    );
    if (!payload) continue;
    for (const v of validateX402("X402.OfferPayload", payload))
      f.add(`${at}.payload${v.path}`, `${v.message} (X402.OfferPayload)`);
    const accepted = challenge.accepts[offer.acceptIndex ?? -1] as Record<string, unknown> | undefined;
    if (!accepted) f.add(`${at}.acceptIndex`, `${offer.acceptIndex} names no accepts entry`);
    for (const key of ["scheme", "network", "asset", "payTo", "amount"] as const)
      f.equal(`${at}.payload.${key}`, payload[key], accepted?.[key], ` (accepts[${offer.acceptIndex}]'s)`);
    f.equal(`${at}.payload.resourceUrl`, payload.resourceUrl, challenge.resource.url, " (the challenge's resource)");
    if (!(payload.validUntil * 1000 > nowMs)) f.add(`${at}.payload.validUntil`, `${payload.validUntil} has passed`);
  }
}

/**
 * The receipt of a v2 paid answer: signed, and naming the settlement's payer, network and transaction, the resource
 * and the answer's time; when it binds the delivered body, binding `expected.body`, the body as received.
 */
export async function checkSignedReceipt(
  f: Findings,
  settlement: Record<string, unknown>,
  keys: PublishedKeys,
  expected: { resourceUrl: string; timestamp: unknown; body?: string },
) {
  const field = `PAYMENT-RESPONSE.extensions.${EXTENSION}.info.receipt`;
  const receipt = (settlement.extensions as Record<string, { info?: { receipt?: JWSSignedReceipt } }> | undefined)?.[
    EXTENSION
  ]?.info?.receipt;
  if (!receipt) return f.add(field, "is required: the target publishes a key, so it signs its receipts");
  const payload = await verified(f, `${field}.signature`, receipt.signature, keys, (key) =>
    verifyReceiptSignatureJWS(receipt, key),
  );
  if (!payload) return;
  for (const v of validateX402("X402.ReceiptPayload", payload))
    f.add(`${field}.payload${v.path}`, `${v.message} (X402.ReceiptPayload)`);
  for (const key of ["payer", "network", "transaction"] as const)
    f.equal(`${field}.payload.${key}`, payload[key], settlement[key], " (the settlement response's)");
  f.equal(`${field}.payload.resourceUrl`, payload.resourceUrl, expected.resourceUrl, " (the resource paid for)");
  const issued = typeof expected.timestamp === "string" ? Math.floor(Date.parse(expected.timestamp) / 1000) : undefined;
  f.equal(`${field}.payload.issuedAt`, payload.issuedAt, issued, " (the answer envelope's timestamp)");
  if (expected.body !== undefined) checkBoundBody(f, field, payload, expected.body);
}

/** A receipt's delivery binding, when it has one, against the body received: raw bytes, or (jcs) as x402 canonicalizes it. */
function checkBoundBody(f: Findings, field: string, payload: object, body: string) {
  const { responseHash, responseHashAlg, responseHashEncoding } = payload as Record<string, unknown>;
  if (responseHash === undefined || responseHash === "") return;
  const at = `${field}.payload.responseHash`;
  if (responseHashAlg !== "sha256") return f.add(at, `responseHashAlg ${String(responseHashAlg)} is not sha256`);
  let form: string;
  if (responseHashEncoding === "raw") form = body;
  else if (responseHashEncoding === "jcs")
    try {
      form = canonicalize(JSON.parse(body));
    } catch (error) {
      return f.add(at, `the body received has no JCS form: ${(error as Error).message}`);
    }
  else return f.add(at, `responseHashEncoding ${String(responseHashEncoding)} is neither raw nor jcs`);
  const digest = `0x${createHash("sha256").update(form, "utf8").digest("hex")}`;
  if (digest !== responseHash)
    f.add(at, `${String(responseHash)} is not the body received, whose ${responseHashEncoding} digest is ${digest}`);
}
