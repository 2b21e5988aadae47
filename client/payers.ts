/**
 * Payers: who signs an x402 `exact` payment for a requirement's terms. An EVM payer signs an
 * EIP-3009 authorization with a viem account; a Solana payer partially signs a `TransferChecked`
 * transaction with a kit signer, over a recent blockhash from an RPC or from an injected source.
 * What they sign is the same in both x402 versions: the paying fetch wraps it in the envelope of
 * the version it pays in.
 */
import { randomBytes } from "node:crypto";
import { createSolanaRpc, getBase58Decoder, type TransactionSigner } from "@solana/kit";
import type { LocalAccount } from "viem";
import type { Family } from "./networks.js";
import { evmExactPayload } from "./x402/evm.js";
import { svmExactPayload } from "./x402/svm.js";
import type { ExactPayload, PaymentTerms } from "./x402/types.js";

export interface Payer {
  readonly family: Family;
  /** The paying address (EVM address or Solana public key). */
  readonly address: string;
  /** The signed `exact` payload paying `terms` (a requirement of either version, `termsOf`). */
  sign(terms: PaymentTerms): Promise<ExactPayload>;
}

export function evmPayer(account: LocalAccount): Payer {
  return { family: "evm", address: account.address, sign: (terms) => evmExactPayload(account, terms) };
}

export interface RecentBlockhash {
  blockhash: string;
  lastValidBlockHeight?: bigint;
}

/** Where a Solana payer gets the recent blockhash its transaction must carry. */
export type BlockhashSource = { rpcUrl: string } | { blockhash: () => Promise<string | RecentBlockhash> };

function blockhashOf(source: BlockhashSource): () => Promise<RecentBlockhash> {
  if ("rpcUrl" in source) {
    const rpc = createSolanaRpc(source.rpcUrl);
    return async () => (await rpc.getLatestBlockhash({ commitment: "confirmed" }).send()).value;
  }
  return async () => {
    const value = await source.blockhash();
    return typeof value === "string" ? { blockhash: value } : value;
  };
}

export function solanaPayer(signer: TransactionSigner, source: BlockhashSource): Payer {
  const recent = blockhashOf(source);
  return {
    family: "svm",
    address: signer.address,
    async sign(terms) {
      const { blockhash, lastValidBlockHeight } = await recent();
      return svmExactPayload(signer, terms, {
        blockhash,
        ...(lastValidBlockHeight === undefined ? {} : { lastValidBlockHeight }),
      });
    },
  };
}

/**
 * A random 32-byte base58 value in the shape of a blockhash. Only for a server that verifies
 * payments without broadcasting them (`SETTLEMENT=ledger`, the embedded default): a transaction
 * over it can never land on a real chain.
 */
export function offlineBlockhash(): string {
  return getBase58Decoder().decode(randomBytes(32));
}
