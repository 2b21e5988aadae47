/**
 * The x402 `offer-receipt` extension (x402 `specs/extensions/extension-offer-and-receipt.md`), in its
 * JWS form: every v2 challenge carries `extensions["offer-receipt"].info.offers`, one signed offer per
 * `accepts` entry (`acceptIndex` naming it), and every settled v2 answer's settlement response carries
 * `extensions["offer-receipt"].info.receipt`. The receipt's `issuedAt` is the answer envelope's own
 * `timestamp`, and its `responseHash` the digest of the answer's body (delivery.ts), so a receipt is a
 * pure function of the stored answer, the settlement and the key: a retry served from the ledger gets
 * the same bytes (decision 0011).
 */
import type { components } from "../../../../../generated/types/analytics.js";
import type { PaymentRequirementsV2 } from "../types.js";
import { rawBinding } from "./delivery.js";
import { keyIdOf } from "./did.js";
import { type JwsSigner, jwsSigner, signCompact } from "./jws.js";
import type { ReceiptKey } from "./key.js";

export const OFFER_RECEIPT = "offer-receipt";

/** Offer payloads' schema version. */
const OFFER_VERSION = 1 as const;
/** Receipt payloads' schema version: 2, the one that binds the delivered body. */
const RECEIPT_VERSION = 2 as const;

export type SignedOffer = components["schemas"]["X402.SignedOffer"];
export type SignedReceipt = components["schemas"]["X402.SignedReceipt"];
type OfferPayload = components["schemas"]["X402.OfferPayload"];
type ReceiptPayload = components["schemas"]["X402.ReceiptPayload"];

/** JSON Schema 2020-12 of each extension's `info`, as the spec's JWS examples give them. */
const jwsArtifact = {
  type: "object",
  properties: {
    format: { type: "string", const: "jws" },
    signature: { type: "string", description: "JWS compact serialization containing the payload" },
  },
  required: ["format", "signature"],
};
const OFFERS_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    offers: {
      type: "array",
      items: { ...jwsArtifact, properties: { ...jwsArtifact.properties, acceptIndex: { type: "integer" } } },
    },
  },
  required: ["offers"],
};
const RECEIPT_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: { receipt: jwsArtifact },
  required: ["receipt"],
};

export const offersExtension = (offers: SignedOffer[]): components["schemas"]["X402.OfferReceiptChallenge"] => ({
  info: { offers },
  // The generated type reads a free-form object (`Record<unknown>`) as an empty one.
  schema: OFFERS_SCHEMA as object as Record<string, never>,
});
export const receiptExtension = (receipt: SignedReceipt): components["schemas"]["X402.OfferReceiptSettlement"] => ({
  info: { receipt },
  schema: RECEIPT_SCHEMA as object as Record<string, never>,
});

interface Challenge {
  resource: { url: string };
  accepts: PaymentRequirementsV2[];
  extensions?: unknown;
}

interface Settled {
  success: boolean;
  transaction: string;
  network: string;
  payer: string;
}

export interface ReceiptSigner {
  /** The challenge with one signed offer per `accepts` entry, valid for each entry's `maxTimeoutSeconds` from `nowMs`. */
  withOffers<T extends Challenge>(required: T, nowMs: number): T;
  /**
   * The settlement response with its signed receipt for `resourceUrl`, issued at the time of the
   * answer's envelope (`answerBody`'s `timestamp`) and binding `answerBody`, the body exactly as it is
   * sent; as it was when the answer has no timestamp.
   */
  withReceipt<T extends Settled>(response: T, resourceUrl: string, answerBody: string): T;
}

/** `scheme://authority` of an absolute URL the service built itself; didWebOf normalizes it. */
function originOf(url: string): string {
  const end = url.indexOf("/", url.indexOf("://") + 3);
  return end < 0 ? url : url.slice(0, end);
}

/**
 * The signer of each origin, its `kid` and protected header made once. Without `PUBLIC_BASE_URL` the origin is the
 * request's (its Host), which a caller chooses: the memo is emptied when it reaches `MAX_ORIGINS`.
 */
const MAX_ORIGINS = 16;
function signersByOrigin(key: ReceiptKey): (origin: string) => JwsSigner {
  const made = new Map<string, JwsSigner>();
  return (origin) => {
    let signer = made.get(origin);
    if (!signer) {
      if (made.size >= MAX_ORIGINS) made.clear();
      signer = jwsSigner(key.secretKey, keyIdOf(origin, key));
      made.set(origin, signer);
    }
    return signer;
  };
}

const TIMESTAMP = '"timestamp":"';

/**
 * The envelope's `timestamp` in Unix seconds. The envelope writes it as its last field, so the last
 * occurrence is the envelope's own (one inside `data` comes before it); read without parsing the
 * whole body, which may be large.
 */
export function answerIssuedAt(body: string): number | undefined {
  const at = body.lastIndexOf(TIMESTAMP);
  if (at < 0) return undefined;
  const start = at + TIMESTAMP.length;
  const ms = Date.parse(body.slice(start, body.indexOf('"', start)));
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined;
}

/** How many offers one second's memo holds before it starts over (a caller chooses the origin without PUBLIC_BASE_URL). */
const MAX_OFFERS_PER_SECOND = 1024;

/**
 * The offers signed in the current second, by payload. An offer's payload names its validity in whole seconds and an
 * Ed25519 signature is deterministic, so an offer signed again within the same second is the same bytes: every unpaid
 * call (an indexer's probe, an A2A task started, an MCP call before its payment) gets the same few offers, each signed
 * once a second rather than once a call.
 */
function offersOfTheSecond() {
  let current = -1;
  const signed = new Map<string, string>();
  return (second: number, payload: OfferPayload, sign: () => string): string => {
    if (second !== current || signed.size >= MAX_OFFERS_PER_SECOND) {
      signed.clear();
      current = second;
    }
    const key = JSON.stringify(payload);
    let signature = signed.get(key);
    if (signature === undefined) {
      signature = sign();
      signed.set(key, signature);
    }
    return signature;
  };
}

/**
 * Signs for the service at its public origin: `publicBaseUrl`, or the origin of the resource paid for
 * (a request's own, when none is configured); an MCP tool's resource (`mcp://tool/…`) has none, and is
 * signed for `http://localhost:<port>` then.
 */
export function receiptSigner(
  key: ReceiptKey,
  { publicBaseUrl, port }: { publicBaseUrl?: string; port: number },
): ReceiptSigner {
  const signers = signersByOrigin(key);
  const signer = (resourceUrl: string) =>
    signers(publicBaseUrl ?? (/^https?:\/\//.test(resourceUrl) ? originOf(resourceUrl) : `http://localhost:${port}`));
  const signedThisSecond = offersOfTheSecond();
  return {
    withOffers(required, nowMs) {
      const resourceUrl = required.resource.url;
      const second = Math.floor(nowMs / 1000);
      const offers = required.accepts.map((accept, acceptIndex): SignedOffer => {
        const payload: OfferPayload = {
          version: OFFER_VERSION,
          resourceUrl,
          scheme: accept.scheme,
          network: accept.network,
          asset: accept.asset,
          payTo: accept.payTo,
          amount: accept.amount,
          validUntil: second + accept.maxTimeoutSeconds,
        };
        const signature = signedThisSecond(second, payload, () => signCompact(payload, signer(resourceUrl)));
        return { format: "jws", acceptIndex, signature };
      });
      const extensions = { ...(required.extensions as object), [OFFER_RECEIPT]: offersExtension(offers) };
      return { ...required, extensions };
    },
    withReceipt(response, resourceUrl, answerBody) {
      const issuedAt = answerIssuedAt(answerBody);
      if (issuedAt === undefined) return response;
      const { network, payer, transaction } = response;
      const payload: ReceiptPayload = {
        version: RECEIPT_VERSION,
        network: network as ReceiptPayload["network"],
        resourceUrl,
        payer,
        issuedAt,
        ...(transaction && { transaction }),
        ...rawBinding(answerBody),
      };
      const receipt: SignedReceipt = { format: "jws", signature: signCompact(payload, signer(resourceUrl)) };
      const extensions = {
        ...((response as { extensions?: object }).extensions ?? {}),
        [OFFER_RECEIPT]: receiptExtension(receipt),
      };
      return { ...response, extensions };
    },
  };
}
