// Test support: a transport that edits the x402 challenges of the 402s it passes on (the v1 body,
// the v2 `PAYMENT-REQUIRED` header), so that the real service looks like a server that offers
// other terms, or only x402 v1. Every request it sent is kept.
import { challengeHeaderOf } from "../../client/x402/challenge.js";
import {
  CHALLENGE_HEADER,
  encodeHeader,
  type PaymentRequiredBody,
  type PaymentRequiredV2,
} from "../../client/x402/types.js";

export interface ChallengeEdits {
  v1?: (body: PaymentRequiredBody) => PaymentRequiredBody;
  /** Undefined removes the `PAYMENT-REQUIRED` header. */
  v2?: (challenge: PaymentRequiredV2) => PaymentRequiredV2 | undefined;
}

export type EditingTransport = ((request: Request) => Promise<Response>) & { sent: Request[] };

/** Edits the 402s from the `from`-th one on (0: all). */
export function editing402(edits: ChallengeEdits, from = 0): EditingTransport {
  let count = 0;
  const sent: Request[] = [];
  const transport = async (request: Request) => {
    sent.push(request.clone());
    const response = await fetch(request);
    if (response.status !== 402 || count++ < from) return response;
    const headers = new Headers(response.headers);
    headers.delete("content-length");
    const challenge = challengeHeaderOf(response.headers);
    const v2 = challenge && edits.v2 ? edits.v2(challenge) : challenge;
    if (v2) headers.set(CHALLENGE_HEADER, encodeHeader(v2));
    else headers.delete(CHALLENGE_HEADER);
    const body = (await response.json()) as PaymentRequiredBody;
    return new Response(JSON.stringify(edits.v1 ? edits.v1(body) : body), { status: 402, headers });
  };
  return Object.assign(transport, { sent });
}

/** A server that offers only x402 v1: the service's 402s without their `PAYMENT-REQUIRED` header. */
export const v1Only = (): EditingTransport => editing402({ v2: () => undefined });
