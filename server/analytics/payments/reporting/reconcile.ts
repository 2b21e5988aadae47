/**
 * Reconciliation (`npm run ledger -- reconcile`): the ledger's `settled` and `settling` payments
 * compared with what the settlement backend shows. Pure: what the chain says is passed in
 * (reconcile-ledger.ts asks it), and every disagreement comes back as data, one finding per payment
 * and per thing that disagrees.
 *
 * A payment's chain evidence is recovery's own question (`SettlementBackend.status`): the signed
 * authorization used (EVM), the signed transaction landed (Solana). Both fix the transfer's payer,
 * recipient and amount, so those are compared between the ledger's row and the payload its payer
 * signed, and the recipient with the deployment's; the transaction with the one the chain names.
 */
import { getBase58Decoder } from "@solana/kit";
import { parseTransaction } from "../exact/svm/wire.js";
import type { SettlementRecord } from "../ledger/store.js";
import type { SettlementState } from "../settlement/settlement.js";

/** A network as this deployment settles on it. */
export interface ReconcileTarget {
  network: string;
  family: "evm" | "svm";
  /** The USDC contract (EVM) or mint (Solana). */
  asset: string;
  /** Where a payment's money goes: payTo (EVM), or payTo's USDC token account (Solana). */
  receiver: string;
}

/** What a signed payload moves: from whom, to which account, how much (and of which mint, on Solana). */
export interface PaymentTerms {
  payer: string;
  receiver: string;
  amount: bigint;
  asset?: string;
}

/** A ledger payment as reconciliation reads it (`LedgerStore.settlements`). */
export type ReconciledRecord = Omit<SettlementRecord, "expiresAt" | "createdAt">;

/** What the backend says of a payment: recovery's answer, unread (with why), or no chain to ask (`SETTLEMENT=ledger`). */
export type ChainEvidence = SettlementState | { state: "unread"; why: string } | { state: "no chain" };

/** A transfer to the deployment's receiver that the chain lists. */
export interface ChainTransfer {
  network: string;
  transaction: string;
  payer: string;
  amount: bigint;
}

/**
 * `disagreement`: the ledger and the backend disagree (the command exits 1); `settling`: a payment still being settled,
 * with where its money stands (recovery resolves it); `unchecked`: nothing could be compared (the chain unread, a
 * settlement made by another backend than the one configured).
 */
export type FindingKind = "disagreement" | "settling" | "unchecked";

export interface Finding {
  kind: FindingKind;
  /** The ledger's entry, absent for a transfer the ledger lacks. */
  entry?: number;
  network: string;
  transaction: string | null;
  what: string;
}

type EvmPayload = { authorization?: { from?: unknown; to?: unknown; value?: unknown } };

const TRANSFER_CHECKED = 12;

/** The terms of a Solana payment's transaction (base64): its third instruction, a TransferChecked, as verified. */
export function svmTermsOf(wire: string): PaymentTerms {
  const tx = parseTransaction(Buffer.from(wire, "base64"));
  const transfer = tx.instructions[2];
  if (!transfer || transfer.data[0] !== TRANSFER_CHECKED || transfer.data.length < 9 || transfer.accounts.length < 4)
    throw new Error("its third instruction is not a TransferChecked");
  const [, mint, destination, authority] = transfer.accounts.map((i) => tx.accountKeys[i]);
  if (!mint || !destination || !authority) throw new Error("the transfer names an account the message lacks");
  const base58 = getBase58Decoder();
  return {
    payer: base58.decode(authority),
    receiver: base58.decode(destination),
    amount: Buffer.from(transfer.data.subarray(1, 9)).readBigUInt64LE(0),
    asset: base58.decode(mint),
  };
}

/** What a payload as the client signed it moves; throws when it cannot be read. */
export function termsOf(family: "evm" | "svm", payload: unknown): PaymentTerms {
  if (family === "svm") {
    const wire = (payload as { transaction?: unknown } | null)?.transaction;
    if (typeof wire !== "string") throw new Error("the payload holds no transaction");
    return svmTermsOf(wire);
  }
  const a = (payload as EvmPayload | null)?.authorization;
  if (typeof a?.from !== "string" || typeof a.to !== "string" || typeof a.value !== "string")
    throw new Error("the payload holds no authorization");
  return { payer: a.from, receiver: a.to, amount: BigInt(a.value) };
}

/** Addresses as each family compares them: EVM's hex in any case, Solana's base58 exactly. */
const sameAddress = (family: "evm" | "svm", a: string, b: string) =>
  family === "evm" ? a.toLowerCase() === b.toLowerCase() : a === b;

/** What disagrees between the ledger's row, the payload its payer signed and the deployment's recipient. */
export function termsDisagreements(record: ReconciledRecord, target: ReconcileTarget): string[] {
  let terms: PaymentTerms;
  try {
    terms = termsOf(target.family, JSON.parse(record.payload));
  } catch (error) {
    return [`payload: unreadable (${(error as Error).message})`];
  }
  const found: string[] = [];
  if (!sameAddress(target.family, record.payer, terms.payer))
    found.push(`payer: ledger ${record.payer}, signed ${terms.payer}`);
  if (record.amount !== terms.amount) found.push(`amount: ledger ${record.amount}, signed ${terms.amount}`);
  if (!sameAddress(target.family, terms.receiver, target.receiver))
    found.push(`payTo: signed to ${terms.receiver}, the deployment's is ${target.receiver}`);
  if (terms.asset !== undefined && terms.asset !== target.asset)
    found.push(`asset: signed in ${terms.asset}, the deployment's is ${target.asset}`);
  return found;
}

/** A settled payment against its evidence; `undefined` when they agree. */
function settledFinding(
  record: ReconciledRecord,
  evidence: ChainEvidence,
): Omit<Finding, "entry" | "network" | "transaction"> | undefined {
  const ledgerTx = `ledger:${record.key}`;
  switch (evidence.state) {
    case "no chain":
      if (!record.simulated)
        return {
          kind: "unchecked",
          what: "settled on a chain by another SETTLEMENT backend; SETTLEMENT=ledger reads no chain",
        };
      if (record.transaction !== ledgerTx)
        return { kind: "disagreement", what: `transaction: a simulated settlement's must be ${ledgerTx}` };
      return undefined;
    case "unread":
      return { kind: "unchecked", what: `the chain could not be read: ${evidence.why}` };
    case "settled":
      if (evidence.transaction === record.transaction) return undefined;
      return { kind: "disagreement", what: `transaction: ledger ${record.transaction}, chain ${evidence.transaction}` };
    case "unsettled":
    case "open":
      return { kind: "disagreement", what: `not on chain: ${evidence.why}` };
  }
}

/** A settling payment: where its money stands, for recovery to resolve. */
function settlingFinding(evidence: ChainEvidence): Omit<Finding, "entry" | "network" | "transaction"> {
  const stands: Record<ChainEvidence["state"], string> = {
    "no chain": "begun by another SETTLEMENT backend; SETTLEMENT=ledger reads no chain",
    unread: `the chain could not be read: ${"why" in evidence ? evidence.why : ""}`,
    settled: `on chain as ${"transaction" in evidence ? evidence.transaction : ""}: recovery will confirm it`,
    unsettled: `never moved and never can (${"why" in evidence ? evidence.why : ""}): recovery will release it`,
    open: `not on chain yet (${"why" in evidence ? evidence.why : ""})`,
  };
  return { kind: "settling", what: `settling: ${stands[evidence.state]}` };
}

/**
 * Everything that disagrees about one payment of the ledger: its terms (any stage), then its settlement. A simulated
 * settlement in a deployment that settles on a chain is a disagreement: the ledger counts it paid, no chain holds it.
 */
export function recordFindings(
  record: ReconciledRecord,
  target: ReconcileTarget | undefined,
  evidence: ChainEvidence,
): Finding[] {
  const where = { entry: record.entry, network: record.network, transaction: record.transaction };
  if (!target) return [{ ...where, kind: "disagreement", what: `network: not one this deployment settles on` }];
  const findings: Finding[] = termsDisagreements(record, target).map((what) => ({
    ...where,
    kind: "disagreement",
    what,
  }));
  if (record.status === "settling") return [...findings, { ...where, ...settlingFinding(evidence) }];
  if (record.simulated && evidence.state !== "no chain")
    return [
      ...findings,
      { ...where, kind: "disagreement", what: "simulated: the ledger counts it paid, no chain holds it" },
    ];
  const settled = settledFinding(record, evidence);
  return settled ? [...findings, { ...where, ...settled }] : findings;
}

/** Transfers the chain lists that no payment of the ledger accounts for (`accounted`: the transactions it knows). */
export function unrecordedTransfers(transfers: ChainTransfer[], accounted: ReadonlySet<string>): Finding[] {
  return transfers
    .filter((transfer) => !accounted.has(transfer.transaction))
    .map((transfer) => ({
      kind: "disagreement",
      network: transfer.network,
      transaction: transfer.transaction,
      what: `on chain, not in the ledger: ${transfer.payer} paid ${transfer.amount}`,
    }));
}

/** One line per finding: `disagreement payment 12 base-sepolia tx 0xab…: amount: ledger 2000, signed 1000`. */
export function findingLine(finding: Finding): string {
  const payment = finding.entry === undefined ? "payment -" : `payment ${finding.entry}`;
  return `${finding.kind} ${payment} ${finding.network} tx ${finding.transaction ?? "-"}: ${finding.what}`;
}

/** The counts of a reconciliation, as its summary line says them. */
export interface ReconcileCounts {
  settled: number;
  settling: number;
  listed: number;
}

export function summaryLine(findings: Finding[], counts: ReconcileCounts, source: string): string {
  const count = (kind: FindingKind) => findings.filter((f) => f.kind === kind).length;
  return (
    `reconcile: ${counts.settled} settled and ${counts.settling} settling payments compared with ${source}, ` +
    `${counts.listed} transfers listed on chain: ${count("disagreement")} disagreements, ` +
    `${count("settling")} settling, ${count("unchecked")} unchecked`
  );
}
