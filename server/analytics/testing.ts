/**
 * Test doubles for the app's seams (used by tests only): a verifier that accepts test payments,
 * a settler that records what it settled and released, insight writers that fail, and handlers
 * that answer the contract's own examples.
 */
import { randomUUID } from "node:crypto";
import type { AnalyticsContract } from "./contract.js";
import type { InsightWriter } from "./insight/types.js";
import type { PaymentSettler, PaymentVerifier, Settlement, VerifiedPayment } from "./payments/types.js";
import type { Handler, HandlerMap } from "./segments/types.js";

/** An `X-PAYMENT` value the accepting verifier takes: base64 JSON `{test: true, payer, nonce}`. */
export function testPayment(payer = "TestPayer1111111111111111111111111111111111", nonce = randomUUID()): string {
  return Buffer.from(JSON.stringify({ test: true, payer, nonce })).toString("base64");
}

/** Accepts test payments once per nonce; a header that is not base64 JSON is malformed (400). */
export function acceptingVerifier(): PaymentVerifier & { seen: Set<string> } {
  const seen = new Set<string>();
  return {
    seen,
    async verify(header, context) {
      let decoded: { test?: boolean; payer?: string; nonce?: string };
      try {
        decoded = JSON.parse(Buffer.from(header, "base64").toString("utf8"));
      } catch {
        return { ok: false, status: 400, reason: "invalid_payload", message: "is not base64-encoded JSON" };
      }
      if (!decoded?.test || !decoded.payer || !decoded.nonce)
        return { ok: false, status: 402, reason: "invalid_payload", message: "not a test payment" };
      const key = `${context.requirement.network}:${decoded.nonce}`;
      if (seen.has(key))
        return { ok: false, status: 402, reason: "duplicate_settlement", message: "payment already used", payer: decoded.payer };
      seen.add(key);
      const payment: VerifiedPayment = {
        key,
        network: context.requirement.network,
        payer: decoded.payer,
        amount: context.requirement.maxAmountRequired,
        context,
        payload: decoded,
      };
      return { ok: true, payment };
    },
  };
}

export function recordingSettler(
  outcome: (payment: VerifiedPayment) => Settlement | Promise<Settlement> = defaultReceipt,
): PaymentSettler & {
  settled: VerifiedPayment[];
  released: { payment: VerifiedPayment; why: string }[];
} {
  const settled: VerifiedPayment[] = [];
  const released: { payment: VerifiedPayment; why: string }[] = [];
  return {
    settled,
    released,
    async settle(payment) {
      const result = await outcome(payment);
      if (result.ok) settled.push(payment);
      return result;
    },
    async release(payment, why) {
      released.push({ payment, why });
    },
  };
}

function defaultReceipt(payment: VerifiedPayment): Settlement {
  return {
    ok: true,
    receipt: { success: true, transaction: `test-${payment.key}`, network: payment.network, payer: payment.payer, simulated: true },
  };
}

export const failingInsightWriter: InsightWriter = {
  model: "failing-model",
  async write() {
    throw new Error("model unavailable");
  },
};

/** Handlers that answer each operation's 200 example from the contract: plumbing tests need no market. */
export function exampleHandlers(contract: AnalyticsContract): HandlerMap {
  const handlers: Record<string, Handler<never>> = {};
  for (const route of contract.paid.filter((r) => !r.legacy && r.payment.network.prefix === "")) {
    const content = contract.document.paths[route.path]?.[route.method]?.responses["200"]?.content?.["application/json"] as unknown as {
      example: { data: unknown; sources: string[]; signal: string; confidence: number; insight: string };
    };
    const { data, sources, signal, confidence, insight } = content.example;
    handlers[route.name] = (async () => ({ data, sources, baseline: { signal, confidence }, brief: insight })) as unknown as Handler<never>;
  }
  return handlers;
}
