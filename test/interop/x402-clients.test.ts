// Interoperability: the real x402 clients pay the running analytics app on all three prefixes of the
// testnet profile: @x402/fetch 2.27 over v2 (PAYMENT-SIGNATURE, PAYMENT-RESPONSE) and x402-fetch 1.2.0
// over v1 (X-PAYMENT, X-PAYMENT-RESPONSE), each with a viem account on /base and /skale and a Solana
// signer on the root building its transaction through the local chain's RPC stand-in; once with the
// embedded ledger and once settling for real on the local chains. Every 200 carries the receipt of the
// version paid in and has exactly one settled ledger row; a retry in the same header gets the same
// answer; the payment replayed for another request, or in the other version's header, gets a 402.
import { generateKeyPairSigner } from "@solana/kit";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { familyOf } from "../../lib/networks.js";
import { createAnalyticsApp } from "../../server/analytics/app.js";
import { createCache } from "../../server/analytics/cache/memory-cache.js";
import { systemClock } from "../../server/analytics/clock.js";
import { loadAnalyticsContract } from "../../server/analytics/contract/analytics-contract.js";
import { embeddedInsightWriter } from "../../server/analytics/insight/embedded.js";
import { createExactVerifier } from "../../server/analytics/payments/exact/verifier.js";
import { createPaymentGate } from "../../server/analytics/payments/gate/gate.js";
import { splitPayment } from "../../server/analytics/payments/ledger/split.js";
import { openSqliteLedger } from "../../server/analytics/payments/ledger/sqlite-ledger.js";
import type { LedgerStore } from "../../server/analytics/payments/ledger/store.js";
import {
  type LocalChains,
  startLocalChains,
} from "../../server/analytics/payments/settlement/backends/local-chain/index.js";
import { createEmbeddedProviders } from "../../server/analytics/providers/index.js";
import { createSegmentContext } from "../../server/analytics/segments/derived.js";
import { handlers } from "../../server/analytics/segments/index.js";
import { createAnalyticsService } from "../../server/analytics/service.js";
import { loadAnalyticsConfig } from "../../server/config/analytics.js";
import { createLogger } from "../../server/http/logger.js";
import { caip2Of, decodeHeader, listen, type Running, v1Client, v2Client } from "../support/x402-clients.js";

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

/** `npm start`'s service, on its defaults (embedded ledger settlement) but an in-memory ledger. */
async function startDefaults(): Promise<Running> {
  const service = await createAnalyticsService(loadAnalyticsConfig({ LEDGER_DB: ":memory:" }), {
    logger: createLogger("silent"),
  });
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
    segment: createSegmentContext({
      providers: createEmbeddedProviders({ seed: "interop", clock }),
      clock,
      cache: createCache(clock),
    }),
    providerModes: Object.fromEntries(
      ["tvl", "pools", "launches", "chain_rpc", "wallet_labels", "swap_bridge"].map((role) => [role, "embedded"]),
    ) as Parameters<typeof createAnalyticsApp>[0]["providerModes"],
    settlementMode: "local-chain",
    insight: embeddedInsightWriter,
    ledger,
    tasks: ledger.tasks,
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

const post = (pay: typeof fetch, url: string, headers: Record<string, string> = {}, body = "{}") =>
  pay(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });

/** Every 200 has exactly one settled row (matched by transaction); nothing else settled. */
async function expectLedgerMatches(ledger: LedgerStore, receipts: { transaction: string }[]) {
  const settled = (await ledger.rows()).filter((row) => row.status === "settled");
  expect(settled).toHaveLength(receipts.length);
  for (const receipt of receipts)
    expect(settled.filter((row) => row.transaction === receipt.transaction)).toHaveLength(1);
}

const modes = [
  { mode: "ledger", title: "npm start's defaults (ledger settlement)", start: startDefaults },
  { mode: "local-chain", title: "local-chain settlement", start: startOnLocalChains },
] as const;

/** Each client with the headers of its version. */
const CLIENTS = [
  {
    title: "@x402/fetch 2.27 (v2)",
    client: v2Client,
    payment: "PAYMENT-SIGNATURE",
    receipt: "payment-response",
    other: "X-PAYMENT",
  },
  {
    title: "x402-fetch 1.2.0 (v1)",
    client: v1Client,
    payment: "X-PAYMENT",
    receipt: "x-payment-response",
    other: "PAYMENT-SIGNATURE",
  },
] as const;

for (const { mode, title, start } of modes) {
  describe(`the real x402 clients against the app on ${title}`, () => {
    let app: Running;
    const receipts: { transaction: string }[] = [];
    beforeAll(async () => {
      app = await start();
    });
    afterAll(() => app?.close());

    for (const { title: clientTitle, client, payment, receipt: receiptHeader, other } of CLIENTS) {
      for (const { prefix, network, payTo } of PREFIXES) {
        it(`${clientTitle} pays POST ${prefix}/defi/tvl: 200 with its receipt header; a retry gets the same answer unpaid; another request with it, or the other header, 402`, async () => {
          const evm = network !== "solana-devnet";
          const signer = evm ? privateKeyToAccount(generatePrivateKey()) : await generateKeyPairSigner();
          // The Solana clients read the payer's token account while building, so its payer needs USDC in either mode.
          if (mode === "local-chain" || !evm) await chains.fund(network, signer.address, 3n * PRICE);
          const payToBefore = await chains.balanceOf(network, payTo);
          const { pay, sent } = client(signer, chains.rpcUrl as string);

          const res = await post(pay, `${app.origin}${prefix}/defi/tvl`);
          expect(res.status, await res.clone().text()).toBe(200);
          expect(res.headers.get(other === "X-PAYMENT" ? "x-payment-response" : "payment-response")).toBeNull();
          const receipt = decodeHeader(res.headers.get(receiptHeader));
          const named = payment === "PAYMENT-SIGNATURE" ? caip2Of(network) : network;
          expect(receipt).toMatchObject({ success: true, network: named, payer: signer.address });
          if (payment === "PAYMENT-SIGNATURE") expect(receipt.amount).toBe(String(PRICE));
          expect(Boolean(receipt.simulated)).toBe(mode === "ledger");
          receipts.push(receipt);
          if (mode === "local-chain") {
            expect(await chains.balanceOf(network, signer.address)).toBe(2n * PRICE);
            expect(await chains.balanceOf(network, payTo)).toBe(payToBefore + PRICE);
          }

          const body = await res.text();
          const used = sent[0] as string;
          const retry = await post(fetch, `${app.origin}${prefix}/defi/tvl`, { [payment]: used });
          expect(retry.status).toBe(200);
          expect(await retry.text()).toBe(body);
          expect(decodeHeader(retry.headers.get(receiptHeader))).toEqual(receipt);
          if (mode === "local-chain") expect(await chains.balanceOf(network, signer.address)).toBe(2n * PRICE);

          const replay = await post(fetch, `${app.origin}${prefix}/defi/tvl`, { [payment]: used }, '{"limit":3}');
          expect(replay.status).toBe(402);
          const reason = evm ? "invalid_exact_evm_nonce_already_used" : "duplicate_settlement";
          expect(((await replay.json()) as { error: string }).error).toBe(reason);

          // The same signed payload in the other version's header: the same payment, already used.
          const inner = decodeHeader(used);
          const accepted = decodeHeader(replay.headers.get("payment-required")).accepts[0];
          const asOther =
            other === "X-PAYMENT"
              ? { x402Version: 1, scheme: "exact", network, payload: inner.payload }
              : { x402Version: 2, accepted, payload: inner.payload };
          const crossed = await post(fetch, `${app.origin}${prefix}/defi/tvl`, {
            [other]: Buffer.from(JSON.stringify(asOther)).toString("base64"),
          });
          expect(crossed.status).toBe(402);
          expect(((await crossed.json()) as { error: string }).error).toBe(reason);
          await expectLedgerMatches(app.ledger, receipts);
        });
      }
    }

    if (mode === "local-chain") {
      for (const { title: clientTitle, client, payment } of CLIENTS)
        it(`${clientTitle}: answers 402 insufficient_funds when the chain refuses the transfer, and records it as failed, not settled`, async () => {
          const broke = privateKeyToAccount(generatePrivateKey());
          const res = await post(client(broke, chains.rpcUrl as string).pay, `${app.origin}/base/defi/tvl`);
          expect(res.status).toBe(402);
          expect(await res.json()).toMatchObject({ error: "insufficient_funds", payer: broke.address });
          expect(decodeHeader(res.headers.get("payment-required")).error).toBe("insufficient_funds");
          expect(res.headers.get("x-payment-response")).toBeNull();
          // v2 reports the failed settlement beside the 402 (not a receipt: no transaction); v1 has no such report
          const report = res.headers.get("payment-response");
          if (payment === "PAYMENT-SIGNATURE")
            expect(decodeHeader(report)).toEqual({
              success: false,
              errorReason: "insufficient_funds",
              transaction: "",
              network: "eip155:84532",
              payer: broke.address,
            });
          else expect(report).toBeNull();
          const rows = await app.ledger.rows();
          expect(rows.filter((row) => row.payer === broke.address).map((row) => row.status)).toEqual(["failed"]);
          await expectLedgerMatches(app.ledger, receipts);
        });
    }
  });
}
