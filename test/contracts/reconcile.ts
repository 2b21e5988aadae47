/**
 * Reconciliation over a real ledger store and real chains: payments settled on the in-process chains
 * (read over their JSON-RPC, as `SETTLEMENT=facilitator` reads a deployment's) and recorded in the
 * ledger as the gate records them. A ledger that agrees with the chain gives no disagreement; each
 * disagreement injected (a settled row whose transaction the chain lacks, an amount the payer never
 * signed, a transfer the ledger lacks) is named with its payment and what disagrees, on every store.
 */
import { generateKeyPairSigner, type KeyPairSigner } from "@solana/kit";
import type { LocalAccount } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signEvmPayment } from "../../client/x402/evm.js";
import { signSvmPayment } from "../../client/x402/svm.js";
import { systemClock } from "../../server/analytics/clock.js";
import { loadAnalyticsContract } from "../../server/analytics/contract/analytics-contract.js";
import { createExactVerifier } from "../../server/analytics/payments/exact/verifier.js";
import type { LedgerStore } from "../../server/analytics/payments/ledger/store.js";
import type { ReconcileTarget } from "../../server/analytics/payments/reporting/reconcile.js";
import {
  type ChainSource,
  configuredChainSource,
  reconcileLedger,
  reconcileTargets,
} from "../../server/analytics/payments/reporting/reconcile-ledger.js";
import {
  type LocalChains,
  startLocalChains,
} from "../../server/analytics/payments/settlement/backends/local-chain/index.js";
import { requirementTemplate } from "../../server/analytics/payments/x402/requirements.js";
import type { PaymentRequirements, VerifiedPayment } from "../../server/analytics/payments/x402/types.js";
import { loadAnalyticsConfig } from "../../server/config/analytics.js";
import { openAndVerify } from "../support/analytics.js";
import { facilitatorSettlement } from "../support/standin-facilitator.js";
import { reservation, split } from "./ledger.js";

const contract = loadAnalyticsContract();

/** Reconciles `ledger` with the chains as a deployment with `env` would; the findings and the summary. */
export async function reconcileWith(ledger: LedgerStore, env: Record<string, string>) {
  const config = loadAnalyticsConfig(env, contract.developmentDefaults);
  return reconcileLedger({
    ledger,
    source: await configuredChainSource(config),
    targets: await reconcileTargets(config),
  });
}

export function describeReconcile(name: string, open: () => Promise<LedgerStore>): void {
  describe(`reconcile on the ${name} ledger and the local chains`, () => {
    let chains: LocalChains;
    let ledger: LedgerStore;
    let config: ReturnType<typeof loadAnalyticsConfig>;
    let source: ChainSource;
    let targets: ReconcileTarget[];
    let evmPayer: LocalAccount;
    let svmPayer: KeyPairSigner;
    let n = 0;

    beforeAll(async () => {
      chains = await startLocalChains({ config: loadAnalyticsConfig({}, contract.developmentDefaults), rpc: true });
      const env = facilitatorSettlement(chains, "http://127.0.0.1:9");
      config = { ...loadAnalyticsConfig(env, contract.developmentDefaults), feePayer: chains.feePayer };
      source = await configuredChainSource(config);
      targets = await reconcileTargets(config);
      ledger = await open();
      evmPayer = privateKeyToAccount(generatePrivateKey());
      svmPayer = await generateKeyPairSigner();
      await chains.fund("base-sepolia", evmPayer.address, 10n ** 6n);
      await chains.fund("solana-devnet", svmPayer.address, 10n ** 6n);
    }, 60_000);
    afterAll(async () => {
      await ledger?.close();
      await chains?.close();
    });

    const reconcile = () => reconcileLedger({ ledger, source, targets });

    /** A payment signed and verified for the `prefix` route's defiTvl. */
    async function payment(prefix: "" | "/base"): Promise<VerifiedPayment> {
      const route = contract.paid.find((r) => r.payment.network.prefix === prefix && r.name === "defiTvl" && !r.legacy);
      if (!route) throw new Error(`no defiTvl on "${prefix}"`);
      const requirement: PaymentRequirements = { ...requirementTemplate(route, config), resource: "http://x/defi/tvl" };
      const header =
        prefix === ""
          ? await signSvmPayment(svmPayer, requirement, { blockhash: chains.latestBlockhash(), memo: `r${++n}` })
          : await signEvmPayment(evmPayer, requirement);
      const result = await openAndVerify(createExactVerifier({ config, clock: systemClock }), header, requirement);
      if (!result.ok) throw new Error(`verification failed: ${result.reason}`);
      return result.payment;
    }

    /** Records `paid` as the gate does with an outside settlement: reserved, settling, then settled as `transaction`. */
    async function record(paid: VerifiedPayment, transaction?: string, amount = BigInt(paid.amount)) {
      const key = `rec-${++n}`;
      const reserved = await ledger.reserve(
        reservation(key, {
          network: paid.network,
          payer: paid.payer,
          amount,
          payload: JSON.stringify(paid.payload),
          expiresAt: Date.now() + 60_000,
          deadlineAt: Date.now() + 60_000,
        }),
      );
      if (!reserved.reserved) throw new Error("not reserved");
      const attempt = { entry: reserved.entry, holder: `holder-${key}` };
      await ledger.beginSettling(attempt, { status: 200, body: "{}" }, Date.now() + 60_000);
      if (transaction) await ledger.confirmSettlement(attempt, { transaction, simulated: false, split: split(amount) });
      return reserved.entry;
    }

    /** Settles `paid` on its chain; its transaction. */
    async function settle(paid: VerifiedPayment): Promise<string> {
      const settled = await chains.backend.settle(paid);
      if (!settled.ok) throw new Error(`not settled: ${settled.message}`);
      return settled.transaction;
    }

    it("finds no disagreement when every settled payment is on chain as the ledger says", async () => {
      for (const prefix of ["/base", ""] as const) {
        const paid = await payment(prefix);
        await record(paid, await settle(paid));
      }
      const report = await reconcile();
      expect(report.findings).toEqual([]);
      expect(report.counts).toEqual({ settled: 2, settling: 0, listed: 2 });
      expect(report.summary).toContain("0 disagreements");
    });

    it("names a settled row whose transaction the chain lacks, and one whose amount the payer never signed", async () => {
      const unsent = await payment("/base");
      const fake = `0x${"ab".repeat(32)}`;
      const missing = await record(unsent, fake);
      const overcounted = await payment("");
      const entry = await record(overcounted, await settle(overcounted), 2_000n);
      const report = await reconcile();
      expect(report.findings).toEqual([
        expect.objectContaining({ kind: "disagreement", entry: missing, network: "base-sepolia", transaction: fake }),
        expect.objectContaining({
          kind: "disagreement",
          entry,
          network: "solana-devnet",
          what: "amount: ledger 2000, signed 1000",
        }),
      ]);
      expect(report.findings[0]?.what).toMatch(/^not on chain: /);
      expect(report.summary).toContain("2 disagreements");
    });

    it("names a transfer on chain that the ledger lacks, and reports a settling payment apart", async () => {
      const unrecorded = await payment("/base");
      const transaction = await settle(unrecorded);
      const moving = await payment("");
      const settling = await record(moving);
      await settle(moving);
      const report = await reconcile();
      expect(report.findings).toContainEqual({
        kind: "disagreement",
        network: "base-sepolia",
        transaction,
        what: `on chain, not in the ledger: ${evmPayer.address} paid 1000`,
      });
      expect(report.findings).toContainEqual(
        expect.objectContaining({
          kind: "settling",
          entry: settling,
          what: expect.stringMatching(/recovery will confirm it$/),
        }),
      );
      expect(report.counts.settling).toBe(1);
    });
  });
}
