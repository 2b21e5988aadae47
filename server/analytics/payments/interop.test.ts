// Interoperability: the real x402 v1 client (x402-fetch 1.2.0) pays the running analytics app on all
// three prefixes of the testnet profile — a viem account on /base and /skale, a Solana signer on the
// root, building its transaction through the local chain's RPC stand-in — once with the embedded
// ledger and once settling for real on the local chains. Every 200 carries X-PAYMENT-RESPONSE and has
// exactly one settled ledger row; a replay or a failed settlement gets a 402 and no settled row.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { generateKeyPairSigner } from "@solana/kit";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wrapFetchWithPayment } from "x402-fetch";
import { familyOf } from "../../../lib/networks.js";
import { createLogger } from "../../http/logger.js";
import { createAnalyticsApp } from "../app.js";
import { createCache } from "../cache.js";
import { systemClock } from "../clock.js";
import { loadAnalyticsConfig } from "../config.js";
import { loadAnalyticsContract } from "../contract.js";
import { embeddedInsightWriter } from "../insight/embedded.js";
import { createEmbeddedProviders } from "../providers/index.js";
import { createSegmentContext } from "../segments/derived.js";
import { handlers } from "../segments/index.js";
import { createAnalyticsService } from "../service.js";
import { type LocalChains, startLocalChains } from "./backends/local-chain/index.js";
import { createPaymentGate } from "./gate.js";
import { splitPayment } from "./ledger/split.js";
import { openSqliteLedger } from "./ledger/sqlite-ledger.js";
import type { LedgerStore } from "./ledger/store.js";
import { createExactVerifier } from "./verifier.js";

const contract = loadAnalyticsContract();
const configured = loadAnalyticsConfig({}, contract.developmentDefaults);
const PREFIXES = [
  { prefix: "/base", network: "base-sepolia", payTo: configured.payTo.evm },
  { prefix: "/skale", network: "skale-base-sepolia", payTo: configured.payTo.evm },
  { prefix: "", network: "solana-devnet", payTo: configured.payTo.svm },
] as const;
const PRICE = BigInt(contract.paid.find((r) => r.name === "defiTvl")?.payment.maxAmountRequired as string);

let chains: LocalChains;
beforeAll(async () => {
  chains = await startLocalChains({ config: configured, rpc: true });
  // x402's Solana client simulates with the announced fee payer, so the development one needs SOL too.
  chains.svm.fundSol(configured.feePayer, 10n ** 9n);
});
afterAll(() => chains?.close());

type Running = { origin: string; ledger: LedgerStore; close(): Promise<void> };

/** Listens on 127.0.0.1 at a free port. */
async function listen(app: ReturnType<typeof createAnalyticsApp>, ledger: LedgerStore, close: () => Promise<void>): Promise<Running> {
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ledger,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await close();
    },
  };
}

/** `npm start`'s service, on its defaults (embedded ledger settlement) but an in-memory ledger. */
async function startDefaults(): Promise<Running> {
  const service = await createAnalyticsService(loadAnalyticsConfig({ LEDGER_DB: ":memory:" }), { logger: createLogger("silent") });
  return listen(service.app, service.ledger, service.close);
}

/** The same app over the local chains' backend, announcing their fee payer. */
async function startOnLocalChains(): Promise<Running> {
  const config = { ...configured, feePayer: chains.feePayer };
  const ledger = openSqliteLedger(":memory:");
  const clock = systemClock;
  const app = createAnalyticsApp({
    contract,
    config,
    handlers,
    segment: createSegmentContext({ providers: createEmbeddedProviders({ seed: "interop", clock }), clock, cache: createCache(clock) }),
    providerModes: Object.fromEntries(
      ["tvl", "pools", "launches", "chain_rpc", "wallet_labels", "swap_bridge"].map((role) => [role, "embedded"]),
    ) as Parameters<typeof createAnalyticsApp>[0]["providerModes"],
    settlementMode: "local-chain",
    insight: embeddedInsightWriter,
    gate: createPaymentGate({
      verifier: createExactVerifier({ config, clock }),
      ledger,
      backend: chains.backend,
      clock,
      split: (network, amount) => {
        const family = familyOf(network);
        const { service, treasury } = splitPayment(amount, 1000);
        return {
          service: { address: config.payTo[family], amount: service },
          treasury: { address: config.treasury[family], amount: treasury },
        };
      },
      answerTimeoutMs: 30_000,
    }),
    clock,
    logger: createLogger("silent"),
  });
  return listen(app, ledger, () => ledger.close());
}

/** x402-fetch over a fetch that remembers each X-PAYMENT it sent (to replay it). */
function payingFetch(signer: Parameters<typeof wrapFetchWithPayment>[1]) {
  const sent: string[] = [];
  const recording: typeof fetch = (input, init) => {
    const header = (init?.headers as Record<string, string> | undefined)?.["X-PAYMENT"];
    if (header) sent.push(header);
    return fetch(input, init);
  };
  const pay = wrapFetchWithPayment(recording, signer, undefined, undefined, { svmConfig: { rpcUrl: chains.rpcUrl as string } });
  return { pay, sent };
}

const post = (
  pay: typeof fetch | ReturnType<typeof wrapFetchWithPayment>,
  url: string,
  headers: Record<string, string> = {},
  body = "{}",
) => pay(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
const decode = (header: string | null) => JSON.parse(Buffer.from(header ?? "", "base64").toString("utf8"));

/** Every 200 has exactly one settled row (matched by transaction); nothing else settled. */
async function expectLedgerMatches(ledger: LedgerStore, receipts: { transaction: string }[]) {
  const settled = (await ledger.rows()).filter((row) => row.status === "settled");
  expect(settled).toHaveLength(receipts.length);
  for (const receipt of receipts) expect(settled.filter((row) => row.transaction === receipt.transaction)).toHaveLength(1);
}

const modes = [
  { mode: "ledger", title: "npm start's defaults (ledger settlement)", start: startDefaults },
  { mode: "local-chain", title: "local-chain settlement", start: startOnLocalChains },
] as const;

for (const { mode, title, start } of modes) {
  describe(`x402-fetch 1.2.0 against the app on ${title}`, () => {
    let app: Running;
    const receipts: { transaction: string }[] = [];
    beforeAll(async () => {
      app = await start();
    });
    afterAll(() => app?.close());

    for (const { prefix, network, payTo } of PREFIXES) {
      it(`pays POST ${prefix}/defi/tvl: 200 with X-PAYMENT-RESPONSE; a retry gets the same answer unpaid; another request with it, 402`, async () => {
        const evm = network !== "solana-devnet";
        const signer = evm ? privateKeyToAccount(generatePrivateKey()) : await generateKeyPairSigner();
        // The Solana client simulates the transfer while building it, so its payer needs USDC in either mode.
        if (mode === "local-chain" || !evm) await chains.fund(network, signer.address, 3n * PRICE);
        const payToBefore = await chains.balanceOf(network, payTo);
        const { pay, sent } = payingFetch(signer as Parameters<typeof wrapFetchWithPayment>[1]);

        const res = await post(pay, `${app.origin}${prefix}/defi/tvl`);
        expect(res.status, await res.clone().text()).toBe(200);
        const receipt = decode(res.headers.get("x-payment-response"));
        expect(receipt).toMatchObject({ success: true, network, payer: signer.address });
        expect(Boolean(receipt.simulated)).toBe(mode === "ledger");
        receipts.push(receipt);
        if (mode === "local-chain") {
          expect(await chains.balanceOf(network, signer.address)).toBe(2n * PRICE);
          expect(await chains.balanceOf(network, payTo)).toBe(payToBefore + PRICE);
        }

        const body = await res.text();
        const retry = await post(fetch, `${app.origin}${prefix}/defi/tvl`, { "X-PAYMENT": sent[0] as string });
        expect(retry.status).toBe(200);
        expect(await retry.text()).toBe(body);
        expect(decode(retry.headers.get("x-payment-response"))).toEqual(receipt);
        if (mode === "local-chain") expect(await chains.balanceOf(network, signer.address)).toBe(2n * PRICE);

        const replay = await post(fetch, `${app.origin}${prefix}/defi/tvl`, { "X-PAYMENT": sent[0] as string }, '{"limit":3}');
        expect(replay.status).toBe(402);
        expect(((await replay.json()) as { error: string }).error).toBe(
          evm ? "invalid_exact_evm_nonce_already_used" : "duplicate_settlement",
        );
        await expectLedgerMatches(app.ledger, receipts);
      });
    }

    if (mode === "local-chain") {
      it("answers 402 insufficient_funds when the chain refuses the transfer, and records it as failed, not settled", async () => {
        const broke = privateKeyToAccount(generatePrivateKey());
        const res = await post(payingFetch(broke).pay, `${app.origin}/base/defi/tvl`);
        expect(res.status).toBe(402);
        expect(await res.json()).toMatchObject({ error: "insufficient_funds", payer: broke.address });
        expect(res.headers.get("x-payment-response")).toBeNull();
        const rows = await app.ledger.rows();
        expect(rows.filter((row) => row.payer === broke.address).map((row) => row.status)).toEqual(["failed"]);
        await expectLedgerMatches(app.ledger, receipts);
      });
    }
  });
}
