/**
 * Solana settlement on an in-process litesvm 1.5 chain (kit-typed; litesvm 0.x aborts the process on
 * linux-x64, see the chain reference). The USDC mint is written with `setAccount` at the profile's
 * real mint address, so payments signed for the real network settle here unchanged. Two generated
 * keys live in this module: the fee payer (announced in `extra.feePayer`, it signs last at
 * settlement and pays the fees) and the faucet (mint authority, pays for token accounts).
 */
import {
  type Address,
  appendTransactionMessageInstructions,
  assertIsFullySignedTransaction,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getSignatureFromTransaction,
  getTransactionDecoder,
  type Instruction,
  lamports,
  none,
  partiallySignTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  signTransactionMessageWithSigners,
  some,
  type Transaction,
} from "@solana/kit";
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getMintEncoder,
  getMintSize,
  getMintToInstruction,
  getTokenDecoder,
  TOKEN_PROGRAM_ADDRESS,
} from "@solana-program/token";
import { FailedTransactionMetadata, LiteSVM } from "litesvm";
import type { VerifiedPayment } from "../../../x402/types.js";
import type { BackendResult, InterruptedPayment, SettlementState } from "../../settlement.js";

export interface SvmChain {
  readonly network: string;
  readonly mint: string;
  /** The fee payer this chain signs with: the address to announce in `extra.feePayer`. */
  readonly feePayer: string;
  readonly litesvm: LiteSVM;
  /** Every settlement that landed, newest last: what an RPC's address and signature look-ups answer from. */
  readonly landed: readonly LandedTransaction[];
  settle(payment: VerifiedPayment): Promise<BackendResult>;
  /**
   * Whether an interrupted payment's transaction is on this chain. The fee payer's signature (the
   * transaction id) is deterministic, so it is computed again; this chain lives in the settling
   * process, so a transaction it does not hold was never sent and never will be.
   */
  state(payment: InterruptedPayment): Promise<SettlementState>;
  /** Faucet: mints USDC to `owner`'s associated token account, creating it when missing. */
  fund(owner: string, amount: bigint): Promise<void>;
  /** Faucet: SOL for a wallet that pays its own fees (x402 payers need none). */
  fundSol(owner: string, amount: bigint): void;
  /** USDC (atomic units) in `owner`'s associated token account; 0 when it has none. */
  balanceOf(owner: string): Promise<bigint>;
  latestBlockhash(): string;
}

export interface LandedTransaction {
  signature: string;
  /** Base64 wire transaction. */
  wire: string;
  /** Every account the transaction names. */
  accounts: string[];
}

const DECIMALS = 6;
const SOL = 1_000_000_000n;

/** What a failed litesvm transaction means for the payer, in x402's words. */
function failure(result: FailedTransactionMetadata): Extract<BackendResult, { ok: false }> {
  const err = result.err();
  const detail = `${err.toString()}; ${result.meta().logs().slice(-3).join(" | ")}`;
  // TransactionErrorFieldless is a const enum in litesvm's typings (absent at run time): its numbers are spelled here.
  if (err === 6)
    return { ok: false, reason: "duplicate_settlement", message: "the chain already processed this transaction" };
  if (err === 7)
    return {
      ok: false,
      reason: "settle_exact_svm_block_height_exceeded",
      message: "the transaction's blockhash expired",
    };
  if (err === 9 || err === 11)
    return {
      ok: false,
      reason: "invalid_exact_svm_payload_transaction_signature",
      message: "the chain refused a signature",
    };
  // spl-token's custom error 1 is InsufficientFunds.
  if (typeof err === "object" && "err" in err) {
    const inner = err.err();
    if (typeof inner === "object" && "code" in inner && inner.code === 1)
      return {
        ok: false,
        reason: "insufficient_funds",
        message: "the payer's token account holds less than the amount",
      };
  }
  return { ok: false, reason: "invalid_exact_svm_payload_transaction_simulation_failed", message: detail };
}

/** Source and destination of the transfer (the third instruction, as the verifier accepted it). */
function transferAccounts(tx: Transaction): [Address, Address] {
  // Version 0, as verified: its compiled form lists instructions by account index.
  const message = getCompiledTransactionMessageDecoder().decode(tx.messageBytes) as unknown as {
    staticAccounts: Address[];
    instructions: { accountIndices?: number[] }[];
  };
  const [source = -1, , destination = -1] = message.instructions[2]?.accountIndices ?? [];
  return [message.staticAccounts[source] as Address, message.staticAccounts[destination] as Address];
}

/** A new mint of `decimals` at `mint`, its authority the faucet's: what the chain's USDC is. */
function createMint(svm: LiteSVM, mint: string, authority: Address): void {
  svm.setAccount({
    address: mint as Address,
    programAddress: TOKEN_PROGRAM_ADDRESS,
    lamports: lamports(svm.minimumBalanceForRentExemption(BigInt(getMintSize()))),
    executable: false,
    space: BigInt(getMintSize()),
    data: getMintEncoder().encode({
      mintAuthority: some(authority),
      supply: 0n,
      decimals: DECIMALS,
      isInitialized: true,
      freezeAuthority: none(),
    }),
  });
}

type Signer = Awaited<ReturnType<typeof generateKeyPairSigner>>;

/** The faucet's token accounts and mints: an owner's account of the mint, created (and funded) on request. */
function faucetOf(svm: LiteSVM, mint: string, faucet: Signer) {
  const ataOf = async (owner: string) =>
    (
      await findAssociatedTokenPda({
        owner: owner as Address,
        mint: mint as Address,
        tokenProgram: TOKEN_PROGRAM_ADDRESS,
      })
    )[0];
  const sendAsFaucet = async (instructions: Instruction[]) => {
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(faucet, m),
      (m) => svm.setTransactionMessageLifetimeUsingLatestBlockhash(m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    );
    const result = svm.sendTransaction(await signTransactionMessageWithSigners(message));
    if (result instanceof FailedTransactionMetadata) throw new Error(`faucet transaction failed: ${result.toString()}`);
  };
  const fund = async (owner: string, amount: bigint) => {
    const ata = await ataOf(owner);
    const create = getCreateAssociatedTokenIdempotentInstruction({
      payer: faucet,
      ata,
      owner: owner as Address,
      mint: mint as Address,
    });
    await sendAsFaucet(
      amount > 0n
        ? [create, getMintToInstruction({ mint: mint as Address, token: ata, mintAuthority: faucet, amount })]
        : [create],
    );
  };
  return { ataOf, fund };
}

/**
 * Settles a payment's transaction on the chain, signed by the fee payer: simulated first, so that a transaction that
 * would fail is not sent (the fee payer pays nothing for it); a missing token account is named rather than left to
 * the token program's InvalidAccountData.
 */
async function settleOn(svm: LiteSVM, signed: Transaction, landed: LandedTransaction[]): Promise<BackendResult> {
  try {
    assertIsFullySignedTransaction(signed);
  } catch {
    return {
      ok: false,
      reason: "invalid_exact_svm_payload_transaction_signature",
      message: "the transaction lacks a signature",
    };
  }
  const [source, destination] = transferAccounts(signed);
  if (!svm.getAccount(source).exists)
    return {
      ok: false,
      reason: "invalid_exact_svm_payload_transaction_sender_ata_not_found",
      message: "the payer has no USDC account",
    };
  if (!svm.getAccount(destination).exists)
    return {
      ok: false,
      reason: "invalid_exact_svm_payload_transaction_receiver_ata_not_found",
      message: "payTo has no USDC account",
    };
  const simulated = svm.simulateTransaction(signed);
  if (simulated instanceof FailedTransactionMetadata) return failure(simulated);
  const sent = svm.sendTransaction(signed);
  if (sent instanceof FailedTransactionMetadata) return failure(sent);
  const signature = getSignatureFromTransaction(signed);
  const message = getCompiledTransactionMessageDecoder().decode(signed.messageBytes) as unknown as {
    staticAccounts: string[];
  };
  landed.push({ signature, wire: getBase64EncodedWireTransaction(signed), accounts: message.staticAccounts });
  return { ok: true, transaction: signature, simulated: false };
}

export async function startSvmChain({
  network,
  mint,
  recipients,
}: {
  network: string;
  mint: string;
  /** Owners that need a token account from the start (payTo, treasury): x402 transfers never create one. */
  recipients: string[];
}): Promise<SvmChain> {
  const svm = new LiteSVM();
  const [feePayer, faucet] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()]);
  svm.airdrop(feePayer.address, lamports(100n * SOL));
  svm.airdrop(faucet.address, lamports(100n * SOL));
  createMint(svm, mint, faucet.address);
  const { ataOf, fund } = faucetOf(svm, mint, faucet);
  for (const owner of new Set(recipients)) await fund(owner, 0n);
  const landed: LandedTransaction[] = [];
  const signAsFeePayer = (payload: unknown) => {
    const wire = (payload as { transaction: string }).transaction;
    return partiallySignTransaction(
      [feePayer.keyPair],
      getTransactionDecoder().decode(getBase64Encoder().encode(wire)),
    );
  };
  return {
    network,
    mint,
    feePayer: feePayer.address,
    litesvm: svm,
    landed,
    fund,
    fundSol(owner, amount) {
      svm.airdrop(owner as Address, lamports(amount));
    },
    async balanceOf(owner) {
      const account = svm.getAccount(await ataOf(owner));
      return account.exists ? getTokenDecoder().decode(account.data).amount : 0n;
    },
    latestBlockhash: () => svm.latestBlockhash(),
    async state(payment) {
      const signature = getSignatureFromTransaction(await signAsFeePayer(payment.payload));
      if (svm.getTransaction(signature) === null)
        return { state: "unsettled", why: "the local chain never received the transaction" };
      return { state: "settled", transaction: signature };
    },
    settle: async (payment) => settleOn(svm, await signAsFeePayer(payment.payload), landed),
  };
}
