/**
 * Settlement over a backend, with the ledger's bookkeeping: a settled payment gets its
 * transaction and its 90/10 split; a refused one is recorded as failed; a released one (its answer
 * failed) as not charged. Backends only move money: `ledger` (embedded default, simulated),
 * `facilitator` (remote x402 facilitator), `local-chain` (in-process chains for tests and demos).
 */
import type { AnalyticsConfig } from "../config.js";
import { splitPayment } from "./ledger/split.js";
import type { LedgerStore } from "./ledger/store.js";
import type { PaymentErrorReason, PaymentSettler, VerifiedPayment } from "./types.js";

export type SettlementMode = "ledger" | "facilitator" | "local-chain";

export type BackendResult =
  | { ok: true; transaction: string; simulated: boolean }
  | { ok: false; reason: PaymentErrorReason; message: string };

export interface SettlementBackend {
  readonly mode: SettlementMode;
  /** Moves the money; throws only when the outcome is unknown (then the payment stays reserved). */
  settle(payment: VerifiedPayment): Promise<BackendResult>;
}

/** The embedded default: records the verified payment as settled without broadcasting it. */
export const ledgerBackend: SettlementBackend = {
  mode: "ledger",
  async settle(payment) {
    return { ok: true, transaction: `ledger:${payment.key}`, simulated: true };
  },
};

export function createSettler({
  backend,
  ledger,
  config,
  treasuryBps,
}: {
  backend: SettlementBackend;
  ledger: LedgerStore;
  config: AnalyticsConfig;
  treasuryBps: number;
}): PaymentSettler {
  return {
    async settle(payment) {
      const result = await backend.settle(payment);
      if (!result.ok) {
        await ledger.failed(payment.key, `${result.reason}: ${result.message}`);
        return result;
      }
      const family = payment.network.startsWith("solana") ? "svm" : "evm";
      const { service, treasury } = splitPayment(BigInt(payment.amount), treasuryBps);
      await ledger.settled(payment.key, {
        transaction: result.transaction,
        simulated: result.simulated,
        split: {
          service: { address: config.payTo[family], amount: service },
          treasury: { address: config.treasury[family], amount: treasury },
        },
      });
      return {
        ok: true,
        receipt: {
          success: true,
          transaction: result.transaction,
          network: payment.network,
          payer: payment.payer,
          ...(result.simulated ? { simulated: true } : {}),
        },
      };
    },
    async release(payment, why) {
      await ledger.notCharged(payment.key, why);
    },
  };
}
