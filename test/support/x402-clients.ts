// Test support: the analytics app as the real x402 clients meet it, and those clients as a payer
// sets them up. The official v2 client (@x402/fetch 2.27 with the SDK's EVM and SVM schemes) and
// the frozen v1 client (x402-fetch 1.2.0), each over a fetch that records the payment header it
// sent, so that a test can retry or replay it.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { TransactionSigner } from "@solana/kit";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment as wrapV2, x402Client } from "@x402/fetch";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import type { LocalAccount } from "viem";
import { wrapFetchWithPayment as wrapV1 } from "x402-fetch";
import { findNetwork, NETWORKS } from "../../lib/networks.js";
import type { createAnalyticsApp } from "../../server/analytics/app.js";
import type { LedgerStore } from "../../server/analytics/payments/ledger/store.js";
import { createAnalyticsService } from "../../server/analytics/service.js";
import { loadAnalyticsConfig } from "../../server/config/analytics.js";
import { createLogger } from "../../server/http/logger.js";

export type Running = { origin: string; ledger: LedgerStore; close(): Promise<void> };

/** Listens on 127.0.0.1 at a free port. */
export async function listen(
  app: ReturnType<typeof createAnalyticsApp>,
  ledger: LedgerStore,
  close: () => Promise<void>,
): Promise<Running> {
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

/** `npm start`'s service on its defaults (embedded ledger settlement), with an in-memory ledger, listening. */
export async function listenDefaults(): Promise<Running> {
  const started = await createAnalyticsService(loadAnalyticsConfig({ LEDGER_DB: ":memory:" }), {
    logger: createLogger("silent"),
  });
  return listen(started.app, started.ledger, started.close);
}

type Signer = LocalAccount | TransactionSigner;
export type PayingClient = { pay: typeof fetch; sent: string[] };

/** A fetch that remembers each value of `header` it sent. */
function recording(header: string): { fetch: typeof fetch; sent: string[] } {
  const sent: string[] = [];
  const send: typeof fetch = (input, init) => {
    const request = new Request(input, init);
    const value = request.headers.get(header);
    if (value) sent.push(value);
    return fetch(request);
  };
  return { fetch: send, sent };
}

/**
 * SKALE's USDC is not one of the x402 SDK's default assets: `client` is allowed it explicitly, with a per-payment cap,
 * as docs/clients.md tells integrators to do.
 */
export function allowSkaleUsdc(client: x402Client): x402Client {
  const skale = NETWORKS.find((n) => n.name === "skale");
  if (skale)
    client.setSpendControls({
      allowedAssets: ["testnet", "mainnet"].map((profile) => {
        const details = skale[profile as "testnet" | "mainnet"];
        return {
          network: details.caip2 as `${string}:${string}`,
          asset: details.asset,
          maxAmountPerPayment: "1000000",
        };
      }),
    });
  return client;
}

/** The v2 client for one payer: the SDK's exact EVM scheme on `eip155:*`, or its SVM scheme on `solana:*` over the local RPC stand-in. */
export function v2Client(signer: Signer, rpcUrl: string): PayingClient {
  const client = allowSkaleUsdc(new x402Client());
  if ("signTypedData" in signer) client.register("eip155:*", new ExactEvmScheme(signer));
  else client.register("solana:*", new ExactSvmScheme(signer, { rpcUrl }));
  const { fetch: send, sent } = recording("PAYMENT-SIGNATURE");
  return { pay: wrapV2(send, client), sent };
}

/** The v1 client for one payer (a viem account, or a kit signer building over the local RPC stand-in). */
export function v1Client(signer: Signer, rpcUrl: string): PayingClient {
  const { fetch: send, sent } = recording("X-PAYMENT");
  const pay = wrapV1(send, signer as Parameters<typeof wrapV1>[1], undefined, undefined, { svmConfig: { rpcUrl } });
  return { pay: pay as typeof fetch, sent };
}

export const decodeHeader = (header: string | null) => JSON.parse(Buffer.from(header ?? "", "base64").toString("utf8"));

/** The CAIP-2 id of a v1 network name. */
export const caip2Of = (network: string) => findNetwork(network)?.details.caip2;
