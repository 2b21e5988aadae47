// The official MCP client of the 2.x line (`@modelcontextprotocol/client`, revision 2026-07-28, which negotiates down
// to the revisions a server speaks) against the paid tools over streamable HTTP, and against the paying bridge over
// stdio: it lists, is told the price, pays (with @x402/core's x402Client), and gets the envelope and its receipt.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { x402Client } from "@x402/core/client";
import type { PaymentRequired } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listenDefaults, type Running } from "../support/x402-clients.js";

let service: Running;
const clients: Client[] = [];

beforeAll(async () => {
  service = await listenDefaults();
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await service?.close();
});

async function connected(transport: Parameters<Client["connect"]>[0]): Promise<Client> {
  const client = new Client({ name: "sdk-v2-test", version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; _meta?: Record<string, unknown> };

describe("the MCP SDK 2.x client", () => {
  it("pays a tool over streamable HTTP: PaymentRequired, then the envelope and its settlement", async () => {
    const client = await connected(new StreamableHTTPClientTransport(new URL(`${service.origin}/mcp`)));
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === "defiTvl")?._meta?.["x402/price"]).toEqual({
      amount: "0.001",
      currency: "USD",
    });

    const unpaid = (await client.callTool({ name: "defiTvl", arguments: { limit: 2 } })) as Result;
    expect(unpaid.isError).toBe(true);
    const payer = new x402Client();
    payer.register("eip155:*", new ExactEvmScheme(privateKeyToAccount(generatePrivateKey())));
    const payment = await payer.createPaymentPayload(unpaid.structuredContent as unknown as PaymentRequired);

    const paid = (await client.callTool({
      name: "defiTvl",
      arguments: { limit: 2 },
      _meta: { "x402/payment": payment },
    })) as Result;
    expect(paid.isError).toBeFalsy();
    expect(paid.structuredContent).toMatchObject({ signal: expect.any(String), data: expect.any(Object) });
    expect(paid._meta?.["x402/payment-response"]).toMatchObject({ success: true, network: payment.accepted.network });
  });

  it("uses the paying bridge over stdio", async () => {
    const client = await connected(
      new StdioClientTransport({
        command: process.execPath,
        args: ["--import", "tsx", "scripts/mcp.ts", "--base-url", service.origin, "--network", "skale"],
        env: { PATH: process.env.PATH ?? "", X402_EVM_PRIVATE_KEY: generatePrivateKey() },
        stderr: "pipe",
      }),
    );
    const result = (await client.callTool({ name: "lpPools", arguments: { limit: 2 } })) as Result;
    expect(result.isError, JSON.stringify(result.structuredContent)).toBeFalsy();
    expect(result._meta?.["x402/payment-response"]).toMatchObject({ success: true, network: "eip155:324705682" });
  });
});
