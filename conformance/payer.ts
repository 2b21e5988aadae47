/**
 * A throwaway payer for the suite: a fresh EVM account and Solana key pair per process, signing
 * exactly what a 402 challenge asks for with the project's x402 client helpers. The default ledger
 * settlement accepts any well-formed payment (no balance is needed, any blockhash verifies).
 */
import { randomBytes } from "node:crypto";
import { generateKeyPairSigner, getAddressDecoder, type KeyPairSigner } from "@solana/kit";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { signEvmPayment } from "../client/x402/evm.js";
import { signSvmPayment } from "../client/x402/svm.js";
import type { PaymentRequirements } from "../client/x402/types.js";
import { familyOf } from "../lib/networks.js";
import type { PaidCase } from "./cases.js";
import { checkChallenge, type Findings } from "./checks.js";
import { type Answer, type CaseRequest, send, withHeaders } from "./http.js";

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
 * A paid exchange as a client makes it: `request` (the case's, or it with more headers) without
 * payment, the 402 held against the contract (into `f`), then the same request paying exactly what
 * the challenge asks.
 */
export async function payAndSend(
  f: Findings,
  request: CaseRequest,
  c: PaidCase,
  baseUrl: string,
  pay: Pay,
  timeoutMs: number,
): Promise<{ answer: Answer; network: string } | undefined> {
  const requirement = checkChallenge(f, c, await send(baseUrl, request, timeoutMs));
  if (!requirement) return undefined;
  const answer = await send(baseUrl, withHeaders(request, { "X-PAYMENT": await pay(requirement) }), timeoutMs);
  return { answer, network: requirement.network };
}
