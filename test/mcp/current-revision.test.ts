// MCP's current revision (2026-07-28) on the same `/mcp` as the 2025-era sessions: the wire as the revision writes it
// (server/discover, tools/list with its caching hints, the checks of `_meta` and of the mirrored headers), and a
// paid tool call over x402's two MCP bindings by the official 2.x client (`@modelcontextprotocol/client`, pinned to
// the revision) and by the 1.x client (2025 era), each paying on Base and on Solana with @x402/core's x402Client and
// the EVM and SVM schemes: the extension binding (`resultType: "payment_required"`) for a client advertising
// `org.x402/payment`, the tool-result binding (`resultType: "complete"`) for one that does not, each charged once.
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { generateKeyPairSigner } from "@solana/kit";
import { x402Client } from "@x402/core/client";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { ExactSvmScheme } from "@x402/svm/exact/client";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadAnalyticsContract } from "../../server/analytics/contract/analytics-contract.js";
import {
  type LocalChains,
  startLocalChains,
} from "../../server/analytics/payments/settlement/backends/local-chain/index.js";
import { loadAnalyticsConfig } from "../../server/config/analytics.js";
import { testApp } from "../support/registry.js";
import { listenDefaults, type Running } from "../support/x402-clients.js";

const REVISION = "2026-07-28";
const EXTENSION = "org.x402/payment";
const contract = loadAnalyticsContract();
const configured = loadAnalyticsConfig({}, contract.developmentDefaults);
const PRICE = BigInt(contract.paid.find((r) => r.name === "defiTvl")?.payment.maxAmountRequired as string);
const META = {
  "io.modelcontextprotocol/protocolVersion": REVISION,
  "io.modelcontextprotocol/clientInfo": { name: "current-revision-test", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

let service: Running;
let chains: LocalChains;
const clients: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  chains = await startLocalChains({ config: configured, rpc: true });
  // x402's Solana client simulates with the announced fee payer, so the development one needs SOL too.
  chains.svm.fundSol(configured.feePayer, 10n ** 9n);
  service = await listenDefaults();
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await service?.close();
  await chains?.close();
});

/** A current-revision POST as the revision writes one: `_meta` in the body, its method and name in headers. */
async function post(
  method: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  origin = service.origin,
) {
  const name: Record<string, string> = typeof params.name === "string" ? { "Mcp-Name": params.name } : {};
  const res = await fetch(`${origin}/mcp`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": REVISION,
      "Mcp-Method": method,
      ...name,
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params: { _meta: META, ...params } }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: a JSON-RPC response, read field by field below
  return { status: res.status, body: (await res.json()) as any };
}

describe("the current revision's wire", () => {
  it("answers server/discover with the revisions, the tools capability, x402's extension and the server", async () => {
    const { status, body } = await post("server/discover");
    expect(status).toBe(200);
    expect(body).toMatchObject({ jsonrpc: "2.0", id: 7 });
    expect(body.result).toMatchObject({
      resultType: "complete",
      supportedVersions: expect.arrayContaining([REVISION, "2025-11-25"]),
      capabilities: { tools: {}, extensions: { [EXTENSION]: {} } },
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "defi-intel-analytics", version: expect.any(String) } },
    });
    expect(body.result.supportedVersions[0]).toBe(REVISION);
  });

  it("lists the same tools as the 2025 era, with resultType and caching hints", async () => {
    const { body } = await post("tools/list");
    expect(body.result).toMatchObject({ resultType: "complete", cacheScope: "public" });
    expect(Number.isInteger(body.result.ttlMs) && body.result.ttlMs > 0).toBe(true);
    const legacy = new ClientV1({ name: "legacy", version: "1.0.0" });
    await legacy.connect(new TransportV1(new URL(`${service.origin}/mcp`)));
    clients.push(legacy);
    expect(body.result.tools).toEqual((await legacy.listTools()).tools);
  });

  it("refuses a malformed _meta with -32602, carrying the request's id", async () => {
    for (const meta of [undefined, { "io.modelcontextprotocol/protocolVersion": REVISION }]) {
      const res = await fetch(`${service.origin}/mcp`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "MCP-Protocol-Version": REVISION, "Mcp-Method": "tools/list" },
        body: JSON.stringify({ jsonrpc: "2.0", id: "m-1", method: "tools/list", params: meta ? { _meta: meta } : {} }),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ id: "m-1", error: { code: -32602 } });
    }
  });

  it("refuses headers that do not match the body with -32020, and an unknown revision with -32022", async () => {
    const wrongName = await post("tools/call", { name: "defiTvl", arguments: {} }, { "Mcp-Name": "lpPools" });
    expect(wrongName).toMatchObject({ status: 400, body: { id: 7, error: { code: -32020 } } });
    const wrongMethod = await post("tools/list", {}, { "Mcp-Method": "tools/call" });
    expect(wrongMethod).toMatchObject({ status: 400, body: { id: 7, error: { code: -32020 } } });
    const version = await post(
      "tools/list",
      { _meta: { ...META, "io.modelcontextprotocol/protocolVersion": "2030-01-01" } },
      {
        "MCP-Protocol-Version": "2030-01-01",
      },
    );
    expect(version).toMatchObject({
      status: 400,
      body: {
        id: 7,
        error: { code: -32022, data: { requested: "2030-01-01", supported: expect.arrayContaining([REVISION]) } },
      },
    });
    expect(await post("initialize")).toMatchObject({ status: 404, body: { id: 7, error: { code: -32601 } } });
  });

  it("serves the registry's free tools on the revision too, without x402's extension", async () => {
    const { app, store } = await testApp();
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    try {
      const discovered = await post("server/discover", {}, {}, origin);
      expect(discovered.body.result.capabilities).toEqual({ tools: {} });
      const called = await post("tools/call", { name: "listAgents", arguments: {} }, {}, origin);
      expect(called.body.result).toMatchObject({ resultType: "complete", structuredContent: expect.any(Object) });
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await store.close();
    }
  });
});

type Network = "base" | "solana";
type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; _meta?: Record<string, unknown> };

/** A payer on `network`: a fresh EVM key, or a fresh Solana key holding USDC (its client reads the token account). */
async function payerOn(network: Network) {
  const payments = new x402Client();
  if (network === "base") payments.register("eip155:*", new ExactEvmScheme(privateKeyToAccount(generatePrivateKey())));
  else {
    const signer = await generateKeyPairSigner();
    await chains.fund("solana-devnet", signer.address, 3n * PRICE);
    payments.register("solana:*", new ExactSvmScheme(signer, { rpcUrl: chains.rpcUrl as string }));
  }
  // The challenge lists every network; pay the one this test names.
  const family = network === "base" ? "eip155:" : "solana:";
  return (required: PaymentRequired) =>
    payments.createPaymentPayload({
      ...required,
      accepts: required.accepts.filter((a) => a.network.startsWith(family)),
    });
}

/** The v2 client pinned to the revision; `advertise` puts x402's extension in its capabilities. */
async function currentClient(advertise: boolean) {
  const responses: unknown[] = [];
  const recording: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    if (res.headers.get("content-type")?.startsWith("application/json")) responses.push(await res.clone().json());
    return res;
  };
  const client = new ClientV2(
    { name: "current-revision-test", version: "1.0.0" },
    {
      capabilities: advertise ? { extensions: { [EXTENSION]: {} } } : {},
      versionNegotiation: { mode: { pin: REVISION } },
    },
  );
  await client.connect(new TransportV2(new URL(`${service.origin}/mcp`), { fetch: recording }));
  clients.push(client);
  return { client, lastResponse: () => responses.at(-1) as { result: Record<string, unknown> } };
}

async function legacyClient() {
  const client = new ClientV1({ name: "legacy-payer", version: "1.0.0" });
  await client.connect(new TransportV1(new URL(`${service.origin}/mcp`)));
  clients.push(client);
  return client;
}

const settledFor = async (payer: string) =>
  (await service.ledger.rows()).filter((row) => row.status === "settled" && row.payer === payer);

async function expectPaid(paid: Result, payment: PaymentPayload, again: () => Promise<Result>) {
  expect(paid.isError, JSON.stringify(paid.structuredContent)).toBeFalsy();
  expect(paid.structuredContent).toMatchObject({ signal: expect.any(String), data: expect.any(Object) });
  const response = paid._meta?.["x402/payment-response"] as { payer: string };
  expect(response).toMatchObject({ success: true, network: payment.accepted.network });
  // the same payment again: the stored answer, charged once
  expect((await again()).structuredContent).toEqual(paid.structuredContent);
  expect(await settledFor(response.payer)).toHaveLength(1);
}

for (const network of ["base", "solana"] as const)
  describe(`a paid tool call on ${network}`, () => {
    const args = { limit: 2 };

    it("over the extension binding (2026-07-28, advertised): payment_required, then the answer", async () => {
      const { client, lastResponse } = await currentClient(true);
      // The 2.x client knows no result type but its own: it refuses this one, and the wire says what it was.
      await expect(client.callTool({ name: "defiTvl", arguments: args })).rejects.toThrow(/payment_required/);
      const { result } = lastResponse();
      expect(result.resultType).toBe("payment_required");
      expect(result).not.toHaveProperty("isError");
      const required = result.paymentRequired as PaymentRequired;
      expect(required).toMatchObject({
        x402Version: 2,
        error: "Payment required",
        resource: { url: "mcp://tool/defiTvl" },
      });
      expect(new Set(required.accepts.map((a) => a.network.split(":")[0]))).toEqual(new Set(["solana", "eip155"]));
      expect((required.extensions as Record<string, { info: unknown }>).bazaar?.info).toMatchObject({
        input: { type: "mcp", toolName: "defiTvl" },
      });
      const payment = await (await payerOn(network))(required);
      const call = () =>
        client.callTool({ name: "defiTvl", arguments: args, _meta: { "x402/payment": payment } }) as Promise<Result>;
      const paid = await call();
      expect(lastResponse().result.resultType).toBe("complete");
      await expectPaid(paid, payment, call);
    });

    it("over the tool-result binding (2026-07-28, not advertised): resultType complete, isError, then the answer", async () => {
      const { client, lastResponse } = await currentClient(false);
      const unpaid = (await client.callTool({ name: "defiTvl", arguments: args })) as Result;
      expect(lastResponse().result.resultType).toBe("complete");
      expect(unpaid.isError).toBe(true);
      const payment = await (await payerOn(network))(unpaid.structuredContent as unknown as PaymentRequired);
      const call = () =>
        client.callTool({ name: "defiTvl", arguments: args, _meta: { "x402/payment": payment } }) as Promise<Result>;
      await expectPaid(await call(), payment, call);
    });

    it("over the tool-result binding (2025 era, the 1.x client): today's answers, without resultType", async () => {
      const client = await legacyClient();
      const unpaid = (await client.callTool({ name: "defiTvl", arguments: args })) as Result;
      expect(unpaid).not.toHaveProperty("resultType");
      expect(unpaid.isError).toBe(true);
      const payment = await (await payerOn(network))(unpaid.structuredContent as unknown as PaymentRequired);
      const call = () =>
        client.callTool({ name: "defiTvl", arguments: args, _meta: { "x402/payment": payment } }) as Promise<Result>;
      const paid = await call();
      expect(paid).not.toHaveProperty("resultType");
      await expectPaid(paid, payment, call);
    });
  });
