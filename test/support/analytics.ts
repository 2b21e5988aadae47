/**
 * Test doubles for the analytics app's seams: a verifier that accepts test payments (so that
 * plumbing tests need no signatures; the real gate and an in-memory ledger still decide), insight
 * writers that fail, and handlers that answer the contract's own examples.
 */
import { randomUUID } from "node:crypto";
import { familyOf, findNetwork } from "../../lib/networks.js";
import type { Clock } from "../../server/analytics/clock.js";
import type { AnalyticsContract } from "../../server/analytics/contract/analytics-contract.js";
import type { InsightWriter } from "../../server/analytics/insight/types.js";
import { createPaymentGate, type GateOptions, type PaymentGate } from "../../server/analytics/payments/gate/gate.js";
import { splitPayment } from "../../server/analytics/payments/ledger/split.js";
import { openSqliteLedger } from "../../server/analytics/payments/ledger/sqlite-ledger.js";
import type { LedgerStore } from "../../server/analytics/payments/ledger/store.js";
import { ledgerBackend, type SettlementBackend } from "../../server/analytics/payments/settlement/settlement.js";
import {
  encodeHeader,
  type Offer,
  openSubmission,
  v2Requirement,
} from "../../server/analytics/payments/x402/protocols.js";
import type { PaymentRequirements, PaymentVerifier, Verification } from "../../server/analytics/payments/x402/types.js";
import type { HandlerMap, OperationHandler } from "../../server/analytics/segments/types.js";
import type { TaskStore } from "../../server/analytics/tasks/task-store.js";

/** The scheme payload of a test payment: what the accepting verifier takes in place of a signature. */
const testPayload = (payer: string, nonce: string) => ({ test: true, payer, nonce });

/** An `X-PAYMENT` value (x402 v1) the accepting verifier takes. */
export function testPayment(
  payer = "TestPayer1111111111111111111111111111111111",
  nonce: string = randomUUID(),
): string {
  return encodeHeader({ x402Version: 1, scheme: "exact", payload: testPayload(payer, nonce) });
}

/** A `PAYMENT-SIGNATURE` value (x402 v2) the accepting verifier takes, `accepted` being the challenge's requirement. */
export function testPaymentV2(
  accepted: unknown,
  payer = "TestPayer1111111111111111111111111111111111",
  nonce: string = randomUUID(),
  extensions?: Record<string, unknown>,
): string {
  return encodeHeader({
    x402Version: 2,
    accepted,
    payload: testPayload(payer, nonce),
    ...(extensions && { extensions }),
  });
}

/** The offer of both versions around a v1 requirement, as a route makes it. */
export function offerFor(requirement: PaymentRequirements): Offer {
  const caip2 = findNetwork(requirement.network)?.details.caip2 ?? "eip155:0";
  return { v1: requirement, v2: v2Requirement(requirement, caip2) };
}

/**
 * Opens a header as the gate does (`version` names the header it came in), then runs `verifier` on the payment; a
 * header that is not a payment at all is refused as `invalid_payload`.
 */
export async function openAndVerify(
  verifier: PaymentVerifier,
  header: string,
  requirement: PaymentRequirements,
  version: 1 | 2 = 1,
): Promise<Verification> {
  const opened = openSubmission({ version, header }, offerFor(requirement));
  if (opened.ok) return verifier.verify(opened.payment, requirement);
  return { ok: false, reason: opened.malformed ? "invalid_payload" : opened.reason, message: opened.message };
}

/** The v2 requirement a 402 offers: the first entry of its decoded `PAYMENT-REQUIRED` header. */
export function offeredV2(challenge: string | undefined): Record<string, unknown> {
  return JSON.parse(Buffer.from(challenge ?? "", "base64").toString("utf8")).accepts[0];
}

/** Accepts test payments (valid for a minute), whichever header brought them; the gate opens the header first. */
export function acceptingVerifier(clock: Clock): PaymentVerifier {
  return {
    async verify(payment, requirement) {
      const test = payment.payload as { test?: boolean; payer?: string; nonce?: string } | undefined;
      if (!test?.test || !test.payer || !test.nonce)
        return { ok: false, reason: "invalid_payload", message: "not a test payment" };
      return {
        ok: true,
        payment: {
          key: `${requirement.network}:${test.payer}:${test.nonce}`,
          family: familyOf(requirement.network),
          network: requirement.network,
          payer: test.payer,
          amount: requirement.maxAmountRequired,
          requirement,
          payload: test,
          expiresAt: clock.now() + 60_000,
        },
      };
    },
  };
}

/** The real gate over an in-memory ledger, accepting test payments. */
export function testGate(
  clock: Clock,
  {
    backend = ledgerBackend,
    answerTimeoutMs = 30_000,
    paymentIdentifier,
  }: {
    backend?: SettlementBackend;
    answerTimeoutMs?: number;
    paymentIdentifier?: GateOptions["paymentIdentifier"];
  } = {},
): { gate: PaymentGate; ledger: LedgerStore; tasks: TaskStore } {
  const ledger = openSqliteLedger(":memory:", { now: () => clock.now() });
  const split = (_network: string, amount: bigint) => {
    const parts = splitPayment(amount, 1000);
    return {
      service: { address: "service", amount: parts.service },
      treasury: { address: "treasury", amount: parts.treasury },
    };
  };
  const gate = createPaymentGate({
    verifier: acceptingVerifier(clock),
    ledger,
    backend,
    clock,
    split,
    answerTimeoutMs,
    paymentIdentifier,
  });
  return { gate, ledger, tasks: ledger.tasks };
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
    const content = contract.document.paths[route.path]?.[route.method]?.responses["200"]?.content?.[
      "application/json"
    ] as unknown as {
      example: { data: unknown; sources: string[]; signal: string; confidence: number; insight: string };
    };
    const { data, sources, signal, confidence, insight } = content.example;
    handlers[route.name] = async () =>
      ({ data, sources, baseline: { signal, confidence } as never, brief: insight }) as never;
  }
  // the contract lists every operation, so the map is complete (checked by the app's binding tests)
  return handlers as HandlerMap;
}
