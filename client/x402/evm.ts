/**
 * Signing an x402 `exact` EVM payment: an EIP-3009 `TransferWithAuthorization` over the
 * requirement's asset, signed with the EIP-712 domain the requirement's `extra` names (the
 * server's own table), valid from 10 minutes ago (clock skew) until `maxTimeoutSeconds` from now.
 * The payload is the same in both x402 versions; `encodePayment` wraps it in either envelope.
 */
import { randomBytes } from "node:crypto";
import type { LocalAccount } from "viem";
import { findNetwork } from "../../lib/networks.js";
import { type EvmExactPayload, encodePayment, type PaymentRequirements, type PaymentTerms, termsOf } from "./types.js";

/** The chain id of an EVM network of the contract, by its v1 name or CAIP-2 id; undefined for any other. */
export const chainIdOf = (network: string): number | undefined => findNetwork(network)?.details.chainId;

export const TRANSFER_WITH_AUTHORIZATION = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

export interface EvmAuthorizationOptions {
  /** Unix seconds; defaults to the local clock. */
  now?: number;
  nonce?: `0x${string}`;
  /** Overrides for tests of a verifier's rejections. */
  overrides?: Partial<{ to: string; value: string; validAfter: string; validBefore: string }>;
  /** Chain id of the network; defaults to the contract's network table. */
  chainId?: number;
}

/** The signed authorization paying `terms`, for either version's envelope. */
export async function evmExactPayload(
  account: LocalAccount,
  terms: PaymentTerms,
  options: EvmAuthorizationOptions = {},
): Promise<EvmExactPayload> {
  const chainId = options.chainId ?? chainIdOf(terms.network);
  const domain = terms.extra as { name?: string; version?: string } | undefined;
  if (chainId === undefined || !domain?.name || !domain.version)
    throw new Error(`cannot sign for ${terms.network}: unknown chain or missing EIP-712 domain`);
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const authorization = {
    from: account.address,
    to: terms.payTo,
    value: terms.amount,
    validAfter: String(now - 600),
    validBefore: String(now + terms.maxTimeoutSeconds),
    nonce: options.nonce ?? (`0x${randomBytes(32).toString("hex")}` as `0x${string}`),
    ...options.overrides,
  };
  const signature = await account.signTypedData({
    domain: { name: domain.name, version: domain.version, chainId, verifyingContract: terms.asset as `0x${string}` },
    types: TRANSFER_WITH_AUTHORIZATION,
    primaryType: "TransferWithAuthorization",
    message: {
      from: authorization.from,
      to: authorization.to as `0x${string}`,
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
      nonce: authorization.nonce,
    },
  });
  return { signature, authorization };
}

/** The `X-PAYMENT` header paying a v1 requirement (for tests and tools that pay v1 by hand). */
export async function signEvmPayment(
  account: LocalAccount,
  requirement: PaymentRequirements,
  options: EvmAuthorizationOptions = {},
): Promise<string> {
  return encodePayment({ version: 1, requirement }, await evmExactPayload(account, termsOf(requirement), options));
}
