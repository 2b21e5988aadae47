/**
 * How the mock charges, as pure functions over the contract: what a paid request's payment header
 * says, the 402 challenge at the mock's own origin, and the mock settlement receipt. The mock checks
 * what a client can get wrong without a chain (the header's encoding, protocol version, scheme,
 * network, payload shape) and settles nothing: its receipt says `simulated` and names no real
 * transaction.
 *
 * Protocol versions meet here only: `readPayment` is where a v2 `PAYMENT-SIGNATURE` header would be
 * read, and `challengeAnswer` where a v2 `PAYMENT-REQUIRED` header would be added to the 402.
 */
import { randomUUID } from "node:crypto";
import { getBase64Encoder, getTransactionDecoder } from "@solana/kit";
import type { components } from "../generated/types/analytics.js";
import { decodePaymentHeader } from "../server/analytics/payments/header.js";

type PaymentRequiredBody = components["schemas"]["X402.PaymentRequiredBody"];
type Receipt = components["schemas"]["X402.SettlementReceipt"];
type Reason = PaymentRequiredBody["error"];

/** An HTTP answer the front writes as it is. */
export interface MockAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export type PaymentRead =
  | { kind: "none" }
  | { kind: "malformed"; message: string }
  | { kind: "refused"; reason: Reason; message: string }
  | { kind: "paid"; network: string; payer: string };

/** What the route asks for: its network (the mock runs the testnet profile) and, on Solana, the fee payer. */
export interface Asked {
  network: string;
  feePayer?: string;
}

/** The payment of a request to a paid route, judged as far as the mock can without a chain. */
export function readPayment(headers: Record<string, string | string[] | undefined>, asked: Asked): PaymentRead {
  const header = headers["x-payment"];
  if (header === undefined || header === "") return { kind: "none" };
  const decoded = decodePaymentHeader(String(header));
  if (!decoded.ok) return { kind: "malformed", message: decoded.message };
  const { x402Version, scheme, network, payload } = decoded.value as Record<string, unknown>;
  if (x402Version !== 1) return { kind: "refused", reason: "invalid_x402_version", message: "x402Version must be 1" };
  if (scheme !== "exact") return { kind: "refused", reason: "unsupported_scheme", message: "scheme must be exact" };
  if (network !== asked.network) return { kind: "refused", reason: "invalid_network", message: `the route settles on ${asked.network}` };
  const payer = payerOf(payload, asked.feePayer);
  if (!payer) return { kind: "refused", reason: "invalid_payload", message: `not an exact payload for ${asked.network}` };
  return { kind: "paid", network: asked.network, payer };
}

/** The payer an `exact` payload names: the EIP-3009 `from`, or the Solana transaction's signer that is not the fee payer. */
function payerOf(payload: unknown, feePayer: string | undefined): string | undefined {
  const p = (payload ?? {}) as { authorization?: { from?: unknown }; signature?: unknown; transaction?: unknown };
  if (typeof p.authorization?.from === "string" && typeof p.signature === "string") return p.authorization.from;
  if (typeof p.transaction !== "string") return undefined;
  try {
    const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(p.transaction));
    return Object.entries(transaction.signatures).find(([address, signature]) => signature && address !== feePayer)?.[0];
  } catch {
    return undefined;
  }
}

/**
 * The 402: the contract's challenge for the route (`contractBody`, Prism's example) with `resource`
 * naming the URL actually requested at the mock's origin, and the refusal's reason when there is one.
 */
export function challengeAnswer(
  contractBody: PaymentRequiredBody,
  resource: string,
  refusal?: { reason: Reason; message: string },
): MockAnswer {
  const body: PaymentRequiredBody = {
    ...contractBody,
    ...(refusal ? { error: refusal.reason, message: refusal.message } : {}),
    accepts: contractBody.accepts.map((requirement) => ({ ...requirement, resource })),
  };
  return { status: 402, headers: {}, body };
}

/** The 400 for a header that is not base64 JSON, as the service words it. */
export function malformedAnswer(message: string): MockAnswer {
  return {
    status: 400,
    headers: {},
    body: { error: "invalid_payload", message: `X-PAYMENT: ${message}`, errors: [{ location: "header", field: "X-PAYMENT", message }] },
  };
}

/** The `X-PAYMENT-RESPONSE` of a paid answer: decodable like the service's, and plainly a mock settlement. */
export function receiptHeader(paid: { network: string; payer: string }): Record<string, string> {
  const receipt: Receipt = {
    success: true,
    transaction: `mock-settlement-${randomUUID()}`,
    network: paid.network as Receipt["network"],
    payer: paid.payer,
    simulated: true,
  };
  return { "X-PAYMENT-RESPONSE": Buffer.from(JSON.stringify(receipt)).toString("base64") };
}
