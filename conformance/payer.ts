/**
 * A throwaway payer for the suite: a fresh EVM account and Solana key pair per process, signing
 * exactly what a 402 challenge asks for with the project's x402 client helpers, in either protocol
 * version. The default ledger settlement accepts any well-formed payment (no balance is needed,
 * any blockhash verifies).
 */
import { randomBytes } from "node:crypto";
import { generateKeyPairSigner, getAddressDecoder, type KeyPairSigner } from "@solana/kit";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { signEvmPayment } from "../client/x402/evm.js";
import { signSvmPayment } from "../client/x402/svm.js";
import type { PaymentRequirements } from "../client/x402/types.js";
import { familyOf, findNetwork } from "../lib/networks.js";
import { encodeHeader, PAYMENT_HEADERS } from "../lib/x402-headers.js";
import type { PaidCase } from "./cases.js";
import {
  checkChallenge,
  checkChallengeV2,
  decodeHeader,
  type Findings,
  type Paid,
  type PaymentRequiredV2,
  type X402Version,
} from "./checks.js";
import { type Answer, type CaseRequest, send, withHeaders } from "./http.js";

/** Signs a v1 requirement: the `X-PAYMENT` value. */
export type Pay = (requirement: PaymentRequirements) => Promise<string>;

export async function createPayer(): Promise<Pay> {
  const account = privateKeyToAccount(generatePrivateKey());
  let signer: KeyPairSigner | undefined;
  return async (requirement) => {
    if (familyOf(requirement.network) === "svm") {
      signer ??= await generateKeyPairSigner();
      return signSvmPayment(signer, requirement, { blockhash: getAddressDecoder().decode(randomBytes(32)) });
    }
    return signEvmPayment(account, requirement);
  };
}

/**
 * The request header that pays a 402 in `version`: v1 `X-PAYMENT` with the signed payment; v2
 * `PAYMENT-SIGNATURE` with the same `exact` payload, `accepted` the challenge's requirement
 * unchanged, and its resource and extensions echoed as the x402 v2 client does.
 */
export async function paymentHeader(
  pay: Pay,
  version: X402Version,
  requirement: PaymentRequirements,
  challenge: PaymentRequiredV2 | undefined,
  identifier?: string,
): Promise<Record<string, string>> {
  const signed = await pay(requirement);
  if (version === 1) return { [PAYMENT_HEADERS[1]]: signed };
  if (!challenge) throw new Error("an x402 v2 payment needs the PAYMENT-REQUIRED challenge");
  const { resource, accepts } = challenge;
  // a purchase named by the payer (x402 payment-identifier), as the v2 client echoes the declaration with its id
  const extensions =
    identifier === undefined
      ? challenge.extensions
      : { ...challenge.extensions, "payment-identifier": { info: { required: false, id: identifier } } };
  const payment = { x402Version: 2, accepted: accepts[0], payload: decodeHeader(signed).payload, resource, extensions };
  return { [PAYMENT_HEADERS[2]]: encodeHeader(payment) };
}

/**
 * A paid exchange as a client makes it: `request` (the case's, or it with more headers) without
 * payment, the 402 held against the contract in both versions (into `f`), then the same request
 * paying exactly what the challenge asks, in the header of `version`.
 */
export async function payAndSend(
  f: Findings,
  request: CaseRequest,
  c: PaidCase,
  baseUrl: string,
  pay: Pay,
  timeoutMs: number,
  version: X402Version,
  identifier?: string,
): Promise<{ answer: Answer; paid: Paid } | undefined> {
  const challenge = await send(baseUrl, request, timeoutMs);
  const requirement = checkChallenge(f, c, challenge);
  const v2 = checkChallengeV2(f, c, challenge);
  if (!requirement || (version === 2 && !v2)) return undefined;
  const answer = await send(
    baseUrl,
    withHeaders(request, await paymentHeader(pay, version, requirement, v2, identifier)),
    timeoutMs,
  );
  return {
    answer,
    paid: { version, network: requirement.network, amount: c.price.micro, resource: requirement.resource },
  };
}

/** The requirement of the case's network in an agent transport's PaymentRequired (the testnet's or the mainnet's, as deployed). */
export function requirementOn(required: PaymentRequiredV2, c: PaidCase) {
  return required.accepts.find((r) =>
    [c.prefix.testnet, c.prefix.mainnet].includes(findNetwork(r.network)?.details.network ?? ""),
  );
}

/**
 * The x402 v2 `PaymentPayload` object an agent transport carries (MCP's `_meta["x402/payment"]`, A2A's
 * `x402.payment.payload`), paying the case's network's requirement of `required` unchanged, signed as a header is.
 */
export async function paymentPayload(pay: Pay, required: PaymentRequiredV2, c: PaidCase) {
  const accepted = requirementOn(required, c);
  if (!accepted) throw new Error(`${c.label}: the PaymentRequired offers no requirement on ${c.prefix.name}`);
  const network = findNetwork(accepted.network)?.details.network as string;
  const v1 = {
    ...accepted,
    network,
    maxAmountRequired: accepted.amount,
    resource: required.resource.url,
    description: "",
    mimeType: "application/json",
  };
  const { payload } = decodeHeader(await pay(v1 as never)) as { payload: unknown };
  return { x402Version: 2, resource: required.resource, accepted, payload };
}
