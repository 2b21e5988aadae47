/**
 * Verification alone, in this process: strict EVM and Solana checks per second on pre-signed
 * payments (no ledger, no HTTP), and viem's `verifyTypedData` on the same EVM payments as the
 * reference figure.
 */
import { verifyTypedData } from "viem";
import { TRANSFER_WITH_AUTHORIZATION } from "../client/x402/evm.js";
import type { PaymentRequirements } from "../client/x402/types.js";
import { domainSeparator } from "../server/analytics/payments/exact/evm/eip3009.js";
import { verifyExactEvm } from "../server/analytics/payments/exact/evm/verify.js";
import { verifyExactSvm } from "../server/analytics/payments/exact/svm/verify.js";
import { decodePaymentHeader } from "../server/analytics/payments/x402/header.js";

const decode = (header: string) => {
  const decoded = decodePaymentHeader(header);
  if (!decoded.ok) throw new Error(decoded.message);
  return decoded.value;
};

/** Runs `check` over the pool (cycling) for about `seconds`, returning checks per second; throws if a check fails. */
async function rate(
  pool: Record<string, unknown>[],
  seconds: number,
  check: (payment: Record<string, unknown>) => Promise<boolean> | boolean,
): Promise<number> {
  const started = performance.now();
  let done = 0;
  while (performance.now() - started < seconds * 1000) {
    if (!(await check(pool[done % pool.length] as Record<string, unknown>)))
      throw new Error("a pre-signed payment failed verification");
    done++;
  }
  return done / ((performance.now() - started) / 1000);
}

export async function verificationRates(
  {
    evm,
    svm,
  }: {
    evm: { requirement: PaymentRequirements; chainId: number; headers: string[] };
    svm: {
      requirement: PaymentRequirements;
      feePayer: string;
      headers: string[];
      ata: (o: string, m: string, p: string) => Promise<string>;
    };
  },
  seconds = 2,
) {
  const evmPool = evm.headers.map(decode);
  const svmPool = svm.headers.map(decode);
  const domain = {
    ...(evm.requirement.extra as { name: string; version: string }),
    chainId: evm.chainId,
    verifyingContract: evm.requirement.asset,
  };
  const separator = domainSeparator(domain);
  const nowSeconds = Math.floor(Date.now() / 1000);
  const evmRate = await rate(evmPool, seconds, (p) => verifyExactEvm(p, evm.requirement, { separator, nowSeconds }).ok);
  const svmRate = await rate(
    svmPool,
    seconds,
    async (p) => (await verifyExactSvm(p, svm.requirement, { feePayer: svm.feePayer, ata: svm.ata })).ok,
  );
  const viemRate = await rate(evmPool, seconds, (p) => {
    const { signature, authorization: a } = p.payload as {
      signature: `0x${string}`;
      authorization: Record<string, string>;
    };
    return verifyTypedData({
      address: a.from as `0x${string}`,
      domain: { ...domain, verifyingContract: domain.verifyingContract as `0x${string}` },
      types: TRANSFER_WITH_AUTHORIZATION,
      primaryType: "TransferWithAuthorization",
      message: {
        from: a.from as `0x${string}`,
        to: a.to as `0x${string}`,
        value: BigInt(a.value as string),
        validAfter: BigInt(a.validAfter as string),
        validBefore: BigInt(a.validBefore as string),
        nonce: a.nonce as `0x${string}`,
      },
      signature,
    });
  });
  return { evmChecksPerSecond: evmRate, svmChecksPerSecond: svmRate, viemVerifyTypedDataPerSecond: viemRate };
}
