/**
 * The USDC transfers a network shows into the deployment's receiver, read over its JSON-RPC: what
 * reconciliation holds against the ledger to find payments the chain has and the ledger lacks. A
 * listing reaches back a bounded way (`scope` says how far): public RPC endpoints refuse unbounded
 * log ranges, and a busy account's history is long.
 *
 * - EVM: the token's `Transfer` logs to payTo over the last `LOG_WINDOW` blocks.
 * - Solana: the latest `SIGNATURE_LIMIT` transactions naming payTo's token account, each read and
 *   parsed as an x402 payment's transaction (a TransferChecked into that account); others are skipped.
 */
import { createSolanaRpc, type Address as SolanaAddress } from "@solana/kit";
import { type Address, type PublicClient, parseAbi } from "viem";
import { type ChainTransfer, type ReconcileTarget, svmTermsOf } from "../../reporting/reconcile.js";
import { landedWire } from "./chain-status.js";

const TRANSFER = parseAbi(["event Transfer(address indexed from, address indexed to, uint256 value)"])[0];
const LOG_WINDOW = 10_000n;
const SIGNATURE_PAGE = 1_000;

export interface TransferListing {
  transfers: ChainTransfer[];
  /** How far back the listing reaches, in words for the operator. */
  scope: string;
}

export async function evmTransfers(client: PublicClient, target: ReconcileTarget): Promise<TransferListing> {
  const latest = await client.getBlockNumber();
  const fromBlock = latest > LOG_WINDOW ? latest - LOG_WINDOW : 0n;
  const logs = await client.getLogs({
    address: target.asset as Address,
    event: TRANSFER,
    args: { to: target.receiver as Address },
    fromBlock,
    toBlock: latest,
  });
  return {
    transfers: logs.map((log) => ({
      network: target.network,
      transaction: log.transactionHash,
      payer: log.args.from as string,
      amount: log.args.value as bigint,
    })),
    scope: `${target.network}: blocks ${fromBlock} to ${latest}`,
  };
}

/** A transaction read back, as a transfer into `target.receiver`, or `undefined` when it is not one. */
function paymentOf(target: ReconcileTarget, signature: string, wire: string): ChainTransfer | undefined {
  try {
    const terms = svmTermsOf(wire);
    if (terms.receiver !== target.receiver || terms.asset !== target.asset) return undefined;
    return { network: target.network, transaction: signature, payer: terms.payer, amount: terms.amount };
  } catch {
    return undefined;
  }
}

export async function solanaTransfers(rpcUrl: string, target: ReconcileTarget): Promise<TransferListing> {
  const rpc = createSolanaRpc(rpcUrl);
  const page = await rpc
    .getSignaturesForAddress(target.receiver as SolanaAddress, { limit: SIGNATURE_PAGE, commitment: "confirmed" })
    .send();
  const transfers: ChainTransfer[] = [];
  for (const entry of page) {
    if (entry.err) continue;
    const wire = await landedWire(rpc, entry.signature);
    const transfer = wire && paymentOf(target, entry.signature, wire);
    if (transfer) transfers.push(transfer);
  }
  const reach = page.length < SIGNATURE_PAGE ? "its whole history" : `its latest ${SIGNATURE_PAGE} transactions`;
  return { transfers, scope: `${target.network}: ${reach}` };
}
