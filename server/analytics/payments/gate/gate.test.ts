// The payment gate over a real ledger (SQLite, in memory) and a settlement backend with an outside effect whose calls
// are counted: a payment reserved and settled once, a replay held, and each ledger refusal read for what it is — the
// deadline (or recovery's release) as late, another attempt's entry or no entry at all as a lost reservation.
import { describe, expect, it } from "vitest";
import { split as splitOf } from "../../../../test/contracts/ledger.js";
import { acceptingVerifier, offerFor, testPayment } from "../../../../test/support/analytics.js";
import { TEST_NOW } from "../../../../test/support/segments.js";
import { createLogger } from "../../../http/logger.js";
import { manualClock } from "../../clock.js";
import { openSqliteLedger } from "../ledger/sqlite-ledger.js";
import { createRecovery } from "../settlement/recovery.js";
import type { SettlementBackend, SettlementState } from "../settlement/settlement.js";
import type { PaymentRequirements } from "../x402/types.js";
import { type AdmittedPayment, createPaymentGate } from "./gate.js";

const offer = offerFor({ network: "base-sepolia", maxAmountRequired: "1000", scheme: "exact" } as PaymentRequirements);
const answer = { status: 200, body: '{"data":{}}' };
const request = (fingerprint = "f") => ({ operation: "defiTvl", requestId: "r", fingerprint });
/** A test payment (the accepting verifier's) in `X-PAYMENT`. */
const payment = (nonce: string) => ({ version: 1 as const, header: testPayment("0xpayer", nonce) });

/** The gate over an in-memory ledger and a chain backend, with recovery on the same ledger and what the gate warned. */
function setup({ answerTimeoutMs = 30_000, state = (): SettlementState => ({ state: "open", why: "" }) } = {}) {
  const clock = manualClock(TEST_NOW);
  const ledger = openSqliteLedger(":memory:", { now: () => clock.now() });
  const settled: string[] = [];
  const backend: SettlementBackend = {
    mode: "local-chain",
    timeoutMs: 1_000,
    async settle(p) {
      settled.push(p.key);
      return { ok: true, transaction: `0xtx-${settled.length}`, simulated: false };
    },
    status: async () => state(),
  };
  const warned: { fields: Record<string, unknown>; message: string }[] = [];
  const split = (_network: string, amount: bigint) => splitOf(amount);
  const options = { verifier: acceptingVerifier(clock), ledger, backend, clock, split, answerTimeoutMs };
  const gate = createPaymentGate({ ...options, warn: (fields, message) => warned.push({ fields, message }) });
  const recovery = createRecovery({ ledger, backend, clock, split, logger: createLogger("silent") });
  const admitted = async (nonce: string): Promise<AdmittedPayment> => {
    const admission = await gate.admit(payment(nonce), offer, request());
    if (admission.kind !== "admitted") throw new Error(`${nonce}: ${admission.kind}`);
    return admission.payment;
  };
  const statuses = async () => (await ledger.rows()).map((row) => row.status);
  return { clock, ledger, gate, recovery, backend, settled, warned, admitted, statuses };
}

describe("the payment gate", () => {
  it("settles a reserved payment once, and gives its retry the stored answer with the same receipt", async () => {
    const { gate, settled, admitted, statuses } = setup();
    const first = await admitted("n1");
    const delivery = await gate.settle(first, answer);
    expect(delivery).toMatchObject({ kind: "settled", receipt: { transaction: "0xtx-1", payer: "0xpayer" } });
    expect(settled).toHaveLength(1);
    const retry = await gate.admit(payment("n1"), offer, request());
    expect(retry).toEqual({
      kind: "stored",
      answer,
      receipt: delivery.kind === "settled" ? delivery.receipt : undefined,
    });
    expect(settled).toHaveLength(1);
    expect(await statuses()).toEqual(["settled"]);
  });

  it("holds a replay of a payment in progress until recovery resolves it, and refuses it for another request", async () => {
    const { gate, admitted } = setup();
    const first = await admitted("n1");
    expect(await gate.admit(payment("n1"), offer, request())).toEqual({
      kind: "held",
      stage: "verified",
      until: first.deadlineAt + 5_000,
    });
    expect(await gate.admit(payment("n1"), offer, request("another"))).toMatchObject({
      kind: "used",
      why: "another request",
    });
  });

  it("reads an answer after its deadline as late, before recovery released the payment and after, never settling it", async () => {
    const { clock, gate, recovery, settled, admitted, statuses } = setup();
    const unreleased = await admitted("n1");
    const released = await admitted("n2");
    clock.advance(30_000);
    // refused by the deadline itself
    expect(await gate.settle(unreleased, answer)).toEqual({ kind: "late" });
    // refused by the stage recovery left it in
    expect(await recovery.run()).toMatchObject({ released: 2 });
    expect(await gate.settle(released, answer)).toEqual({ kind: "late" });
    expect(settled).toEqual([]);
    expect(await statuses()).toEqual(["not_charged", "not_charged"]);
  });

  it("does not mistake another attempt's entry for late: the reservation is lost, nothing moves, the other payment stays its own", async () => {
    const { gate, settled, admitted, statuses, warned } = setup();
    const mine = await admitted("n1");
    const other = await admitted("n2");
    // As after a database crash that lost this attempt's reservation and gave its entry number to the next payment.
    const stale = { ...mine, entry: other.entry };
    expect(await gate.settle(stale, answer)).toEqual({ kind: "lost", refusedBy: "attempt" });
    expect(await gate.settle({ ...mine, entry: other.entry + 100 }, answer)).toEqual({
      kind: "lost",
      refusedBy: "no such payment",
    });
    expect(settled).toEqual([]);
    expect(await gate.release(stale, "the answer failed")).toEqual({
      moved: false,
      refusedBy: "attempt",
      stage: "verified",
    });
    expect(await statuses()).toEqual(["verified", "verified"]);
    expect((await gate.settle(other, answer)).kind).toBe("settled");
    expect(warned).toEqual([]);
  });

  it("releases a payment whose answer failed once, and says why a second release moved nothing", async () => {
    const { gate, admitted } = setup();
    const first = await admitted("n1");
    expect(await gate.release(first, "the handler failed")).toEqual({ moved: true });
    expect(await gate.release(first, "again")).toEqual({ moved: false, refusedBy: "stage", stage: "not_charged" });
    expect((await gate.admit(payment("n1"), offer, request())).kind).toBe("admitted");
  });

  it("says nothing when recovery confirmed the settlement from the chain first, and warns when the ledger refuses money that moved", async () => {
    let state: SettlementState = { state: "settled", transaction: "0xonchain" };
    const { clock, gate, recovery, backend, admitted, warned, statuses } = setup({ state: () => state });
    // the backend answers only after its time, once recovery has looked at the chain
    const settle = backend.settle.bind(backend);
    backend.settle = async (p) => {
      clock.advance(10_000);
      await recovery.run();
      return settle(p);
    };
    expect((await gate.settle(await admitted("n1"), answer)).kind).toBe("settled");
    expect(warned).toEqual([]);
    state = { state: "unsettled", why: "the chain says it never moved" };
    expect((await gate.settle(await admitted("n2"), answer)).kind).toBe("settled");
    expect(warned).toEqual([
      {
        fields: expect.objectContaining({ moved: false, refusedBy: "stage", stage: "not_charged" }),
        message: "the settlement moved the money but the ledger refused to record it",
      },
    ]);
    expect(await statuses()).toEqual(["settled", "not_charged"]);
  });
});
