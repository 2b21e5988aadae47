/** Checks every x402 v1 `exact` payload shares, whatever the chain family. */
import type { PaymentErrorReason, PaymentRequirements } from "../x402/types.js";

export type Rejection = { ok: false; reason: PaymentErrorReason; message: string; payer?: string };

export function reject(reason: PaymentErrorReason, message: string, payer?: string): Rejection {
  return { ok: false, reason, message, ...(payer ? { payer } : {}) };
}

const kindOf = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`);

/** Version, scheme and network against the requirement this server issued; undefined when they match. */
export function checkEnvelope(
  payload: Record<string, unknown>,
  requirement: PaymentRequirements,
): Rejection | undefined {
  if (payload.x402Version !== 1) return reject("invalid_x402_version", "x402Version must be 1");
  if (payload.scheme !== "exact") return reject("unsupported_scheme", "scheme must be exact");
  if (payload.network !== requirement.network) {
    // Named only when it is a string: the header is the caller's JSON, and String() of some objects throws.
    const named =
      typeof payload.network === "string" ? payload.network : `a network given as ${kindOf(payload.network)}`;
    return reject("invalid_network", `payment is for ${named}, this route settles on ${requirement.network}`);
  }
  if (!payload.payload || typeof payload.payload !== "object") return reject("invalid_payload", "payload is missing");
  return undefined;
}
