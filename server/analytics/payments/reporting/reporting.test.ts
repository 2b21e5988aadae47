// The observed gate and backend: every payment's outcome and every settlement call reported to the
// observer, over the real gate and an in-memory ledger; the answers themselves unchanged.
import { describe, expect, it } from "vitest";
import { offerFor, testGate, testPayment } from "../../../../test/support/analytics.js";
import { TEST_NOW } from "../../../../test/support/segments.js";
import { manualClock } from "../../clock.js";
import { ledgerBackend, type SettlementBackend } from "../settlement/settlement.js";
import type { PaymentRequirements } from "../x402/types.js";
import type { PaymentEvent, PaymentObserver, SettlementEvent } from "./payment-events.js";
import { observedBackend, observedGate } from "./reporting.js";

const offer = offerFor({ network: "base-sepolia", maxAmountRequired: "1000", scheme: "exact" } as PaymentRequirements);
const answer = { status: 200, body: "{}" };
/** A test payment (the accepting verifier's) in `X-PAYMENT`. */
const payment = (nonce: string) => ({ version: 1 as const, header: testPayment("0xpayer", nonce) });
const notPaying = {
  version: 1 as const,
  header: Buffer.from(JSON.stringify({ x402Version: 1, test: false })).toString("base64"),
};
const request = (fingerprint = "f") => ({ operation: "defiTvl", requestId: "r", fingerprint });

function recording(): PaymentObserver & { payments: PaymentEvent[]; settlements: SettlementEvent[] } {
  const payments: PaymentEvent[] = [];
  const settlements: SettlementEvent[] = [];
  return { payments, settlements, payment: (e) => payments.push(e), settlement: (e) => settlements.push(e) };
}

function setup(backend: SettlementBackend = ledgerBackend, answerTimeoutMs?: number) {
  const observer = recording();
  const clock = manualClock(TEST_NOW);
  const { gate } = testGate(clock, { backend: observedBackend(backend, observer), answerTimeoutMs });
  return { observer, clock, gate: observedGate(gate, observer) };
}

describe("observedGate", () => {
  it("reports a served payment with its network and version, then its retry as replayed", async () => {
    const { observer, gate } = setup();
    const admission = await gate.admit(payment("n1"), offer, request());
    if (admission.kind !== "admitted") throw new Error(admission.kind);
    expect((await gate.settle(admission.payment, answer)).kind).toBe("settled");
    expect((await gate.admit(payment("n1"), offer, request())).kind).toBe("stored");
    expect(observer.payments).toEqual([
      { network: "base-sepolia", version: "1", outcome: "served", reason: "", amount: 1000n },
      { network: "base-sepolia", version: "1", outcome: "replayed", reason: "" },
    ]);
    expect(observer.settlements).toEqual([{ backend: "ledger", outcome: "settled", seconds: expect.any(Number) }]);
  });

  it("reports a refusal with its reason, at admission and by the settlement", async () => {
    const refusing: SettlementBackend = {
      ...ledgerBackend,
      settle: async () => ({ ok: false, reason: "insufficient_funds", message: "no funds" }),
    };
    const { observer, gate } = setup(refusing);
    expect((await gate.admit(notPaying, offer, request())).kind).toBe("refused");
    const admission = await gate.admit(payment("n2"), offer, request());
    if (admission.kind !== "admitted") throw new Error(admission.kind);
    expect(await gate.settle(admission.payment, answer)).toMatchObject({
      kind: "refused",
      reason: "insufficient_funds",
    });
    expect(observer.payments).toEqual([
      { network: "base-sepolia", version: "1", outcome: "refused", reason: "invalid_payload" },
      { network: "base-sepolia", version: "1", outcome: "refused", reason: "insufficient_funds" },
    ]);
    expect(observer.settlements).toEqual([{ backend: "ledger", outcome: "refused", seconds: expect.any(Number) }]);
  });

  it("reports a released payment, and nothing for an answer after the deadline (recovery reports that one)", async () => {
    const { observer, gate, clock } = setup(ledgerBackend, 1000);
    const released = await gate.admit(payment("n3"), offer, request());
    if (released.kind !== "admitted") throw new Error(released.kind);
    await gate.release(released.payment, "the handler failed");
    const late = await gate.admit(payment("n4"), offer, request());
    if (late.kind !== "admitted") throw new Error(late.kind);
    clock.advance(2000);
    expect(await gate.settle(late.payment, answer)).toEqual({ kind: "late" });
    expect(observer.payments).toEqual([{ network: "base-sepolia", version: "1", outcome: "released", reason: "" }]);
  });
});

describe("observedBackend", () => {
  it("reports a settlement whose outcome is unknown as an error, and still throws", async () => {
    const observer = recording();
    const backend = observedBackend({ ...ledgerBackend, settle: () => Promise.reject(new Error("timeout")) }, observer);
    await expect(backend.settle({} as never)).rejects.toThrow("timeout");
    expect(observer.settlements).toEqual([{ backend: "ledger", outcome: "error", seconds: expect.any(Number) }]);
  });

  it("keeps what the backend can do beside settling", () => {
    const status = async () => ({ state: "open" as const, why: "" });
    const ping = async () => {};
    const backend = observedBackend({ ...ledgerBackend, mode: "facilitator", status, ping }, recording());
    expect(backend).toMatchObject({ mode: "facilitator", timeoutMs: 0, status, ping });
  });
});
