/**
 * Strict verification of an x402 v1 `exact` Solana payment: a partially signed version-0
 * transaction of compute-limit, compute-price (capped) and one `TransferChecked` of the configured
 * USDC mint to `payTo`'s associated token account for exactly the amount, optionally followed by
 * Memo or Lighthouse instructions (positions 4 to 6, as the newer reference allows). The fee payer
 * is the server's and appears in no instruction; every other signer's ed25519 signature is checked.
 * No RPC is needed: blockhash expiry and balances are left to settlement.
 */
import { createHash } from "node:crypto";
import { type Address, getAddressEncoder } from "@solana/addresses";
import bs58 from "bs58";
import sodium from "sodium-native";
import type { PaymentRequirements } from "../../x402/types.js";
import { checkEnvelope, type Rejection, reject } from "../common.js";
import { parseTransaction, type WireTransaction } from "./wire.js";

export const COMPUTE_BUDGET_PROGRAM = "ComputeBudget111111111111111111111111111111";
export const TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
export const TOKEN_2022_PROGRAM = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";
const MEMO_PROGRAM = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr";
const LIGHTHOUSE_PROGRAM = "L2TExMFKdjpN9kozasaurPirfHy9P8sbXoAN1qA3S95";

/** 5 lamports per compute unit, the reference's cap: a higher price would spend the fee payer's SOL. */
export const MAX_COMPUTE_UNIT_PRICE_MICROLAMPORTS = 5_000_000n;
/**
 * The compute-unit limit, capped too: the fee is limit × price, so a price cap alone lets a payer
 * ask for 1.4 million units at that price (7 million lamports). 400,000 is @x402/svm's own ceiling for
 * its Solana schemes; its exact client asks for 20,000, a TransferChecked with a memo uses a few thousand.
 */
export const MAX_COMPUTE_UNIT_LIMIT = 400_000;
const USDC_DECIMALS = 6;

export type SvmVerified = { ok: true; payer: string; messageHash: string; transaction: string };

/** Resolves `payTo`'s associated token account for a mint under a token program. */
export type AtaResolver = (owner: string, mint: string, tokenProgram: string) => Promise<string>;

const addressEncoder = getAddressEncoder();
/**
 * 32 bytes → base58 with bs58 (base-x) rather than @solana/kit's address decoder, which goes through
 * one BigInt and costs more: the payer's address is written for every payment.
 */
const addressOf = (key: Uint8Array): string => bs58.encode(key);

/** Base58 → 32 bytes, memoised: the same few addresses (programs, mint, fee payer, ATAs) recur in every payment. */
const keyBytes = new Map<string, Buffer>();
function bytesOf(address: string): Buffer {
  let bytes = keyBytes.get(address);
  if (!bytes) {
    bytes = Buffer.from(addressEncoder.encode(address as Address));
    if (keyBytes.size < 1_000) keyBytes.set(address, bytes);
  }
  return bytes;
}

/**
 * An ed25519 signature check with libsodium (sodium-native) rather than node:crypto's OpenSSL, which
 * is slower even with a cached key object; the check is a large part of a Solana payment's
 * verification. libsodium also refuses small-order keys and non-canonical signatures, which no wallet
 * produces (docs/decisions/0002-native-crypto-and-recovery-thread.md).
 */
const signedBy = (message: Uint8Array, key: Uint8Array, signature: Uint8Array) =>
  sodium.crypto_sign_verify_detached(bufferOf(signature), bufferOf(message), bufferOf(key));
const bufferOf = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

const same = (a: Uint8Array | undefined, address: string) => a !== undefined && bytesOf(address).equals(a);
const u64 = (data: Uint8Array, offset: number) =>
  Buffer.from(data.buffer, data.byteOffset, data.byteLength).readBigUInt64LE(offset);

type Instruction = WireTransaction["instructions"][number];

/** The instructions of a transaction that passed the structure check, by role. */
interface Layout {
  transfer: Instruction;
  /** The token program the transfer runs under (the ATA depends on it). */
  tokenProgram: string;
}

const programOf = (tx: WireTransaction, ix: Instruction) => tx.accountKeys[ix.programIndex];

/** The payload's transaction: base64 of a serialized version-0 transaction without address lookup tables. */
function decodeTransaction(payload: Record<string, unknown>): WireTransaction | Rejection {
  const wire = payload.transaction;
  if (typeof wire !== "string" || wire.length === 0)
    return reject("invalid_payload", "payload.transaction must be a base64 transaction");
  let tx: WireTransaction;
  try {
    tx = parseTransaction(Buffer.from(wire, "base64"));
  } catch {
    return reject(
      "invalid_exact_svm_payload_transaction",
      "payload.transaction is not a serialized Solana transaction",
    );
  }
  if (tx.version !== 0) return reject("invalid_exact_svm_payload_transaction", "the transaction must be version 0");
  if (tx.addressTableLookups)
    return reject("invalid_exact_svm_payload_transaction", "address lookup tables are not accepted");
  return tx;
}

/** The server's fee payer signs first; 3 to 6 instructions: compute limit and price (both capped), TransferChecked, then only Memo or Lighthouse. */
function checkLayout(tx: WireTransaction, feePayer: string): Layout | Rejection {
  if (!same(tx.accountKeys[0], feePayer))
    return reject("invalid_exact_svm_payload_transaction_fee_payer_mismatch", `the fee payer must be ${feePayer}`);
  const { instructions } = tx;
  if (instructions.length < 3 || instructions.length > 6)
    return reject(
      "invalid_exact_svm_payload_transaction_instructions_length",
      `expected 3 to 6 instructions, got ${instructions.length}`,
    );
  const [limit, price, transfer, ...extras] = instructions as [Instruction, Instruction, Instruction, ...Instruction[]];
  if (!same(programOf(tx, limit), COMPUTE_BUDGET_PROGRAM) || limit.data[0] !== 2 || limit.data.length !== 5)
    return reject(
      "invalid_exact_svm_payload_transaction_instructions_compute_limit_instruction",
      "instruction 1 must set the compute-unit limit",
    );
  if (!same(programOf(tx, price), COMPUTE_BUDGET_PROGRAM) || price.data[0] !== 3 || price.data.length !== 9)
    return reject(
      "invalid_exact_svm_payload_transaction_instructions_compute_price_instruction",
      "instruction 2 must set the compute-unit price",
    );
  if (Buffer.from(limit.data.buffer, limit.data.byteOffset + 1, 4).readUInt32LE(0) > MAX_COMPUTE_UNIT_LIMIT)
    return reject(
      "invalid_exact_svm_payload_transaction_instructions_compute_limit_instruction",
      `compute-unit limit above ${MAX_COMPUTE_UNIT_LIMIT.toLocaleString("en")}`,
    );
  if (u64(price.data, 1) > MAX_COMPUTE_UNIT_PRICE_MICROLAMPORTS)
    return reject(
      "invalid_exact_svm_payload_transaction_instructions_compute_price_instruction_too_high",
      "compute-unit price above 5 lamports per unit",
    );
  const program = programOf(tx, transfer);
  const tokenProgram = same(program, TOKEN_PROGRAM)
    ? TOKEN_PROGRAM
    : same(program, TOKEN_2022_PROGRAM)
      ? TOKEN_2022_PROGRAM
      : undefined;
  if (!tokenProgram || transfer.data[0] !== 12 || transfer.data.length !== 10)
    return reject(
      "invalid_exact_svm_payload_transaction_instruction_not_spl_token_transfer_checked",
      "instruction 3 must be a TransferChecked",
    );
  if (extras.some((ix) => !same(programOf(tx, ix), MEMO_PROGRAM) && !same(programOf(tx, ix), LIGHTHOUSE_PROGRAM)))
    return reject(
      "invalid_exact_svm_payload_transaction_instructions_length",
      "only Memo or Lighthouse instructions may follow the transfer",
    );
  if (transfer.accounts.length < 4)
    return reject("invalid_exact_svm_payload_transaction", "TransferChecked lacks accounts");
  return { transfer, tokenProgram };
}

/** The fee payer moves nothing: it is not the transfer's authority and appears in no instruction (compared by key, not index). */
function checkFeePayerIsolated(
  tx: WireTransaction,
  authorityKey: Uint8Array,
  feePayer: string,
  authority: string,
): Rejection | undefined {
  if (same(authorityKey, feePayer))
    return reject(
      "invalid_exact_svm_payload_transaction_fee_payer_transferring_funds",
      "the fee payer may not be the transfer authority",
      authority,
    );
  if (tx.instructions.some((ix) => ix.accounts.some((i) => same(tx.accountKeys[i], feePayer))))
    return reject(
      "invalid_exact_svm_payload_transaction_fee_payer_included_in_instruction_accounts",
      "the fee payer may not appear in any instruction",
      authority,
    );
  return undefined;
}

/** The transfer pays exactly the requirement: its mint, 6 decimals, the exact amount, to payTo's associated token account. */
async function checkTerms(
  tx: WireTransaction,
  { transfer, tokenProgram }: Layout,
  requirement: PaymentRequirements,
  ata: AtaResolver,
  authority: string,
): Promise<Rejection | undefined> {
  const [, mintIndex, destinationIndex] = transfer.accounts as [number, number, number, number];
  if (!same(tx.accountKeys[mintIndex], requirement.asset))
    return reject(
      "invalid_exact_svm_payload_transaction_mint_mismatch",
      `the mint must be ${requirement.asset}`,
      authority,
    );
  if (transfer.data[9] !== USDC_DECIMALS)
    return reject("invalid_exact_svm_payload_transaction_amount_mismatch", "decimals must be 6", authority);
  if (u64(transfer.data, 1) !== BigInt(requirement.maxAmountRequired))
    return reject(
      "invalid_exact_svm_payload_transaction_amount_mismatch",
      `amount must be exactly ${requirement.maxAmountRequired}`,
      authority,
    );
  if (!same(tx.accountKeys[destinationIndex], await ata(requirement.payTo, requirement.asset, tokenProgram)))
    return reject(
      "invalid_exact_svm_payload_transaction_transfer_to_incorrect_ata",
      "the destination is not payTo's associated token account",
      authority,
    );
  return undefined;
}

/** The authority signed, and every signer but the fee payer (who signs at settlement) signed this message. */
function checkSignatures(tx: WireTransaction, authorityIndex: number, authority: string): Rejection | undefined {
  if (authorityIndex >= tx.numRequiredSignatures)
    return reject("invalid_exact_svm_payload_transaction_signature", "the transfer authority did not sign", authority);
  for (let i = 1; i < tx.numRequiredSignatures; i++) {
    if (!signedBy(tx.messageBytes, tx.accountKeys[i] as Uint8Array, tx.signatures[i] as Uint8Array))
      return reject(
        "invalid_exact_svm_payload_transaction_signature",
        `missing or invalid signature of ${addressOf(tx.accountKeys[i] as Uint8Array)}`,
        authority,
      );
  }
  return undefined;
}

export async function verifyExactSvm(
  payment: Record<string, unknown>,
  requirement: PaymentRequirements,
  { feePayer, ata }: { feePayer: string; ata: AtaResolver },
): Promise<SvmVerified | Rejection> {
  const envelope = checkEnvelope(payment, requirement);
  if (envelope) return envelope;
  const tx = decodeTransaction(payment.payload as Record<string, unknown>);
  if ("ok" in tx) return tx;
  const layout = checkLayout(tx, feePayer);
  if ("ok" in layout) return layout;
  const authorityIndex = layout.transfer.accounts[3] as number;
  const authorityKey = tx.accountKeys[authorityIndex] as Uint8Array;
  const authority = addressOf(authorityKey);
  const refused =
    checkFeePayerIsolated(tx, authorityKey, feePayer, authority) ??
    (await checkTerms(tx, layout, requirement, ata, authority)) ??
    checkSignatures(tx, authorityIndex, authority);
  if (refused) return refused;
  const wire = (payment.payload as { transaction: string }).transaction;
  return {
    ok: true,
    payer: authority,
    messageHash: createHash("sha256").update(tx.messageBytes).digest("hex"),
    transaction: wire,
  };
}
