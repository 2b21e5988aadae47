/**
 * The service's own x402 `exact` verifier: runs the strict check of the route's chain family on a
 * decoded payment (its v1 form, whichever header brought it) against the requirement the server issued. Pure computation (no RPC, no
 * state): the EIP-712 domain of each network is hashed once, signer recovery is native, ed25519
 * uses libsodium. Whether the payment was already used is the gate's question, answered by the ledger.
 */

import type { Address } from "@solana/addresses";
import { familyOf } from "../../../../lib/networks.js";
import type { AnalyticsConfig } from "../../../config/analytics.js";
import type { Clock } from "../../clock.js";
import { deployedNetworks } from "../x402/requirements.js";
import type { PaymentVerifier, Verification } from "../x402/types.js";
import { domainSeparator } from "./evm/eip3009.js";
import { recoverSignerOffLoop } from "./evm/recovery-thread.js";
import { checkExactEvm, signedBy } from "./evm/verify.js";
import { type AtaResolver, verifyExactSvm } from "./svm/verify.js";

/**
 * Associated token accounts are derived once per (owner, mint, program). The token program's client is loaded with the
 * first Solana payment, not at start-up: a service that serves few of them should not wait for it.
 */
export function cachedAta(): AtaResolver {
  const cache = new Map<string, Promise<string>>();
  return (owner, mint, tokenProgram) => {
    const key = `${owner}:${mint}:${tokenProgram}`;
    let found = cache.get(key);
    if (!found) {
      found = import("@solana-program/token")
        .then(({ findAssociatedTokenPda }) =>
          findAssociatedTokenPda({
            owner: owner as Address,
            mint: mint as Address,
            tokenProgram: tokenProgram as Address,
          }),
        )
        .then(([address]) => address);
      cache.set(key, found);
    }
    return found;
  };
}

export function createExactVerifier({ config, clock }: { config: AnalyticsConfig; clock: Clock }): PaymentVerifier {
  // The EIP-712 domain of every EVM network's USDC, hashed once: a payment signed under any other domain does not recover its payer.
  const separators = new Map<string, Uint8Array>();
  for (const target of deployedNetworks(config)) {
    if (target.family !== "evm") continue;
    if (!target.eip712 || target.chainId === undefined)
      throw new Error(`the network table gives ${target.network} no chain id or EIP-712 domain`);
    separators.set(
      target.network,
      domainSeparator({ ...target.eip712, chainId: target.chainId, verifyingContract: target.asset }),
    );
  }
  const ata = cachedAta();

  return {
    async verify(decoded, requirement, { retry = false } = {}): Promise<Verification> {
      const now = clock.now();
      const base = {
        network: requirement.network,
        amount: requirement.maxAmountRequired,
        requirement,
        payload: decoded.payload,
      };
      if (familyOf(requirement.network) === "evm") {
        const separator = separators.get(requirement.network) as Uint8Array;
        const signed = checkExactEvm(decoded, requirement, {
          separator,
          nowSeconds: Math.floor(now / 1000),
          ...(retry && { minValiditySeconds: 1 }),
        });
        const checked =
          signed.ok === false ? signed : signedBy(signed, await recoverSignerOffLoop(signed.digest, signed.signature));
        if (!checked.ok) return { ok: false, reason: checked.reason, message: checked.message, payer: checked.payer };
        return {
          ok: true,
          payment: {
            ...base,
            // EIP-3009 nonces are unique per authorizer: another wallet's use of the same nonce is another payment.
            key: `${requirement.network}:${checked.payer.toLowerCase()}:${checked.nonce}`,
            family: "evm",
            payer: checked.payer,
            expiresAt: Number(checked.authorization.validBefore) * 1000,
          },
        };
      }
      const checked = await verifyExactSvm(decoded, requirement, { feePayer: config.feePayer, ata });
      if (!checked.ok) return { ok: false, reason: checked.reason, message: checked.message, payer: checked.payer };
      return {
        ok: true,
        payment: {
          ...base,
          // The transaction's identity before the fee payer signs it: its message. (The payer's own signature
          // would not do: a payer could sign one transfer twice with different nonces.)
          key: `${requirement.network}:${checked.messageHash}`,
          family: "svm",
          payer: checked.payer,
          expiresAt: now + requirement.maxTimeoutSeconds * 1000,
        },
      };
    },
  };
}
