// Every paid operation on every prefix, paid by both real x402 clients against `npm start`'s service
// (embedded ledger settlement): @x402/fetch 2.27 over v2 and x402-fetch 1.2.0 over v1, each with the
// operation's documented example request. Each answer is a 200 or 206 carrying only the receipt header
// of its version, naming the network as that version names it, and the ledger holds one settled row
// per answer: 28 operations × 3 prefixes × 2 clients.
import { generateKeyPairSigner } from "@solana/kit";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadAnalyticsContract } from "../../server/analytics/contract/analytics-contract.js";
import {
  type LocalChains,
  startLocalChains,
} from "../../server/analytics/payments/settlement/backends/local-chain/index.js";
import { createAnalyticsService } from "../../server/analytics/service.js";
import { loadAnalyticsConfig } from "../../server/config/analytics.js";
import { createLogger } from "../../server/http/logger.js";
import {
  caip2Of,
  decodeHeader,
  listen,
  type PayingClient,
  type Running,
  v1Client,
  v2Client,
} from "../support/x402-clients.js";

const contract = loadAnalyticsContract();
const config = loadAnalyticsConfig({}, contract.developmentDefaults);
const routes = contract.paid.filter((route) => !route.legacy);
const exampleOf = (path: string) =>
  (contract.document.paths[path]?.post?.requestBody as { content: Record<string, { example?: unknown }> } | undefined)
    ?.content["application/json"]?.example ?? {};

let chains: LocalChains;
let app: Running;
beforeAll(async () => {
  // Only the Solana clients' RPC reads (mint, blockhash, token accounts) need the local chain: settlement is the ledger's.
  chains = await startLocalChains({ config, rpc: true });
  chains.svm.fundSol(config.feePayer, 10n ** 9n);
  const service = await createAnalyticsService(loadAnalyticsConfig({ LEDGER_DB: ":memory:" }), {
    logger: createLogger("silent"),
  });
  app = await listen(service.app, service.ledger, service.close);
});
afterAll(async () => {
  await app?.close();
  await chains?.close();
});

const CLIENTS = [
  {
    version: 2,
    title: "@x402/fetch 2.27 over v2",
    client: v2Client,
    receipt: "payment-response",
    absent: "x-payment-response",
  },
  {
    version: 1,
    title: "x402-fetch 1.2.0 over v1",
    client: v1Client,
    receipt: "x-payment-response",
    absent: "payment-response",
  },
] as const;

const served = { 1: 0, 2: 0 };
for (const { version, title, client, receipt: receiptHeader, absent } of CLIENTS) {
  describe(title, () => {
    /**
     * A payer per network for the v2 client, whose Solana transactions carry a random memo; a payer per
     * operation for the v1 one: x402-fetch 1.2.0's Solana transaction has no nonce, so two payments of one
     * price by one wallet over one blockhash are the same transaction, and the second is rightly a replay.
     */
    const payers = new Map<string, { address: string; client: PayingClient }>();
    async function payerFor(network: string, operation: string) {
      const key = version === 2 || !network.startsWith("solana") ? network : `${network}:${operation}`;
      let payer = payers.get(key);
      if (!payer) {
        const solana = network.startsWith("solana");
        const signer = solana ? await generateKeyPairSigner() : privateKeyToAccount(generatePrivateKey());
        // The Solana clients read the payer's token account while building; settlement here is the ledger's.
        if (solana) await chains.fund(network, signer.address, 10n ** 9n);
        payer = { address: signer.address, client: client(signer, chains.rpcUrl as string) };
        payers.set(key, payer);
      }
      return payer;
    }

    for (const route of routes) {
      const network = route.payment.network.testnet.network;
      it(`pays POST ${route.path}`, async () => {
        const payer = await payerFor(network, route.name);
        const res = await payer.client.pay(`${app.origin}${route.path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(exampleOf(route.path)),
        });
        expect([200, 206], await res.clone().text()).toContain(res.status);
        expect(res.headers.get(absent)).toBeNull();
        expect(decodeHeader(res.headers.get(receiptHeader))).toMatchObject({
          success: true,
          network: version === 2 ? caip2Of(network) : network,
          payer: payer.address,
        });
        served[version]++;
      });
    }
  });
}

describe("the ledger after both clients", () => {
  it("holds one settled payment per answer served, and nothing else", async () => {
    const rows = await app.ledger.rows();
    expect(served).toEqual({ 1: routes.length, 2: routes.length });
    expect(rows.map((row) => row.status)).toEqual(Array(2 * routes.length).fill("settled"));
  });
});
