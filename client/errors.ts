/**
 * The client's typed failures. `PaymentRefusedError`: the client would not pay (nothing was signed).
 * `PaymentRejectedError`: it paid and the server answered 402 again with a reason (nothing was
 * charged), read from the challenge of the version paid in first. `HttpError`: any other non-2xx
 * answer, with the service's JSON error body.
 */
import type { components } from "../generated/types/analytics.js";
import { type Challenges, challengeHeaderOf, isChallenge } from "./x402/challenge.js";
import type { PaymentRequiredBody, PaymentRequiredV2, Requirement, X402Version } from "./x402/types.js";

export type ErrorBody = components["schemas"]["Common.ErrorBody"];
export type PaymentErrorReason = PaymentRequiredBody["error"];

export type RefusalReason =
  /** The price is above the per-call cap. */
  | "cap_per_call"
  /** Paying would take the session above its cap. */
  | "cap_per_session"
  /** The recipient differs from the pinned (first seen, or expected) one. */
  | "pay_to_changed"
  /** The asset differs from the pinned one. */
  | "asset_changed"
  /** The asset is not USDC of the chosen network, nor the expected one. */
  | "asset_unexpected"
  /** The challenge offers no `exact` payment on the chosen network. */
  | "network_not_offered"
  /** The 402 answer has no challenge of the protocol version the client was told to pay in. */
  | "version_not_offered"
  /** The 402 answer has no x402 challenge the client can read (neither `PAYMENT-REQUIRED` nor a v1 body). */
  | "invalid_challenge"
  /** The approval callback said no. */
  | "declined";

export class PaymentRefusedError extends Error {
  override readonly name = "PaymentRefusedError";
  constructor(
    readonly reason: RefusalReason,
    message: string,
    /** The requirement that was refused, as its version offered it, when the challenge had one for the network. */
    readonly requirement?: Requirement,
  ) {
    super(message);
  }
}

export class PaymentRejectedError extends Error {
  override readonly name = "PaymentRejectedError";
  constructor(
    readonly reason: PaymentErrorReason,
    readonly requirement: Requirement | undefined,
    readonly url: string,
    /** The 402's v1 body, when it had one (its `message` explains the reason). */
    readonly body?: PaymentRequiredBody,
    /** The 402's decoded `PAYMENT-REQUIRED` challenge, when it had one. */
    readonly challenge?: PaymentRequiredV2,
  ) {
    super(`payment rejected by ${url}: ${reason}${body?.message ? ` (${body.message})` : ""}`);
  }
}

/**
 * The rejection a 402 answered to a payment states, or undefined when it states none. The reason
 * is read from the challenge of the version paid in (v2's `PAYMENT-REQUIRED`, v1's body) and
 * falls back to the other; by default v2's first, the canonical one.
 */
export function rejectionOf(
  challenges: Challenges,
  requirement: Requirement | undefined,
  url: string,
  version: X402Version = 2,
): PaymentRejectedError | undefined {
  const body = isChallenge(challenges.body) ? challenges.body : undefined;
  const reasons = [challenges.v2?.error, body?.error];
  const reason = (version === 2 ? reasons : reasons.reverse()).find((r) => r !== undefined);
  return reason === undefined ? undefined : new PaymentRejectedError(reason, requirement, url, body, challenges.v2);
}

export class HttpError extends Error {
  override readonly name = "HttpError";
  constructor(
    readonly status: number,
    /** The JSON error body; undefined when the answer was not the service's error shape. */
    readonly body: ErrorBody | undefined,
    readonly url: string,
    /** The answer as parsed (JSON) or as text. */
    readonly raw?: unknown,
  ) {
    super(`HTTP ${status} from ${url}${body ? `: ${body.error}: ${body.message}` : ""}`);
  }
}

function isErrorBody(value: unknown): value is ErrorBody {
  return typeof value === "object" && value !== null && typeof (value as ErrorBody).error === "string";
}

/**
 * The data of an openapi-fetch result, or the typed error for its failure: a 402 stating a reason
 * (a payment the server refused, e.g. a replayed header) is a `PaymentRejectedError`, anything
 * else an `HttpError` (a 402 naming the input's errors too: nothing was paid for it).
 */
export function dataOrThrow<T>(
  result: { data?: T; error?: unknown; response: Response },
  requirement?: Requirement,
): { data: T; response: Response } {
  const { response, error } = result;
  if (response.ok && error === undefined) return { data: result.data as T, response };
  // a challenge naming the request's input errors was never paid (paying-fetch.ts): the input is what to fix
  const namesInput = isErrorBody(error) && Array.isArray(error.errors) && error.errors.length > 0;
  const v2 = response.status === 402 ? challengeHeaderOf(response.headers) : undefined;
  const rejection =
    response.status === 402 && !namesInput
      ? rejectionOf({ body: error, ...(v2 ? { v2 } : {}) }, requirement, response.url)
      : undefined;
  if (rejection) throw rejection;
  throw new HttpError(response.status, isErrorBody(error) ? error : undefined, response.url, error);
}
