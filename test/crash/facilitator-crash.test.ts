// Crash test with SETTLEMENT=facilitator: the service is killed with SIGKILL while a slow stand-in
// facilitator is settling its payments on the local chains (the settlements it started go on and
// move the money). After the restart, recovery reads the chains over JSON-RPC (EIP-3009
// authorizationState; the payer's Solana transactions and blockhash validity): a payment whose money
// moved is settled and its stored answer served to the retry; one whose money never moved and never
// can is released, and its payer pays again. The ledger agrees with the chain's balances throughout.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateKeyPairSigner, type KeyPairSigner } from "@solana/kit";
import type { LocalAccount } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signEvmPayment } from "../../client/x402/evm.js";
import { signSvmPayment } from "../../client/x402/svm.js";
import type { PaymentRequirements } from "../../client/x402/types.js";
import { loadAnalyticsContract } from "../../server/analytics/contract/analytics-contract.js";
import { openSqliteLedger } from "../../server/analytics/payments/ledger/sqlite-ledger.js";
import {
  type LocalChains,
  startLocalChains,
} from "../../server/analytics/payments/settlement/backends/local-chain/index.js";
import { loadAnalyticsConfig } from "../../server/config/analytics.js";
import { reconcileWith } from "../contracts/reconcile.js";
import { type Answer, challenge, delivered, type PaidCall, send, sendAll } from "../support/paid-load.js";
import { type ServiceProcess, startService, until } from "../support/processes.js";
import {
  facilitatorSettlement,
  type StandinFacilitator,
  startStandinFacilitator,
} from "../support/standin-facilitator.js";

const CALLS = 36;
const KILL_AFTER_SETTLES = 8;
const PATHS = ["/base/defi/tvl", "/skale/defi/tvl", "/defi/tvl"];

const contract = loadAnalyticsContract();
const config = loadAnalyticsConfig({}, contract.developmentDefaults);
const dir = mkdtempSync(join(tmpdir(), "facilitator-crash-"));
let chains: LocalChains;
let facilitator: StandinFacilitator;
let service: ServiceProcess | undefined;
let env: Record<string, string>;
let evmPayer: LocalAccount;
let svmPayer: KeyPairSigner;

beforeAll(async () => {
  chains = await startLocalChains({ config, rpc: true });
  facilitator = await startStandinFacilitator(chains, { delayMs: 600 });
  evmPayer = privateKeyToAccount(generatePrivateKey());
  svmPayer = await generateKeyPairSigner();
  await chains.fund("base-sepolia", evmPayer.address, 1_000_000n);
  await chains.fund("skale-base-sepolia", evmPayer.address, 1_000_000n);
  await chains.fund("solana-devnet", svmPayer.address, 1_000_000n);
  env = {
    ...facilitatorSettlement(chains, facilitator.url),
    FACILITATOR_TIMEOUT_MS: "3000",
    // authorizations valid for 2 minutes, so that a slow machine still retries within the window; those the
    // facilitator never received are expired later by moving the chain's clock past them
    X402_MAX_TIMEOUT_SECONDS: "120",
    PAID_ANSWER_TIMEOUT_MS: "3000",
    RECOVERY_INTERVAL_MS: "250",
    LEDGER_DB: join(dir, "ledger.db"),
    REGISTRY_DB: join(dir, "registry.db"),
    LOG_LEVEL: "silent",
  };
});
afterAll(async () => {
  await service?.kill("SIGKILL");
  await facilitator?.close();
  await chains?.close();
});

let memo = 0;
const sign = (requirement: PaymentRequirements) =>
  requirement.network === chains.svm.network
    ? signSvmPayment(svmPayer, requirement, { blockhash: chains.latestBlockhash(), memo: `call ${++memo}` })
    : signEvmPayment(evmPayer, requirement);

/** What payTo received on each network, and what the payers hold. */
async function balances() {
  const payTo = Object.fromEntries(
    await Promise.all(
      ["base-sepolia", "skale-base-sepolia", "solana-devnet"].map(async (network) => {
        const address = network.startsWith("solana") ? config.payTo.svm : config.payTo.evm;
        return [network, await chains.balanceOf(network, address)] as const;
      }),
    ),
  );
  return payTo;
}

describe("SIGKILL while a slow facilitator settles (SETTLEMENT=facilitator)", () => {
  it("resolves every interrupted payment by what the chain shows: moved → settled and served to its retry, never moved → released", async () => {
    const start = await balances();
    service = await startService(env);
    const requirements = Object.fromEntries(
      await Promise.all(
        PATHS.map(async (path) => [path, await challenge(service?.url as string, "POST", path)] as const),
      ),
    );
    const calls: PaidCall[] = await Promise.all(
      Array.from({ length: CALLS }, async (_, i) => {
        const path = PATHS[i % PATHS.length] as string;
        const requirement = requirements[path] as PaymentRequirements;
        return {
          method: "POST" as const,
          path,
          body: { limit: 1 + (i % 20) },
          header: await sign(requirement),
          network: requirement.network,
          amount: 1000n,
        };
      }),
    );

    const running = service;
    const watcher = setInterval(() => {
      if (facilitator.received() >= KILL_AFTER_SETTLES) running.child.kill("SIGKILL");
    }, 5);
    const answers = await sendAll(running.url, calls, 12);
    clearInterval(watcher);
    expect((await running.exited).signal).toBe("SIGKILL");
    // the facilitator finishes what it started: the money of those payments moves, though the service is gone
    await facilitator.idle();
    // and a Solana payment the facilitator never received can no longer land once its blockhash expires
    chains.svm.litesvm.expireBlockhash();

    service = await startService(env);
    const ledger = openSqliteLedger(env.LEDGER_DB as string);
    const stuck = async () => (await ledger.rows()).filter((r) => r.status === "verified" || r.status === "settling");
    try {
      // first pass: recovery has looked at every interrupted payment; what stays `settling` is what could still move
      await until(
        async () => {
          const unseen = (await stuck()).filter((r) => r.status === "verified" || !r.recovery);
          if (unseen.length) throw new Error(`${unseen.length} payments not yet looked at by recovery`);
        },
        30_000,
        250,
      );
      const rows = await ledger.rows();
      const settledTx = new Set(rows.filter((r) => r.status === "settled").map((r) => r.transaction));
      const recoveredSettled = rows.filter((r) => r.recovery === "settled: confirmed on chain");
      // the kill caught settlements in flight, confirmed on chain by recovery (otherwise this proved nothing)
      expect(recoveredSettled.length).toBeGreaterThan(0);
      for (const row of recoveredSettled)
        expect(row.transaction).toMatch(/^(0x[0-9a-f]{64}|[1-9A-HJ-NP-Za-km-z]{64,88})$/);
      await expectLedgerMatchesChains(start);

      // every answer a client got carries a receipt with its settled row
      for (const answer of answers.filter((a): a is Answer => a !== undefined)) {
        expect(delivered(answer), answer.text).toBe(true);
        expect(settledTx.has(answer.receipt?.transaction ?? "")).toBe(true);
      }

      // every lost answer, asked again with the same payment while it is valid: the stored answer where the money
      // moved (same receipt as the chain's), a fresh answer where the payment had been released
      const lost = calls.filter((_, i) => !answers[i]);
      const retried = await sendAll(service.url, lost, 8, { retry: true });
      const storedServed = retried.filter((a) => delivered(a) && settledTx.has(a?.receipt?.transaction ?? "")).length;
      expect(storedServed).toBeGreaterThanOrEqual(recoveredSettled.length);
      const pending = lost.filter((_, i) => !delivered(retried[i]));
      for (const answer of retried) {
        if (delivered(answer)) continue;
        // still `settling` (an EVM authorization the facilitator never received can move until it expires): held, and
        // told when to come back; otherwise released or used, a 402
        if (answer?.status === 503) {
          expect(JSON.parse(answer.text).error, answer.text).toBe("payment_in_progress");
          expect(Number(answer.retryAfter)).toBeGreaterThan(0);
        } else expect(answer?.status, answer?.text).toBe(402);
      }

      // the rest (their authorization or blockhash expires unused, by the chain's clock) end released; their payers pay again
      const validBefore = (call: PaidCall) =>
        Number(JSON.parse(Buffer.from(call.header, "base64").toString()).payload.authorization?.validBefore ?? 0);
      // (when every lost answer was served from the ledger, or only Solana payments are pending, the clock need not move)
      const latest = Math.max(0, ...pending.map(validBefore));
      if (latest > 0) await chains.evm.provider.request({ method: "evm_mine", params: [latest + 1] });
      await until(
        async () => {
          const left = await stuck();
          if (left.length) throw new Error(`${left.length} payments still verified or settling`);
        },
        45_000,
        250,
      );
      for (const call of pending) {
        const again = await send(service.url, {
          ...call,
          header: await sign(await challenge(service.url, "POST", call.path)),
        });
        expect(delivered(again), again?.text).toBe(true);
      }
      await expectLedgerMatchesChains(start);
      expect(await stuck()).toEqual([]);
      // the operator's reconciliation, configured as the service is, finds the ledger and the chains in agreement
      const reconciled = await reconcileWith(ledger, env);
      expect(reconciled.findings.map((f) => `${f.kind} ${f.entry} ${f.what}`)).toEqual([]);
      expect(reconciled.counts.settled).toBe(CALLS);
      expect(reconciled.counts.listed).toBe(CALLS);
    } finally {
      await ledger.close();
    }

    async function expectLedgerMatchesChains(before: Record<string, bigint>) {
      const now = await balances();
      const totals = Object.fromEntries((await ledger.totals()).byNetwork.map((n) => [n.network, n.amount]));
      for (const network of Object.keys(now))
        expect((now[network] ?? 0n) - (before[network] ?? 0n), network).toBe(totals[network] ?? 0n);
    }
  }, 180_000);
});

describe("SIGTERM while a facilitator settles slower than the old ten-second shutdown wait", () => {
  it("lets the paid request finish (its answer delivered, its payment settled) and then exits 0", async () => {
    const slow = await startStandinFacilitator(chains, { delayMs: 11_000 });
    const stopping = await startService({
      ...env,
      FACILITATOR_URL: slow.url,
      FACILITATOR_TIMEOUT_MS: "20000",
      LEDGER_DB: join(dir, "sigterm-ledger.db"),
      REGISTRY_DB: join(dir, "sigterm-registry.db"),
    });
    try {
      // a Solana payment: the test above moved the EVM chain's clock past the wall clock, which an EVM authorization
      // signed now could be expired by when the slow settlement reaches the chain
      const path = "/defi/tvl";
      const header = await sign(await challenge(stopping.url, "POST", path));
      const answer = send(stopping.url, {
        method: "POST",
        path,
        body: {},
        header,
        network: chains.svm.network,
        amount: 1000n,
      });
      await until(async () => {
        if (slow.received() < 1) throw new Error("the facilitator has not been asked yet");
      });
      stopping.child.kill("SIGTERM");
      const sent = await answer;
      expect(delivered(sent), sent?.text).toBe(true);
      expect(await stopping.exited).toEqual({ code: 0, signal: null });
      const ledger = openSqliteLedger(join(dir, "sigterm-ledger.db"));
      expect((await ledger.rows()).map((row) => row.status)).toEqual(["settled"]);
      await ledger.close();
    } finally {
      await stopping.kill("SIGKILL");
      await slow.close();
    }
  }, 90_000);
});
