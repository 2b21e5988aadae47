/**
 * Strict verification of an x402 v1 `exact` Solana payment: a partially signed version-0
 * transaction of compute-limit, compute-price (capped) and one `TransferChecked` of the configured
 * USDC mint to `payTo`'s associated token account for exactly the amount, optionally followed by
 * Memo or Lighthouse instructions (positions 4 to 6, as the newer reference allows). The fee payer
 * is the server's and appears in no instruction; every other signer's ed25519 signature is checked.
 * No RPC is needed: blockhash expiry and balances are left to settlement.
 */
import { createHash, createPublicKey, type KeyObject, verify } from "node:crypto";
import {
  type Address,
  getAddressEncoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
} from "@solana/kit";
import type { PaymentRequirements } from "../../types.js";
import { checkEnvelope, type Rejection, reject } from "../common.js";

export const COMPUTE_BUDGET_PROGRAM = "ComputeBudget111111111111111111111111111111";
export const TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
export const TOKEN_2022_PROGRAM = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";
const MEMO_PROGRAM = "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr";
const LIGHTHOUSE_PROGRAM = "L2TExMFKdjpN9kozasaurPirfHy9P8sbXoAN1qA3S95";

/** 5 lamports per compute unit, the reference's cap: a higher price would spend the fee payer's SOL. */
export const MAX_COMPUTE_UNIT_PRICE_MICROLAMPORTS = 5_000_000n;
const USDC_DECIMALS = 6;

export type SvmVerified = { ok: true; payer: string; messageHash: string; transaction: string };

/** Resolves `payTo`'s associated token account for a mint under a token program. */
export type AtaResolver = (owner: string, mint: string, tokenProgram: string) => Promise<string>;

const SPKI_ED25519 = Buffer.from("302a300506032b6570032100", "hex");
const keyCache = new Map<string, KeyObject>();
const addressEncoder = getAddressEncoder();

function publicKey(address: string): KeyObject {
  let key = keyCache.get(address);
  if (!key) {
    if (keyCache.size >= 10_000) keyCache.delete(keyCache.keys().next().value as string);
    key = createPublicKey({
      key: Buffer.concat([SPKI_ED25519, Buffer.from(addressEncoder.encode(address as Address))]),
      format: "der",
      type: "spki",
    });
    keyCache.set(address, key);
  }
  return key;
}

const u64 = (data: Uint8Array, offset: number) => Buffer.from(data.buffer, data.byteOffset, data.byteLength).readBigUInt64LE(offset);

export async function verifyExactSvm(
  payment: Record<string, unknown>,
  requirement: PaymentRequirements,
  { feePayer, ata }: { feePayer: string; ata: AtaResolver },
): Promise<SvmVerified | Rejection> {
  const envelope = checkEnvelope(payment, requirement);
  if (envelope) return envelope;
  const wire = (payment.payload as Record<string, unknown>).transaction;
  if (typeof wire !== "string" || wire.length === 0) return reject("invalid_payload", "payload.transaction must be a base64 transaction");

  let messageBytes: Uint8Array;
  let signatures: Record<string, Uint8Array | null>;
  let message: ReturnType<ReturnType<typeof getCompiledTransactionMessageDecoder>["decode"]>;
  try {
    const tx = getTransactionDecoder().decode(getBase64Encoder().encode(wire));
    messageBytes = tx.messageBytes as unknown as Uint8Array;
    signatures = tx.signatures as Record<string, Uint8Array | null>;
    message = getCompiledTransactionMessageDecoder().decode(messageBytes);
  } catch {
    return reject("invalid_exact_svm_payload_transaction", "payload.transaction is not a serialized Solana transaction");
  }
  if (message.version !== 0) return reject("invalid_exact_svm_payload_transaction", "the transaction must be version 0");
  if ("addressTableLookups" in message && message.addressTableLookups?.length) {
    return reject("invalid_exact_svm_payload_transaction", "address lookup tables are not accepted");
  }
  const accounts = message.staticAccounts as string[];
  if (accounts[0] !== feePayer)
    return reject("invalid_exact_svm_payload_transaction_fee_payer_mismatch", `the fee payer must be ${feePayer}`);

  type Ix = { program: string; accounts: string[]; data: Uint8Array };
  const instructions: Ix[] = message.instructions.map((ix) => ({
    program: accounts[ix.programAddressIndex] as string,
    accounts: (ix.accountIndices ?? []).map((i) => accounts[i] as string),
    data: (ix.data ?? new Uint8Array()) as Uint8Array,
  }));
  if (instructions.length < 3 || instructions.length > 6) {
    return reject("invalid_exact_svm_payload_transaction_instructions_length", `expected 3 to 6 instructions, got ${instructions.length}`);
  }
  const [limit, price, transfer, ...extras] = instructions as [Ix, Ix, Ix, ...Ix[]];
  if (limit.program !== COMPUTE_BUDGET_PROGRAM || limit.data[0] !== 2 || limit.data.length !== 5) {
    return reject(
      "invalid_exact_svm_payload_transaction_instructions_compute_limit_instruction",
      "instruction 1 must set the compute-unit limit",
    );
  }
  if (price.program !== COMPUTE_BUDGET_PROGRAM || price.data[0] !== 3 || price.data.length !== 9) {
    return reject(
      "invalid_exact_svm_payload_transaction_instructions_compute_price_instruction",
      "instruction 2 must set the compute-unit price",
    );
  }
  if (u64(price.data, 1) > MAX_COMPUTE_UNIT_PRICE_MICROLAMPORTS) {
    return reject(
      "invalid_exact_svm_payload_transaction_instructions_compute_price_instruction_too_high",
      "compute-unit price above 5 lamports per unit",
    );
  }
  if (
    (transfer.program !== TOKEN_PROGRAM && transfer.program !== TOKEN_2022_PROGRAM) ||
    transfer.data[0] !== 12 ||
    transfer.data.length !== 10
  ) {
    return reject(
      "invalid_exact_svm_payload_transaction_instruction_not_spl_token_transfer_checked",
      "instruction 3 must be a TransferChecked",
    );
  }
  if (extras.some((ix) => ix.program !== MEMO_PROGRAM && ix.program !== LIGHTHOUSE_PROGRAM)) {
    return reject(
      "invalid_exact_svm_payload_transaction_instructions_length",
      "only Memo or Lighthouse instructions may follow the transfer",
    );
  }
  const [, mint, destination, authority] = transfer.accounts as [string, string, string, string];
  if (transfer.accounts.length < 4) return reject("invalid_exact_svm_payload_transaction", "TransferChecked lacks accounts");
  if (authority === feePayer)
    return reject(
      "invalid_exact_svm_payload_transaction_fee_payer_transferring_funds",
      "the fee payer may not be the transfer authority",
      authority,
    );
  if (instructions.some((ix) => ix.accounts.includes(feePayer))) {
    return reject(
      "invalid_exact_svm_payload_transaction_fee_payer_included_in_instruction_accounts",
      "the fee payer may not appear in any instruction",
      authority,
    );
  }
  if (mint !== requirement.asset)
    return reject("invalid_exact_svm_payload_transaction_mint_mismatch", `the mint must be ${requirement.asset}`, authority);
  if (transfer.data[9] !== USDC_DECIMALS)
    return reject("invalid_exact_svm_payload_transaction_amount_mismatch", "decimals must be 6", authority);
  if (u64(transfer.data, 1) !== BigInt(requirement.maxAmountRequired)) {
    return reject(
      "invalid_exact_svm_payload_transaction_amount_mismatch",
      `amount must be exactly ${requirement.maxAmountRequired}`,
      authority,
    );
  }
  if (destination !== (await ata(requirement.payTo, mint, transfer.program))) {
    return reject(
      "invalid_exact_svm_payload_transaction_transfer_to_incorrect_ata",
      "the destination is not payTo's associated token account",
      authority,
    );
  }
  const signers = accounts.slice(0, message.header.numSignerAccounts);
  if (!signers.includes(authority))
    return reject("invalid_exact_svm_payload_transaction_signature", "the transfer authority did not sign", authority);
  for (const signer of signers.slice(1)) {
    const signature = signatures[signer];
    if (!signature || !verify(null, messageBytes, publicKey(signer), signature)) {
      return reject("invalid_exact_svm_payload_transaction_signature", `missing or invalid signature of ${signer}`, authority);
    }
  }
  return { ok: true, payer: authority, messageHash: createHash("sha256").update(messageBytes).digest("hex"), transaction: wire };
}
