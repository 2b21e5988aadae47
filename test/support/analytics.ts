/**
 * Test doubles for the analytics app's seams: a verifier that accepts test payments (so that
 * plumbing tests need no signatures; the real gate and an in-memory ledger still decide), insight
 * writers that fail, and handlers that answer the contract's own examples.
 */
import { randomUUID } from "node:crypto";
import { familyOf } from "../../lib/networks.js";
import type { Clock } from "../../server/analytics/clock.js";
import type { AnalyticsContract } from "../../server/analytics/contract.js";
import type { InsightWriter } from "../../server/analytics/insight/types.js";
import { createPaymentGate, type PaymentGate } from "../../server/analytics/payments/gate.js";
import { splitPayment } from "../../server/analytics/payments/ledger/split.js";
import { openSqliteLedger } from "../../server/analytics/payments/ledger/sqlite-ledger.js";
import type { LedgerStore } from "../../server/analytics/payments/ledger/store.js";
import { ledgerBackend, type SettlementBackend } from "../../server/analytics/payments/settlement.js";
import type { PaymentVerifier } from "../../server/analytics/payments/types.js";
import type { HandlerMap, OperationHandler } from "../../server/analytics/segments/types.js";

/** An `X-PAYMENT` value the accepting verifier takes: base64 JSON `{test: true, payer, nonce}`. */
export function testPayment(payer = "TestPayer1111111111111111111111111111111111", nonce = randomUUID()): string {
  return Buffer.from(JSON.stringify({ test: true, payer, nonce })).toString("base64");
}

/** Accepts test payments (valid for a minute); a header that is not base64 JSON is malformed (400). */
export function acceptingVerifier(clock: Clock): PaymentVerifier {
  return {
    async verify(header, requirement) {
      let decoded: { test?: boolean; payer?: string; nonce?: string };
      try {
        decoded = JSON.parse(Buffer.from(header, "base64").toString("utf8"));
      } catch {
        return { ok: false, status: 400, reason: "invalid_payload", message: "is not base64-encoded JSON" };
      }
      if (!decoded?.test || !decoded.payer || !decoded.nonce)
        return { ok: false, status: 402, reason: "invalid_payload", message: "not a test payment" };
      return {
        ok: true,
        payment: {
          key: `${requirement.network}:${decoded.payer}:${decoded.nonce}`,
          family: familyOf(requirement.network),
          network: requirement.network,
          payer: decoded.payer,
          amount: requirement.maxAmountRequired,
          requirement,
          payload: decoded,
          expiresAt: clock.now() + 60_000,
        },
      };
    },
  };
}

/** The real gate over an in-memory ledger, accepting test payments. */
export function testGate(
  clock: Clock,
  { backend = ledgerBackend, answerTimeoutMs = 30_000 }: { backend?: SettlementBackend; answerTimeoutMs?: number } = {},
): { gate: PaymentGate; ledger: LedgerStore } {
  const ledger = openSqliteLedger(":memory:", { now: () => clock.now() });
  const split = (_network: string, amount: bigint) => {
    const parts = splitPayment(amount, 1000);
    return { service: { address: "service", amount: parts.service }, treasury: { address: "treasury", amount: parts.treasury } };
  };
  const gate = createPaymentGate({ verifier: acceptingVerifier(clock), ledger, backend, clock, split, answerTimeoutMs });
  return { gate, ledger };
}

export const failingInsightWriter: InsightWriter = {
  model: "failing-model",
  async write() {
    throw new Error("model unavailable");
  },
};

/** Handlers that answer each operation's 200 example from the contract: plumbing tests need no market. */
export function exampleHandlers(contract: AnalyticsContract): HandlerMap {
  const handlers: Record<string, OperationHandler> = {};
  for (const route of contract.paid.filter((r) => !r.legacy && r.payment.network.prefix === "")) {
    const content = contract.document.paths[route.path]?.[route.method]?.responses["200"]?.content?.["application/json"] as unknown as {
      example: { data: unknown; sources: string[]; signal: string; confidence: number; insight: string };
    };
    const { data, sources, signal, confidence, insight } = content.example;
    handlers[route.name] = async () => ({ data, sources, baseline: { signal, confidence } as never, brief: insight }) as never;
  }
  // the contract lists every operation, so the map is complete (checked by the app's binding tests)
  return handlers as HandlerMap;
}
