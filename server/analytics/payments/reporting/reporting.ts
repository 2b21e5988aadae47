/**
 * The gate and the settlement backend as they were, reporting to a `PaymentObserver`: decorators,
 * so the payment core itself stays free of reporting and its tests unchanged.
 */
import type { AdmittedPayment, PaymentGate } from "../gate/gate.js";
import type { SettlementBackend } from "../settlement/settlement.js";
import type { PaymentEvent, PaymentObserver } from "./payment-events.js";

/**
 * Reports every payment's outcome. A delivery that came after its payment's deadline reports
 * nothing here: the payment is still open, and recovery releases it (reported as `recovered`).
 */
export function observedGate(gate: PaymentGate, observer: PaymentObserver): PaymentGate {
  const report = (payment: AdmittedPayment, outcome: "served" | "refused" | "released", reason = "") =>
    observer.payment({
      network: payment.network,
      version: String(payment.version),
      outcome,
      reason,
      ...(outcome === "served" && { amount: BigInt(payment.amount) }),
    });
  return {
    async admit(submission, offer, request) {
      const admission = await gate.admit(submission, offer, request);
      // The version of the header it came in: a v1 header claiming another version is refused as a v1 payment.
      const version = String(submission.version);
      const { network } = offer.v1;
      const event = (outcome: PaymentEvent["outcome"], reason = "") =>
        observer.payment({ network, version, outcome, reason });
      if (admission.kind === "stored") event("replayed");
      else if (admission.kind === "held") event("held");
      else if (admission.kind === "malformed") event("refused", "invalid_payload");
      else if (admission.kind === "refused" || admission.kind === "used") event("refused", admission.reason);
      return admission;
    },
    async settle(payment, answer) {
      const delivery = await gate.settle(payment, answer);
      if (delivery.kind === "settled") report(payment, "served");
      else if (delivery.kind === "refused") report(payment, "refused", delivery.reason);
      return delivery;
    },
    async release(payment, why) {
      const released = await gate.release(payment, why);
      // not when it had moved on: a settlement whose reply was lost landed, and the payment is charged
      if (released.moved) report(payment, "released");
      return released;
    },
  };
}

/** Times every settlement call of `backend` and reports how it ended. */
export function observedBackend(backend: SettlementBackend, observer: PaymentObserver): SettlementBackend {
  const report = (outcome: "settled" | "refused" | "error", started: number) =>
    observer.settlement({ backend: backend.mode, outcome, seconds: (performance.now() - started) / 1000 });
  return {
    ...backend,
    async settle(payment) {
      const started = performance.now();
      try {
        const result = await backend.settle(payment);
        report(result.ok ? "settled" : "refused", started);
        return result;
      } catch (error) {
        report("error", started);
        throw error;
      }
    },
  };
}
