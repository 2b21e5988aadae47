/**
 * Signing an x402 `exact` Solana payment: a version-0 transaction whose fee payer is the
 * requirement's `extra.feePayer` (who signs last, at settlement), holding compute-limit,
 * compute-price and one `TransferChecked` of the requirement's mint from the payer's associated
 * token account to `payTo`'s, partially signed by the payer only. The payload is the same in both
 * x402 versions; `encodePayment` wraps it in either envelope.
 */

import {
  type Address,
  appendTransactionMessageInstructions,
  type Blockhash,
  createNoopSigner,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  type Instruction,
  partiallySignTransactionMessageWithSigners,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  type TransactionSigner,
} from "@solana/kit";
import { getSetComputeUnitLimitInstruction, getSetComputeUnitPriceInstruction } from "@solana-program/compute-budget";
import { findAssociatedTokenPda, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import { encodePayment, type PaymentRequirements, type PaymentTerms, type SvmExactPayload, termsOf } from "./types.js";

const MEMO_PROGRAM = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr" as Address;

export interface SvmPaymentOptions {
  /** A recent blockhash (from an RPC's `getLatestBlockhash`, or a local chain's). */
  blockhash: string;
  lastValidBlockHeight?: bigint;
  computeUnitLimit?: number;
  /** Micro-lamports per compute unit. */
  computeUnitPrice?: bigint;
  /** A memo appended after the transfer (allowed by the newer x402 reference). */
  memo?: string;
  /** Overrides for tests of a verifier's rejections. */
  overrides?: Partial<{
    mint: string;
    destinationOwner: string;
    amount: bigint;
    decimals: number;
    feePayer: string;
    authority: TransactionSigner;
    extraInstructions: Instruction[];
  }>;
}

/** The partially signed transaction paying `terms`, for either version's envelope. */
export async function svmExactPayload(
  payer: TransactionSigner,
  terms: PaymentTerms,
  options: SvmPaymentOptions,
): Promise<SvmExactPayload> {
  const feePayer = (options.overrides?.feePayer ?? (terms.extra as { feePayer?: string } | undefined)?.feePayer) as
    | Address
    | undefined;
  if (!feePayer) throw new Error("the requirement names no fee payer (extra.feePayer)");
  const mint = (options.overrides?.mint ?? terms.asset) as Address;
  const authority = options.overrides?.authority ?? payer;
  const feePayerSigner = authority.address === feePayer ? authority : createNoopSigner(feePayer);
  const trailing: Instruction[] = [
    ...(options.memo ? [{ programAddress: MEMO_PROGRAM, data: new TextEncoder().encode(options.memo) }] : []),
    ...(options.overrides?.extraInstructions ?? []),
  ];
  const [source] = await findAssociatedTokenPda({
    owner: authority.address,
    mint,
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
  const [destination] = await findAssociatedTokenPda({
    owner: (options.overrides?.destinationOwner ?? terms.payTo) as Address,
    mint,
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  });
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(feePayerSigner, m),
    (m) =>
      setTransactionMessageLifetimeUsingBlockhash(
        {
          blockhash: options.blockhash as Blockhash,
          lastValidBlockHeight: options.lastValidBlockHeight ?? 1_000_000_000n,
        },
        m,
      ),
    (m) =>
      appendTransactionMessageInstructions(
        [
          getSetComputeUnitLimitInstruction({ units: options.computeUnitLimit ?? 20_000 }),
          getSetComputeUnitPriceInstruction({ microLamports: options.computeUnitPrice ?? 1n }),
          getTransferCheckedInstruction({
            source,
            mint,
            destination,
            authority,
            amount: options.overrides?.amount ?? BigInt(terms.amount),
            decimals: options.overrides?.decimals ?? 6,
          }),
          ...trailing,
        ],
        m,
      ),
  );
  const signed = await partiallySignTransactionMessageWithSigners(message);
  return { transaction: getBase64EncodedWireTransaction(signed) };
}

/** The `X-PAYMENT` header paying a v1 requirement (for tests and tools that pay v1 by hand). */
export async function signSvmPayment(
  payer: TransactionSigner,
  requirement: PaymentRequirements,
  options: SvmPaymentOptions,
): Promise<string> {
  return encodePayment({ version: 1, requirement }, await svmExactPayload(payer, termsOf(requirement), options));
}
