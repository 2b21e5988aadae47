/**
 * The service's own x402 `exact` verifier: decodes the header, runs the strict check of the route's
 * chain family against the requirement the server issued, then reserves the payment in the ledger
 * so that it can be served once. Verification is pure computation (no RPC): the EIP-712 domain of
 * each network is hashed once, signer recovery is native, ed25519 uses OpenSSL.
 */

import type { Address } from "@solana/kit";
import { findAssociatedTokenPda } from "@solana-program/token";
import type { Clock } from "../clock.js";
import type { AnalyticsConfig } from "../config.js";
import type { AnalyticsContract } from "../contract.js";
import { domainSeparator } from "./exact/evm/eip3009.js";
import { verifyExactEvm } from "./exact/evm/verify.js";
import { type AtaResolver, verifyExactSvm } from "./exact/svm/verify.js";
import { decodePaymentHeader } from "./header.js";
import type { LedgerStore } from "./ledger/store.js";
import type { PaymentVerifier, Verification } from "./types.js";

/** Associated token accounts are derived once per (owner, mint, program). */
function cachedAta(): AtaResolver {
  const cache = new Map<string, Promise<string>>();
  return (owner, mint, tokenProgram) => {
    const key = `${owner}:${mint}:${tokenProgram}`;
    let found = cache.get(key);
    if (!found) {
      found = findAssociatedTokenPda({ owner: owner as Address, mint: mint as Address, tokenProgram: tokenProgram as Address }).then(
        ([address]) => address,
      );
      cache.set(key, found);
    }
    return found;
  };
}

export function createExactVerifier({
  contract,
  config,
  ledger,
  clock,
}: {
  contract: AnalyticsContract;
  config: AnalyticsConfig;
  ledger: LedgerStore;
  clock: Clock;
}): PaymentVerifier {
  const separators = new Map<string, Uint8Array>();
  for (const route of contract.paid) {
    const details = route.payment.network[config.profile];
    if (route.payment.network.family === "evm" && details.eip712 && details.chainId !== undefined && !separators.has(details.network)) {
      separators.set(details.network, domainSeparator({ ...details.eip712, chainId: details.chainId, verifyingContract: details.asset }));
    }
  }
  const ata = cachedAta();

  return {
    async verify(header, context): Promise<Verification> {
      const decoded = decodePaymentHeader(header);
      if (!decoded.ok) return { ok: false, status: 400, reason: "invalid_payload", message: decoded.message };
      const { requirement } = context;
      const separator = separators.get(requirement.network);
      const checked = separator
        ? verifyExactEvm(decoded.value, requirement, { separator, nowSeconds: Math.floor(clock.now() / 1000) })
        : await verifyExactSvm(decoded.value, requirement, { feePayer: config.feePayer, ata });
      if (!checked.ok) return { ok: false, status: 402, reason: checked.reason, message: checked.message, payer: checked.payer };

      const id = "nonce" in checked ? checked.nonce : checked.messageHash;
      const key = `${requirement.network}:${id}`;
      const fresh = await ledger.reserve({
        key,
        network: requirement.network,
        payer: checked.payer,
        amount: BigInt(requirement.maxAmountRequired),
        endpoint: context.operation,
        requestId: context.requestId,
      });
      if (!fresh) {
        return separator
          ? {
              ok: false,
              status: 402,
              reason: "invalid_exact_evm_nonce_already_used",
              message: "this authorization's nonce was already used",
              payer: checked.payer,
            }
          : {
              ok: false,
              status: 402,
              reason: "duplicate_settlement",
              message: "this transaction was already accepted",
              payer: checked.payer,
            };
      }
      return {
        ok: true,
        payment: {
          key,
          network: requirement.network,
          payer: checked.payer,
          amount: requirement.maxAmountRequired,
          context,
          payload: decoded.value.payload,
        },
      };
    },
  };
}
