/**
 * Reading a 402: the x402 v2 challenge from its `PAYMENT-REQUIRED` header and the v1 challenge from
 * its JSON body, each when it is there and readable, and the offers of both, v2 first.
 */
import {
  CHALLENGE_HEADER,
  decodeHeader,
  type Offer,
  type PaymentRequiredBody,
  type PaymentRequiredV2,
  type X402Version,
} from "./types.js";

export interface Challenges {
  v1?: PaymentRequiredBody;
  v2?: PaymentRequiredV2;
  /** The body as parsed (JSON, or undefined). */
  body: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

/** An x402 challenge body: a reason and a list of offers (v1's shape; the service's 402 body). */
export function isChallenge(value: unknown): value is PaymentRequiredBody {
  return isRecord(value) && typeof value.error === "string" && Array.isArray(value.accepts);
}

/** The decoded `PAYMENT-REQUIRED` header, when it is an x402 v2 challenge. */
export function challengeHeaderOf(headers: Headers): PaymentRequiredV2 | undefined {
  const header = headers.get(CHALLENGE_HEADER);
  if (!header) return undefined;
  let value: unknown;
  try {
    value = decodeHeader(header);
  } catch {
    return undefined;
  }
  return isRecord(value) && value.x402Version === 2 && Array.isArray(value.accepts)
    ? (value as PaymentRequiredV2)
    : undefined;
}

/** Both challenges of a 402 (reads its body). */
export async function readChallenges(response: Response): Promise<Challenges> {
  const body: unknown = await response.json().catch(() => undefined);
  const v2 = challengeHeaderOf(response.headers);
  const v1 = isChallenge(body) && body.x402Version === 1 ? body : undefined;
  return { body, ...(v1 ? { v1 } : {}), ...(v2 ? { v2 } : {}) };
}

/** Every offer of the challenges of `versions`, in that order. */
export function offersOf(challenges: Challenges, versions: readonly X402Version[]): Offer[] {
  return versions.flatMap((version): Offer[] => {
    if (version === 1) return (challenges.v1?.accepts ?? []).map((requirement) => ({ version, requirement }));
    const { v2 } = challenges;
    if (!v2) return [];
    return v2.accepts.map((requirement) => ({
      version,
      requirement,
      resource: v2.resource,
      extensions: v2.extensions,
    }));
  });
}
