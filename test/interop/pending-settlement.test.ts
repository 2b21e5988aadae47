// A payer through a facilitator that answers "pending", and through a lost answer, pays once: the
// service on SETTLEMENT=facilitator (in this process) with a stand-in facilitator over the local
// chains, paid by the project's own client over HTTP and by its paying bridge over MCP. The
// facilitator answers x402's `settlement_pending` while the money moves on the chain: the payer is
// told the payment is in progress and when to come back (never a 402), waits, sends the same payment
// again, and gets the answer once recovery has read the chain. A connection that drops the first
// paid answer ends the same way. Each time: one signature, one settled row, one transfer on the chain.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAnalyticsClient } from "../../client/analytics.js";
import { PAYMENT_META, payingBridge } from "../../client/mcp-bridge.js";
import { evmPayer, type Payer } from "../../client/payers.js";
import { type LocalServices, startLocalServices } from "../../scripts/local-services.js";
import { loadAnalyticsContract } from "../../server/analytics/contract/analytics-contract.js";
import {
  type LocalChains,
  startLocalChains,
} from "../../server/analytics/payments/settlement/backends/local-chain/index.js";
import { loadAnalyticsConfig } from "../../server/config/analytics.js";
import {
  facilitatorSettlement,
  type StandinFacilitator,
  startStandinFacilitator,
} from "../support/standin-facilitator.js";

const PRICE = 1000n; // /defi/tvl, 0.001 USD
const config = loadAnalyticsConfig({}, loadAnalyticsContract().developmentDefaults);
let chains: LocalChains;

beforeAll(async () => {
  chains = await startLocalChains({ config, rpc: true });
});
afterAll(() => chains?.close());

/** The service on a stand-in facilitator whose first `pending` settle calls of each payment answer pending. */
function onFacilitator(pending: number) {
  const running: { facilitator?: StandinFacilitator; services?: LocalServices } = {};
  beforeAll(async () => {
    running.facilitator = await startStandinFacilitator(chains, { delayMs: 200, blockEveryMs: 250, pending });
    running.services = await startLocalServices({
      ...facilitatorSettlement(chains, running.facilitator.url),
      FACILITATOR_TIMEOUT_MS: "1000",
      RECOVERY_INTERVAL_MS: "250",
      LOG_LEVEL: "silent",
    });
  });
  afterAll(async () => {
    await running.services?.close();
    await running.facilitator?.close();
  });
  return running as Required<typeof running>;
}

/** A funded payer on Base that counts its signatures. */
async function fundedPayer(): Promise<Payer & { signed: number }> {
  const account = privateKeyToAccount(generatePrivateKey());
  await chains.fund("base-sepolia", account.address, 10n * PRICE);
  const payer = evmPayer(account);
  const counted = {
    ...payer,
    signed: 0,
    sign: (terms: Parameters<Payer["sign"]>[0]) => {
      counted.signed++;
      return payer.sign(terms);
    },
  };
  return counted;
}

/** What one payer's calls came to: its rows in the ledger, the transfers the facilitator made, what left its wallet. */
async function charges(running: ReturnType<typeof onFacilitator>, payer: Payer, before: { settled: number }) {
  const rows = (await running.services.ledger.rows()).filter(
    (row) => row.payer.toLowerCase() === payer.address.toLowerCase(),
  );
  return {
    rows: rows.map((row) => row.status),
    transfers: running.facilitator.settled() - before.settled,
    spent: 10n * PRICE - (await chains.balanceOf("base-sepolia", payer.address)),
  };
}

/** A fetch (or an MCP transport's fetch) that loses the first answer to a paid request, after the service sent it. */
function losingFirstPaidAnswer(isPaid: (request: Request, body: string) => boolean) {
  let lost = 0;
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const body = request.body ? await request.clone().text() : "";
    const response = await globalThis.fetch(request);
    if (!isPaid(request, body) || lost++ > 0) return response;
    await response.arrayBuffer(); // the service answered in full; the connection drops before the payer reads it
    throw new TypeError("fetch failed: the connection was reset");
  };
  return { fetch, lost: () => lost };
}

async function bridgeTo(services: LocalServices, payer: Payer, fetch?: typeof globalThis.fetch) {
  const upstream = new Client({ name: "pending-settlement-test", version: "1.0.0" });
  await upstream.connect(new StreamableHTTPClientTransport(new URL(`${services.analyticsUrl}/mcp`), { fetch }));
  const bridge = payingBridge({
    upstream,
    network: "base",
    payer,
    maxPerCall: PRICE,
    maxTotal: 10n * PRICE,
    confirm: false,
  });
  return { bridge, close: () => upstream.close() };
}

describe("a facilitator that answers pending while the money moves", () => {
  const running = onFacilitator(Number.POSITIVE_INFINITY);

  it("over HTTP: the client is told to come back, sends the same payment again, and is charged once", async () => {
    const payer = await fundedPayer();
    const before = { settled: running.facilitator.settled() };
    const seen: Response[] = [];
    const fetch = async (request: Request) => {
      const response = await globalThis.fetch(request);
      if (request.headers.has("PAYMENT-SIGNATURE")) seen.push(response.clone());
      return response;
    };
    const client = createAnalyticsClient({ baseUrl: running.services.analyticsUrl, network: "base", payer, fetch });
    const result = await client.call("/defi/tvl", { limit: 2 });
    expect(result.status).toBe(200);
    expect(result.receipt).toMatchObject({ success: true, transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    // first in progress, with when to come back, never a challenge to pay again
    expect(seen[0]?.status).toBe(503);
    expect(await seen[0]?.json()).toMatchObject({ error: "payment_in_progress" });
    expect(Number(seen[0]?.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(seen.every((response) => response.status !== 402)).toBe(true);
    expect(payer.signed).toBe(1);
    expect(await charges(running, payer, before)).toEqual({ rows: ["settled"], transfers: 1, spent: PRICE });
    expect(client.spent()).toBe(PRICE);
  });

  it("over MCP: the bridge waits the retry facts of the tool result, calls again with the same payment, charged once", async () => {
    const payer = await fundedPayer();
    const before = { settled: running.facilitator.settled() };
    const payments: string[] = [];
    const results: CallToolResult[] = [];
    const { bridge, close } = await bridgeTo(running.services, payer, async (input, init) => {
      const body = typeof init?.body === "string" ? init.body : "";
      const paid = body.includes(PAYMENT_META);
      if (paid) payments.push(JSON.stringify(JSON.parse(body).params._meta[PAYMENT_META]));
      const response = await globalThis.fetch(input, init);
      if (paid) results.push(((await response.clone().json()) as { result: CallToolResult }).result);
      return response;
    });
    try {
      const result = await bridge.call("defiTvl", { limit: 2 });
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
      expect(results[0]).toMatchObject({ isError: true, structuredContent: { error: "payment_in_progress" } });
      expect(results[0]?.structuredContent?.retryAfterSeconds).toBeGreaterThan(0);
      expect(new Set(payments).size).toBe(1);
      expect(payments.length).toBeGreaterThan(1);
      expect(payer.signed).toBe(1);
      expect(await charges(running, payer, before)).toEqual({ rows: ["settled"], transfers: 1, spent: PRICE });
      expect(bridge.spent()).toBe(PRICE);
    } finally {
      await close();
    }
  });
});

describe("a facilitator that answers pending once, and settled when asked again", () => {
  const running = onFacilitator(1);

  it("answers the payer at once, charged once", async () => {
    const payer = await fundedPayer();
    const before = { settled: running.facilitator.settled() };
    const client = createAnalyticsClient({ baseUrl: running.services.analyticsUrl, network: "base", payer });
    expect((await client.call("/defi/tvl", { limit: 2 })).status).toBe(200);
    expect(payer.signed).toBe(1);
    expect(await charges(running, payer, before)).toEqual({ rows: ["settled"], transfers: 1, spent: PRICE });
  });
});

describe("an answer lost after its settlement", () => {
  const running = onFacilitator(0);

  it("over HTTP: the client sends the same payment again and gets the stored answer, charged once", async () => {
    const payer = await fundedPayer();
    const before = { settled: running.facilitator.settled() };
    const lossy = losingFirstPaidAnswer((request) => request.headers.has("PAYMENT-SIGNATURE"));
    const client = createAnalyticsClient({
      baseUrl: running.services.analyticsUrl,
      network: "base",
      payer,
      fetch: (request) => lossy.fetch(request),
    });
    const result = await client.call("/defi/tvl", { limit: 2 });
    expect(result.status).toBe(200);
    expect(lossy.lost()).toBe(2);
    expect(payer.signed).toBe(1);
    expect(await charges(running, payer, before)).toEqual({ rows: ["settled"], transfers: 1, spent: PRICE });
  });

  it("over MCP: the bridge calls again with the same payment and gets the stored answer, charged once", async () => {
    const payer = await fundedPayer();
    const before = { settled: running.facilitator.settled() };
    const lossy = losingFirstPaidAnswer((_, body) => body.includes(PAYMENT_META));
    const { bridge, close } = await bridgeTo(running.services, payer, lossy.fetch);
    try {
      const result = await bridge.call("defiTvl", { limit: 2 });
      expect(result.isError, JSON.stringify(result)).toBeFalsy();
      expect(lossy.lost()).toBe(2);
      expect(payer.signed).toBe(1);
      expect(await charges(running, payer, before)).toEqual({ rows: ["settled"], transfers: 1, spent: PRICE });
    } finally {
      await close();
    }
  });
});
