/**
 * Reconciliation run against a deployment: its ledger's `settled` and `settling` payments, each asked
 * about where recovery asks (the backend's `status`), and the transfers its chains list into its
 * receivers, compared by reconcile.ts. The chain source is chosen from the same configuration the
 * service reads (`SETTLEMENT`, `SETTLEMENT_RPC_<NETWORK>`), so an operator runs it against the
 * deployment the service settles on:
 *
 * - `ledger`: nothing moves outside the ledger; each settlement must be the ledger's own simulated one.
 * - `facilitator`: each network's JSON-RPC, as recovery reads it; the facilitator itself lists nothing.
 * - `local-chain`: the chains live inside the serving process and keep no state once it stops, so another
 *   process cannot read them (`ReconcileUnavailable`). A test holding the chains passes them as a source.
 */
import type { AnalyticsConfig } from "../../../config/analytics.js";
import { TOKEN_PROGRAM } from "../exact/svm/verify.js";
import { cachedAta } from "../exact/verifier.js";
import type { LedgerStore, SettlementRecord } from "../ledger/store.js";
import type { TransferListing } from "../settlement/backends/chain-transfers.js";
import { settlementNetworks } from "../settlement/backends/index.js";
import type { InterruptedPayment, SettlementState } from "../settlement/settlement.js";
import {
  type ChainEvidence,
  type ChainTransfer,
  type Finding,
  type ReconcileCounts,
  type ReconcileTarget,
  recordFindings,
  summaryLine,
  unrecordedTransfers,
} from "./reconcile.js";

/** What reconciliation reads besides the ledger. */
export interface ChainSource {
  /** What it is, named in the summary line. */
  name: string;
  /** Where a payment's money stands (recovery's question); absent when nothing moves outside the ledger. */
  status?(payment: InterruptedPayment): Promise<SettlementState>;
  /** The transfers into a network's receiver that the chain shows; absent when it cannot list them. */
  list?(target: ReconcileTarget): Promise<TransferListing>;
  /** Why the source lists nothing, when `list` is absent. */
  unlisted?: string;
}

/** The configured backend cannot be read from outside the serving process: reconciliation cannot run. */
export class ReconcileUnavailable extends Error {}

export interface ReconcileReport {
  findings: Finding[];
  counts: ReconcileCounts;
  /** What the chain listing covered, or why there was none. */
  notes: string[];
  summary: string;
}

/** The deployment's networks with their receivers: payTo, or on Solana payTo's USDC token account. */
export async function reconcileTargets(config: AnalyticsConfig): Promise<ReconcileTarget[]> {
  const ata = cachedAta();
  return Promise.all(
    settlementNetworks(config).map(async (target) => ({
      network: target.network,
      family: target.family,
      asset: target.asset,
      receiver: target.family === "svm" ? await ata(target.payTo, target.asset, TOKEN_PROGRAM) : target.payTo,
    })),
  );
}

/** The chain source of the configured `SETTLEMENT`, read the way the service's own backend and recovery read it. */
export async function configuredChainSource(config: AnalyticsConfig): Promise<ChainSource> {
  const { mode } = config.settlement;
  if (mode === "ledger")
    return {
      name: "SETTLEMENT=ledger (the ledger's commit is the settlement; no chain)",
      unlisted: "SETTLEMENT=ledger moves no money: there is no chain to list transfers from",
    };
  if (mode === "local-chain")
    throw new ReconcileUnavailable(
      "SETTLEMENT=local-chain: the local chains live inside the serving process and keep nothing once it stops, " +
        "so no other process can read them; reconcile runs against SETTLEMENT=ledger or SETTLEMENT=facilitator",
    );
  const [{ rpcSettlementState }, { evmTransfers, solanaTransfers }, { createPublicClient, http }] = await Promise.all([
    import("../settlement/backends/chain-status.js"),
    import("../settlement/backends/chain-transfers.js"),
    import("viem"),
  ]);
  const networks = settlementNetworks(config);
  const rpcOf = (network: string) => networks.find((n) => n.network === network)?.rpc as string;
  return {
    name: "each network's JSON-RPC (SETTLEMENT_RPC_<NETWORK>, else the contract's public one)",
    status: rpcSettlementState(networks),
    list: (target) =>
      target.family === "svm"
        ? solanaTransfers(rpcOf(target.network), target)
        : evmTransfers(createPublicClient({ transport: http(rpcOf(target.network), { timeout: 10_000 }) }), target),
  };
}

/** What the source says of one payment; a failed read is `unread`, never a guess. */
async function evidenceOf(source: ChainSource, record: SettlementRecord): Promise<ChainEvidence> {
  if (!source.status) return { state: "no chain" };
  try {
    return await source.status({
      network: record.network,
      payer: record.payer,
      payload: JSON.parse(record.payload),
      expiresAt: record.expiresAt,
      createdAt: record.createdAt,
    });
  } catch (error) {
    return { state: "unread", why: (error as Error).message.split("\n", 1)[0] as string };
  }
}

/** Every network's listing; a network that cannot be listed is a note, and its transfers go unchecked. */
async function listings(source: ChainSource, targets: ReconcileTarget[], notes: string[]): Promise<ChainTransfer[]> {
  if (!source.list) {
    notes.push(`not listed: ${source.unlisted ?? "the settlement backend cannot list its transfers"}`);
    return [];
  }
  const transfers: ChainTransfer[] = [];
  for (const target of targets) {
    try {
      const listing = await source.list(target);
      transfers.push(...listing.transfers);
      notes.push(`listed ${listing.scope}`);
    } catch (error) {
      notes.push(`not listed: ${target.network}: ${(error as Error).message.split("\n", 1)[0]}`);
    }
  }
  return transfers;
}

/** Reconciles `ledger` with `source` over the deployment's `targets`. */
export async function reconcileLedger({
  ledger,
  source,
  targets,
}: {
  ledger: LedgerStore;
  source: ChainSource;
  targets: ReconcileTarget[];
}): Promise<ReconcileReport> {
  const records = await ledger.settlements();
  const findings: Finding[] = [];
  const accounted = new Set<string>();
  for (const record of records) {
    const evidence = await evidenceOf(source, record);
    if (record.transaction) accounted.add(record.transaction);
    if (evidence.state === "settled") accounted.add(evidence.transaction);
    const target = targets.find((t) => t.network === record.network);
    findings.push(...recordFindings(record, target, evidence));
  }
  const notes: string[] = [];
  const transfers = await listings(source, targets, notes);
  findings.push(...unrecordedTransfers(transfers, accounted));
  const counts = {
    settled: records.filter((r) => r.status === "settled").length,
    settling: records.filter((r) => r.status === "settling").length,
    listed: transfers.length,
  };
  return { findings, counts, notes, summary: summaryLine(findings, counts, source.name) };
}
