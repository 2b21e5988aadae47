/**
 * Strict verification of an x402 v1 `exact` EVM payment (EIP-3009 `TransferWithAuthorization`).
 * Closes the reference verifier's gaps: the network must be the route's, the amount exact, the
 * validity window bounded above (a millisecond `validBefore` is refused), the domain the server's
 * own, and the signature a low-s EOA signature. Replays are the gate's to refuse, through the ledger's
 * unique key; this check keeps no state.
 */
import type { PaymentRequirements } from "../../x402/types.js";
import { checkEnvelope, type Rejection, reject } from "../common.js";
import { type Authorization, authorizationDigest } from "./eip3009.js";
import { recoverSigner } from "./recover.js";

/** Seconds a `validBefore` must still be ahead: about three blocks, as the reference requires. */
export const MIN_VALIDITY_SECONDS = 6;
/** Tolerated clock skew above `maxTimeoutSeconds` for `validBefore`. */
export const VALIDITY_SLACK_SECONDS = 30;

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const UINT = /^[0-9]{1,78}$/;
const NONCE = /^0x[0-9a-fA-F]{64}$/;
const UINT256_MAX = (1n << 256n) - 1n;

export type EvmVerified = { ok: true; payer: string; nonce: string; authorization: Authorization; signature: string };

const UINT_FIELDS = ["value", "validAfter", "validBefore"] as const;

function parseAuthorization(raw: unknown): Authorization | string {
  const a = (raw ?? {}) as Record<string, unknown>;
  for (const field of ["from", "to"])
    if (typeof a[field] !== "string" || !ADDRESS.test(a[field] as string))
      return `authorization.${field} must be an address`;
  const numbers: bigint[] = [];
  for (const field of UINT_FIELDS) {
    const text = a[field];
    const parsed = typeof text === "string" && UINT.test(text) ? BigInt(text) : -1n;
    if (parsed < 0n || parsed > UINT256_MAX) return `authorization.${field} must be a uint256 string`;
    numbers.push(parsed);
  }
  const [value, validAfter, validBefore] = numbers as [bigint, bigint, bigint];
  if (typeof a.nonce !== "string" || !NONCE.test(a.nonce)) return "authorization.nonce must be 32 bytes of hex";
  return {
    from: a.from as string,
    to: a.to as string,
    value,
    validAfter,
    validBefore,
    nonce: a.nonce.toLowerCase(),
  };
}

/** A payment that passed every check but its signature's: what the signer's recovery needs, and what it then confirms. */
export type EvmSigned = {
  ok: "signature";
  digest: Uint8Array;
  signature: string;
  payer: string;
  nonce: string;
  authorization: Authorization;
};

export type EvmCheckOptions = { separator: Uint8Array; nowSeconds: number; minValiditySeconds?: number };

/** Every check of the payment but the signature's (whose recovery the caller may run off the event loop). */
export function checkExactEvm(
  payment: Record<string, unknown>,
  requirement: PaymentRequirements,
  { separator, nowSeconds, minValiditySeconds = MIN_VALIDITY_SECONDS }: EvmCheckOptions,
): EvmSigned | Rejection {
  const envelope = checkEnvelope(payment, requirement);
  if (envelope) return envelope;
  const inner = payment.payload as Record<string, unknown>;
  if (typeof inner.signature !== "string") return reject("invalid_payload", "payload.signature is missing");
  const authorization = parseAuthorization(inner.authorization);
  if (typeof authorization === "string") return reject("invalid_payload", authorization);
  const payer = authorization.from;

  if (authorization.to.toLowerCase() !== requirement.payTo.toLowerCase()) {
    return reject(
      "invalid_exact_evm_payload_recipient_mismatch",
      `authorization pays ${authorization.to}, not ${requirement.payTo}`,
      payer,
    );
  }
  if (authorization.value !== BigInt(requirement.maxAmountRequired)) {
    return reject(
      "invalid_exact_evm_payload_authorization_value",
      `value must be exactly ${requirement.maxAmountRequired}, got ${authorization.value}`,
      payer,
    );
  }
  const now = BigInt(nowSeconds);
  if (authorization.validAfter > now)
    return reject("invalid_exact_evm_payload_authorization_valid_after", "authorization is not valid yet", payer);
  if (authorization.validBefore < now + BigInt(minValiditySeconds)) {
    return reject(
      "invalid_exact_evm_payload_authorization_valid_before",
      `authorization expires in under ${minValiditySeconds} seconds`,
      payer,
    );
  }
  if (authorization.validBefore > now + BigInt(requirement.maxTimeoutSeconds + VALIDITY_SLACK_SECONDS)) {
    return reject(
      "invalid_exact_evm_payload_authorization_valid_before",
      `validBefore is more than ${requirement.maxTimeoutSeconds} s ahead (Unix seconds expected)`,
      payer,
    );
  }
  return {
    ok: "signature",
    digest: authorizationDigest(separator, authorization),
    signature: inner.signature,
    payer,
    nonce: authorization.nonce,
    authorization,
  };
}

/** The verdict on a checked payment once its signer is recovered (`recoverSigner`'s answer). */
export function signedBy(
  { payer, nonce, authorization, signature }: EvmSigned,
  signer: string | undefined,
): EvmVerified | Rejection {
  if (signer !== payer.toLowerCase())
    return reject(
      "invalid_exact_evm_payload_signature",
      "signature does not recover the payer under this network's USDC domain",
      payer,
    );
  return { ok: true, payer, nonce, authorization, signature };
}

export function verifyExactEvm(
  payment: Record<string, unknown>,
  requirement: PaymentRequirements,
  options: EvmCheckOptions,
): EvmVerified | Rejection {
  const checked = checkExactEvm(payment, requirement, options);
  return checked.ok === false ? checked : signedBy(checked, recoverSigner(checked.digest, checked.signature));
}
