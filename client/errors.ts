/**
 * The client's typed failures. `PaymentRefusedError`: the client would not pay (nothing was signed).
 * `PaymentRejectedError`: it paid and the server answered 402 again with a reason (nothing was
 * charged). `HttpError`: any other non-2xx answer, with the service's JSON error body.
 */
import type { components } from "../generated/types/analytics.js";
import type { PaymentRequiredBody, PaymentRequirements } from "./x402/types.js";

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
  /** The 402 answer is not an x402 v1 challenge the client can read. */
  | "invalid_challenge"
  /** The approval callback said no. */
  | "declined";

export class PaymentRefusedError extends Error {
  override readonly name = "PaymentRefusedError";
  constructor(
    readonly reason: RefusalReason,
    message: string,
    /** The requirement that was refused, when the challenge had one for the network. */
    readonly requirement?: PaymentRequirements,
  ) {
    super(message);
  }
}

export class PaymentRejectedError extends Error {
  override readonly name = "PaymentRejectedError";
  readonly reason: PaymentErrorReason;
  constructor(
    /** The server's 402 answer to the paid retry. */
    readonly body: PaymentRequiredBody,
    readonly requirement: PaymentRequirements | undefined,
    readonly url: string,
  ) {
    super(`payment rejected by ${url}: ${body.error}${body.message ? ` (${body.message})` : ""}`);
    this.reason = body.error;
  }
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

export function isChallenge(value: unknown): value is PaymentRequiredBody {
  return isErrorBody(value) && Array.isArray((value as unknown as PaymentRequiredBody).accepts);
}

/**
 * The data of an openapi-fetch result, or the typed error for its failure: a 402 (a payment the
 * server refused, e.g. a replayed header) is a `PaymentRejectedError`, anything else an `HttpError`.
 */
export function dataOrThrow<T>(
  result: { data?: T; error?: unknown; response: Response },
  requirement?: PaymentRequirements,
): { data: T; response: Response } {
  const { response, error } = result;
  if (response.ok && error === undefined) return { data: result.data as T, response };
  if (response.status === 402 && isChallenge(error)) throw new PaymentRejectedError(error, requirement, response.url);
  throw new HttpError(response.status, isErrorBody(error) ? error : undefined, response.url, error);
}
