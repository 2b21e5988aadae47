/**
 * How the mock charges, as pure functions over the contract: what a paid request's payment header
 * says, the 402 challenge at the mock's own origin, and the mock settlement receipt. The mock checks
 * what a client can get wrong without a chain (the header's encoding, protocol version, scheme,
 * network, payload shape, and a v2 payment's `accepted`) and settles nothing: its receipt says
 * `simulated` and names no real transaction.
 *
 * Both x402 versions are spoken with the service's own code, so the mock cannot drift from it: each
 * route's offer is the service's (`routeOffer`, testnet profile, the contract's development
 * recipients); the payment header is read (`PAYMENT-SIGNATURE` before `X-PAYMENT`) and a v2 payment
 * opened into the v1 form as the service does it (`readSubmission`, `openSubmission`); the v2
 * challenge and both receipts are the service's (`challengeV2`, `receiptHeader`).
 */
import { randomUUID } from "node:crypto";
import { getBase64Encoder, getTransactionDecoder } from "@solana/kit";
import type { components } from "../generated/types/analytics.js";
import { RECEIPT_HEADERS } from "../lib/x402-headers.js";
import { loadAnalyticsContract, type PaidRoute } from "../server/analytics/contract/analytics-contract.js";
import { httpWords } from "../server/analytics/front/http-answers.js";
import { outcomeFacts } from "../server/analytics/paid/outcome-facts.js";
import {
  CHALLENGE_HEADER,
  challengeV2,
  encodeHeader,
  type Offer,
  openSubmission,
  PAYMENT_HEADERS,
  readSubmission,
  receiptHeader,
  type Submission,
  settlementResponseV2,
  type X402Version,
} from "../server/analytics/payments/x402/protocols.js";
import type { ReceiptSigner } from "../server/analytics/payments/x402/receipts/offer-receipt.js";
import { type RouteOffer, routeOffer } from "../server/analytics/payments/x402/requirements.js";
import { type AnalyticsConfig, loadAnalyticsConfig } from "../server/config/analytics.js";
import { type FieldError, NOT_A_FIELD } from "../server/http/errors.js";

type PaymentRequiredBody = components["schemas"]["X402.PaymentRequiredBody"];
type Reason = PaymentRequiredBody["error"];

/** An HTTP answer the front writes as it is. */
export interface MockAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** A paid route of the contract and what the mock offers on it. */
export interface MockRoute {
  route: PaidRoute;
  offer: RouteOffer;
}

/**
 * The mock's receipt key (Ed25519, JWK): fixed, so that the offers and receipts it signs verify under the key its
 * `/.well-known/did.json` publishes, run after run. A test key, published here: never a deployment's.
 */
export const MOCK_RECEIPT_KEY =
  '{"crv":"Ed25519","d":"Wv5wg9MvgISnAjEdXtm0zGokmlRlUO-U-JTYkHUZZb0","x":"ZWxiRkrNgblrH63pHEsppam0btLEc4abnVtnOQiU1YA","kty":"OKP"}';

/** The configuration the mock charges with: `npm start`'s (testnet profile, development recipients), signing with the mock's key. */
export function mockConfig(contract = loadAnalyticsContract()): AnalyticsConfig {
  return loadAnalyticsConfig(
    { X402_PROFILE: "testnet", RECEIPT_SIGNING_KEY: MOCK_RECEIPT_KEY },
    contract.developmentDefaults,
  );
}

/** Every paid route with the service's own offer, as `npm start` makes it. */
export function mockRoutes(): MockRoute[] {
  const contract = loadAnalyticsContract();
  const config = mockConfig(contract);
  return contract.paid.map((route) => ({ route, offer: routeOffer(route, config, contract.document) }));
}

export type PaymentRead =
  | { kind: "none" }
  /** A 400 naming `headers`: a header that is not base64 JSON, or both payment headers at once. */
  | { kind: "malformed"; headers: string[]; message: string }
  | { kind: "refused"; reason: Reason; message: string }
  /** `identifier`: the v2 payment's x402 `payment-identifier`, if it named its purchase. */
  | { kind: "paid"; version: X402Version; network: string; payer: string; identifier?: string };

/** The payment of a request to a paid route offering `offer`, judged as far as the mock can without a chain. */
export function readPayment(get: (name: string) => string | undefined, offer: Offer): PaymentRead {
  const read = readSubmission(get);
  if (read.kind === "none") return read;
  if (read.kind === "both")
    return {
      kind: "malformed",
      headers: [PAYMENT_HEADERS[2], PAYMENT_HEADERS[1]],
      message: `one payment header at a time: ${PAYMENT_HEADERS[2]} (x402 v2) or ${PAYMENT_HEADERS[1]} (x402 v1)`,
    };
  return judgeSubmission(read, offer, [PAYMENT_HEADERS[read.version]]);
}

/** A submission (a header's, or an MCP tool call's payment object) judged against `offer`; `named`: where it came. */
export function judgeSubmission(submission: Submission, offer: Offer, named: string[]): PaymentRead {
  const opened = openSubmission(submission, offer);
  if (!opened.ok)
    return opened.malformed
      ? { kind: "malformed", headers: named, message: opened.message }
      : { kind: "refused", reason: opened.reason, message: opened.message };
  const { x402Version, scheme, network, payload } = opened.payment;
  const asked = offer.v1.network;
  if (x402Version !== 1) return { kind: "refused", reason: "invalid_x402_version", message: "x402Version must be 1" };
  if (scheme !== "exact") return { kind: "refused", reason: "unsupported_scheme", message: "scheme must be exact" };
  if (network !== asked)
    return { kind: "refused", reason: "invalid_network", message: `the route settles on ${asked}` };
  const payer = payerOf(payload, (offer.v1.extra as { feePayer?: string } | undefined)?.feePayer);
  if (!payer) return { kind: "refused", reason: "invalid_payload", message: `not an exact payload for ${asked}` };
  const identifier = opened.identifier === undefined ? {} : { identifier: opened.identifier };
  return { kind: "paid", version: submission.version, network: asked, payer, ...identifier };
}

/** The payer an `exact` payload names: the EIP-3009 `from`, or the Solana transaction's signer that is not the fee payer. */
function payerOf(payload: unknown, feePayer: string | undefined): string | undefined {
  const p = (payload ?? {}) as { authorization?: { from?: unknown }; signature?: unknown; transaction?: unknown };
  if (typeof p.authorization?.from === "string" && typeof p.signature === "string") return p.authorization.from;
  if (typeof p.transaction !== "string") return undefined;
  try {
    const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(p.transaction));
    return Object.entries(transaction.signatures).find(
      ([address, signature]) => signature && address !== feePayer,
    )?.[0];
  } catch {
    return undefined;
  }
}

/** What an unpaid request whose input breaks the contract is told beside its challenge: the fields, and to fix them first. */
export interface InputToFix {
  errors: FieldError[];
  message: string;
}

/** The `errors` and `message` of the service's 402 to an unpaid request with these input errors (its own sentence). */
export function inputToFix(routed: MockRoute, errors: FieldError[], now = Date.now()): InputToFix {
  const { sentence } = outcomeFacts({ kind: "payment_required", errors }, httpWords(routed.route, routed.offer), now);
  return { errors, message: sentence };
}

/**
 * The 402 in both versions, never cached: the contract's v1 challenge for the route (`contractBody`,
 * Prism's example) offering the service's own requirement for the URL actually requested at the mock's
 * own origin (the example's omits the input description `outputSchema` carries, which discovery lists),
 * and the v2 challenge of the same offer in `PAYMENT-REQUIRED`; both name the refusal's reason when there is one.
 * An unpaid request whose input breaks the contract gets the same challenge, its body naming the fields
 * (`input`), as the service answers it (docs/payments.md, "Input and the challenge").
 */
export function challengeAnswer(
  contractBody: PaymentRequiredBody,
  offer: Offer,
  routed: Pick<RouteOffer, "extensions" | "receipts">,
  refusal?: { reason: Reason; message: string },
  input?: InputToFix,
): MockAnswer {
  const body: PaymentRequiredBody = {
    ...contractBody,
    ...(refusal ? { error: refusal.reason, message: refusal.message } : {}),
    ...(input ? { message: input.message, errors: input.errors } : {}),
    accepts: [offer.v1],
  };
  const required = challengeV2(offer, routed.extensions, refusal?.reason ?? "Payment required");
  const v2 = routed.receipts ? routed.receipts.withOffers(required, Date.now()) : required;
  return { status: 402, headers: { [CHALLENGE_HEADER]: encodeHeader(v2), "Cache-Control": "no-store" }, body };
}

/** The 400 for a malformed payment header (or both at once), as the service words it. */
export function malformedAnswer({ headers, message }: { headers: string[]; message: string }): MockAnswer {
  return {
    status: 400,
    headers: {},
    body: {
      error: "invalid_payload",
      message: headers.length === 1 ? `${headers[0]}: ${message}` : message,
      errors: headers.map((field) => ({ location: "header", field, message })),
    },
  };
}

/**
 * Each body field the operation does not have, as the service names it (its bodies are closed: `unevaluatedProperties`,
 * which Prism does not apply); none for a GET, or when every field is the operation's.
 */
export function unknownFieldErrors(route: PaidRoute, input: Record<string, unknown>): FieldError[] {
  if (route.method !== "post") return [];
  return Object.keys(input)
    .filter((field) => !Object.hasOwn(route.inputFields, field))
    .map((field) => ({ location: "body", field, message: NOT_A_FIELD }));
}

/**
 * The receipt of a paid answer, in the header of the version paid in: decodable like the service's, and plainly a
 * mock settlement; in v2, signed for the resource paid for at the time of `signing.answerBody`'s envelope.
 */
export function mockReceipt(
  paid: { version: X402Version; network: string; payer: string },
  offer: Offer,
  signing?: { receipts?: ReceiptSigner; answerBody: string },
): Record<string, string> {
  const receipt = {
    success: true,
    transaction: `mock-settlement-${randomUUID()}`,
    network: paid.network as Offer["v1"]["network"],
    payer: paid.payer,
    simulated: true,
    amount: offer.v2.amount,
  };
  if (paid.version === 2 && signing?.receipts) {
    const response = signing.receipts.withReceipt(
      settlementResponseV2(receipt, offer.v2.network),
      offer.v1.resource,
      signing.answerBody,
    );
    return { [RECEIPT_HEADERS[2]]: encodeHeader(response) };
  }
  const [name, value] = receiptHeader(paid.version, receipt, offer.v2.network);
  return { [name]: value };
}
