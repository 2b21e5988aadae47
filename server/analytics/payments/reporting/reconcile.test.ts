import { describe, expect, it } from "vitest";
import {
  type ChainEvidence,
  findingLine,
  type ReconciledRecord,
  type ReconcileTarget,
  recordFindings,
  summaryLine,
  termsOf,
  unrecordedTransfers,
} from "./reconcile.js";

const PAY_TO = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C";
const PAYER = "0x857b06519E91e3A54538791bDbb0E22373e36b66";
const TX = `0x${"11".repeat(32)}`;
const target: ReconcileTarget = {
  network: "base-sepolia",
  family: "evm",
  asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
  receiver: PAY_TO,
};
const payload = (value = "1000", to = PAY_TO, from = PAYER) =>
  JSON.stringify({
    signature: "0x",
    authorization: { from, to, value, validAfter: "0", validBefore: "9", nonce: "0x" },
  });
const record = (overrides: Partial<ReconciledRecord> = {}): ReconciledRecord => ({
  entry: 7,
  key: "base-sepolia:payer:nonce",
  status: "settled",
  network: "base-sepolia",
  payer: PAYER.toLowerCase(),
  amount: 1000n,
  payload: payload(),
  transaction: TX,
  simulated: false,
  ...overrides,
});
const settled: ChainEvidence = { state: "settled", transaction: TX };

describe("reconcile's comparison", () => {
  it("reads what an EVM payload moves, and refuses one without an authorization", () => {
    expect(termsOf("evm", JSON.parse(payload()))).toEqual({ payer: PAYER, receiver: PAY_TO, amount: 1000n });
    expect(() => termsOf("evm", {})).toThrow("no authorization");
    expect(() => termsOf("svm", {})).toThrow("no transaction");
  });

  it("finds nothing when the chain shows the ledger's transaction and the terms are the signed ones", () => {
    expect(recordFindings(record(), target, settled)).toEqual([]);
  });

  it("names the payment and each term that disagrees with what the payer signed or the deployment's payTo", () => {
    const other = "0x0000000000000000000000000000000000000001";
    const findings = recordFindings(record({ amount: 2000n, payload: payload("1000", other) }), target, settled);
    expect(findings.map((f) => f.what)).toEqual([
      "amount: ledger 2000, signed 1000",
      `payTo: signed to ${other}, the deployment's is ${PAY_TO}`,
    ]);
    expect(findings.every((f) => f.kind === "disagreement" && f.entry === 7 && f.transaction === TX)).toBe(true);
    expect(recordFindings(record({ payer: other }), target, settled)[0]?.what).toBe(
      `payer: ledger ${other}, signed ${PAYER}`,
    );
    expect(recordFindings(record({ payload: "{}" }), target, settled)[0]?.what).toMatch(/^payload: unreadable/);
  });

  it("calls a settled payment the chain lacks, or holds under another transaction, a disagreement", () => {
    const other = `0x${"22".repeat(32)}`;
    expect(recordFindings(record(), target, { state: "settled", transaction: other })).toEqual([
      {
        kind: "disagreement",
        entry: 7,
        network: "base-sepolia",
        transaction: TX,
        what: `transaction: ledger ${TX}, chain ${other}`,
      },
    ]);
    for (const state of ["unsettled", "open"] as const)
      expect(recordFindings(record(), target, { state, why: "unused" })[0]).toMatchObject({
        kind: "disagreement",
        what: "not on chain: unused",
      });
    expect(recordFindings(record({ network: "base" }), undefined, settled)[0]?.what).toBe(
      "network: not one this deployment settles on",
    );
  });

  it("reports a chain it could not read as unchecked, and a settling payment apart with where its money stands", () => {
    expect(recordFindings(record(), target, { state: "unread", why: "timeout" })).toEqual([
      expect.objectContaining({ kind: "unchecked", what: "the chain could not be read: timeout" }),
    ]);
    const settling = record({ status: "settling", transaction: null });
    expect(recordFindings(settling, target, settled)).toEqual([
      expect.objectContaining({ kind: "settling", what: `settling: on chain as ${TX}: recovery will confirm it` }),
    ]);
    expect(recordFindings(settling, target, { state: "unsettled", why: "expired" })[0]?.what).toBe(
      "settling: never moved and never can (expired): recovery will release it",
    );
  });

  it("holds a simulated settlement to the ledger's own transaction, and calls it a disagreement where a chain settles", () => {
    const simulated = record({ simulated: true, transaction: "ledger:base-sepolia:payer:nonce" });
    expect(recordFindings(simulated, target, { state: "no chain" })).toEqual([]);
    expect(recordFindings({ ...simulated, transaction: "ledger:other" }, target, { state: "no chain" })[0]?.kind).toBe(
      "disagreement",
    );
    expect(recordFindings(record(), target, { state: "no chain" })[0]?.kind).toBe("unchecked");
    expect(recordFindings(simulated, target, settled)[0]?.what).toBe(
      "simulated: the ledger counts it paid, no chain holds it",
    );
  });

  it("names transfers the ledger does not account for, and says it all in one line each and a summary", () => {
    const transfers = [
      { network: "base-sepolia", transaction: TX, payer: PAYER, amount: 1000n },
      { network: "base-sepolia", transaction: `0x${"33".repeat(32)}`, payer: PAYER, amount: 5n },
    ];
    const findings = unrecordedTransfers(transfers, new Set([TX]));
    expect(findings.map(findingLine)).toEqual([
      `disagreement payment - base-sepolia tx 0x${"33".repeat(32)}: on chain, not in the ledger: ${PAYER} paid 5`,
    ]);
    expect(summaryLine(findings, { settled: 1, settling: 0, listed: 2 }, "the chains")).toBe(
      "reconcile: 1 settled and 0 settling payments compared with the chains, 2 transfers listed on chain: " +
        "1 disagreements, 0 settling, 0 unchecked",
    );
  });
});
