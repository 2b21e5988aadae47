/**
 * Where the money of an interrupted payment stands, read from the chain itself (recovery's
 * question after a crash or a facilitator failure during settlement). Never a guess: `settled`
 * only when the chain shows the transfer, `unsettled` only when it can no longer happen.
 *
 * - EVM: USDC's EIP-3009 `authorizationState(authorizer, nonce)`, then the token's logs: it is also
 *   true for an authorization its payer cancelled, so only an `AuthorizationUsed` log proves the
 *   transfer (and names its transaction), and an `AuthorizationCanceled` one that it never will be.
 *   Unused and past `validBefore`: it can never be used.
 * - Solana: the transaction among the payer's ones since the payment was admitted whose message is
 *   the payment's; not found and its blockhash no longer valid: it can never land. A search that
 *   cannot reach back that far (more than `SIGNATURE_LIMIT` later transactions) leaves it open.
 */
import {
  createSolanaRpc,
  getBase58Decoder,
  getBase64Encoder,
  type Signature,
  type Address as SolanaAddress,
} from "@solana/kit";
import { type Address, createPublicClient, type Hex, http, type PublicClient, parseAbi } from "viem";
import { parseTransaction } from "../../exact/svm/wire.js";
import type { InterruptedPayment, SettlementState } from "../settlement.js";

const TOKEN_ABI = parseAbi([
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
  "event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)",
]);
/** Blocks searched back for the authorization's log (hours on Base and SKALE); found in neither, the payment stays open for an operator. */
const LOG_WINDOW = 10_000n;

type EvmPayload = { authorization: { from: Address; nonce: Hex; validBefore: string } };

/**
 * Expiry is judged by the chain's own clock: once its latest block is at or past `validBefore`,
 * no later block can accept the authorization (the token checks `block.timestamp < validBefore`),
 * so an authorization still unused at that block never will be.
 */
export async function evmSettlementState(
  client: PublicClient,
  token: Address,
  payment: InterruptedPayment,
): Promise<SettlementState> {
  const { from, nonce, validBefore } = (payment.payload as EvmPayload).authorization;
  const block = await client.getBlock({ blockTag: "latest" });
  const used = await client.readContract({
    address: token,
    abi: TOKEN_ABI,
    functionName: "authorizationState",
    args: [from, nonce],
    blockNumber: block.number,
  });
  if (used) {
    const range = {
      address: token,
      args: { authorizer: from, nonce },
      fromBlock: block.number > LOG_WINDOW ? block.number - LOG_WINDOW : 0n,
      toBlock: block.number,
    };
    // A failed log query throws: the payment stays as it is for the next pass, never guessed settled.
    const [use] = await client.getLogs({ ...range, event: TOKEN_ABI[1] });
    if (use) return { state: "settled", transaction: use.transactionHash };
    const [cancel] = await client.getLogs({ ...range, event: TOKEN_ABI[2] });
    if (cancel) return { state: "unsettled", why: "the payer cancelled the authorization" };
    return {
      state: "open",
      why: `the authorization is used, but neither its use nor its cancellation is in the last ${LOG_WINDOW} blocks`,
    };
  }
  if (block.timestamp >= BigInt(validBefore)) return { state: "unsettled", why: "the authorization expired unused" };
  return { state: "open", why: "the authorization is unused and still valid" };
}

/** The payment's transaction as the payer signed it: its message, blockhash and payer signature. */
export function solanaPaymentOf(payment: InterruptedPayment) {
  const wire = (payment.payload as { transaction: string }).transaction;
  const tx = parseTransaction(Buffer.from(wire, "base64"));
  return { tx, blockhash: getBase58Decoder().decode(tx.recentBlockhash) };
}

/** The payer's transactions read per request, and how many at most before the search gives up (and the payment stays open). */
const SIGNATURE_PAGE = 100;
const SIGNATURE_LIMIT = 1_000;
/** How far the chain's block times may run behind this service's clock. */
const CLOCK_SLACK_S = 120;

/** A confirmed transaction's wire form (base64), or `undefined` when the RPC holds none under `signature`. */
export async function landedWire(
  rpc: ReturnType<typeof createSolanaRpc>,
  signature: Signature,
): Promise<string | undefined> {
  const found = await rpc
    .getTransaction(signature, { encoding: "base64", maxSupportedTransactionVersion: 0, commitment: "confirmed" })
    .send();
  return found?.transaction?.[0];
}

export async function solanaSettlementState(rpcUrl: string, payment: InterruptedPayment): Promise<SettlementState> {
  const rpc = createSolanaRpc(rpcUrl);
  const { tx, blockhash } = solanaPaymentOf(payment);
  const message = Buffer.from(tx.messageBytes);
  // Asked first, at the search's commitment: once the blockhash is invalid at the confirmed tip, every block that could
  // hold the transaction is confirmed, so a confirmed search that follows and misses it is final. (At `processed` a
  // transaction in a last valid block not yet confirmed would be missed, and the payment released while its money moves.)
  const expired = !(await rpc.isBlockhashValid(blockhash as never, { commitment: "confirmed" }).send()).value;
  const notFound: SettlementState = expired
    ? { state: "unsettled", why: "the transaction's blockhash expired before it landed" }
    : { state: "open", why: "the transaction has not landed and its blockhash is still valid" };
  // Nothing of the payment can be on chain before it was admitted: the fee payer signs only after.
  const since = payment.createdAt === undefined ? undefined : Math.floor(payment.createdAt / 1000) - CLOCK_SLACK_S;
  let before: Signature | undefined;
  for (let read = 0; read < SIGNATURE_LIMIT; read += SIGNATURE_PAGE) {
    const page = await rpc
      .getSignaturesForAddress(payment.payer as SolanaAddress, {
        limit: SIGNATURE_PAGE,
        commitment: "confirmed",
        ...(before && { before }),
      })
      .send();
    for (const entry of page) {
      if (since !== undefined && entry.blockTime != null && Number(entry.blockTime) < since) return notFound;
      if (entry.err) continue;
      const landed = await landedWire(rpc, entry.signature);
      if (
        landed &&
        Buffer.from(parseTransaction(getBase64Encoder().encode(landed) as Uint8Array).messageBytes).equals(message)
      )
        return { state: "settled", transaction: entry.signature };
    }
    // A short page is the start of the payer's history: every transaction since the payment was read.
    if (page.length < SIGNATURE_PAGE) return notFound;
    before = page.at(-1)?.signature;
  }
  return {
    state: "open",
    why: `the payer made more than ${SIGNATURE_LIMIT} transactions since, none of them the payment's`,
  };
}

/** One reader per network of the deployment, over its RPC endpoint (`SETTLEMENT_RPC_<NETWORK>`, else the contract's public one). */
export function rpcSettlementState(
  networks: { network: string; family: "evm" | "svm"; asset: string; rpc: string }[],
): (payment: InterruptedPayment) => Promise<SettlementState> {
  const readers = new Map<string, (payment: InterruptedPayment) => Promise<SettlementState>>();
  for (const target of networks) {
    if (target.family === "svm") readers.set(target.network, (payment) => solanaSettlementState(target.rpc, payment));
    else {
      const client = createPublicClient({ transport: http(target.rpc, { timeout: 10_000, retryCount: 1 }) });
      readers.set(target.network, (payment) => evmSettlementState(client, target.asset as Address, payment));
    }
  }
  return (payment) => {
    const read = readers.get(payment.network);
    if (!read) throw new Error(`no RPC endpoint for ${payment.network}`);
    return read(payment);
  };
}
