// The paying bridge (`npm run mcp`) as a host that does not pay meets it: the official MCP SDK client (1.x line)
// starts it over stdio, lists the service's tools through it and calls them; the bridge pays each call on its
// network from the key in its environment, under its caps, against `npm start`'s service on a free port.
import { spawnSync } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type CallToolResult, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAnalyticsService } from "../../server/analytics/service.js";
import { loadAnalyticsConfig } from "../../server/config/analytics.js";
import { createLogger } from "../../server/http/logger.js";
import { listen, type Running } from "../support/x402-clients.js";

let service: Running;
const key = generatePrivateKey();
const bridges: { client: Client; errors: Error[] }[] = [];

beforeAll(async () => {
  const started = await createAnalyticsService(loadAnalyticsConfig({ LEDGER_DB: ":memory:" }), {
    logger: createLogger("silent"),
  });
  service = await listen(started.app, started.ledger, started.close);
});
afterAll(async () => {
  for (const { client } of bridges) await client.close();
  await service?.close();
});

/** The bridge as a host starts it: a child process whose stdout must carry the protocol and nothing else. */
async function bridge(
  options: string[] = [],
  answer?: (message: string) => boolean,
): Promise<{ client: Client; errors: Error[] }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["--import", "tsx", "scripts/mcp.ts", "--base-url", service.origin, "--network", "base", ...options],
    env: { PATH: process.env.PATH ?? "", X402_EVM_PRIVATE_KEY: key },
    stderr: "pipe",
  });
  const errors: Error[] = [];
  const client = new Client(
    { name: "host-without-x402", version: "1.0.0" },
    { capabilities: answer ? { elicitation: {} } : {} },
  );
  if (answer)
    client.setRequestHandler(ElicitRequestSchema, ({ params }) =>
      answer(params.message) ? { action: "accept", content: { pay: true } } : { action: "decline" },
    );
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  const started = { client, errors };
  bridges.push(started);
  return started;
}

const settled = async () => (await service.ledger.rows()).filter((row) => row.status === "settled");

describe("the paying bridge over stdio", () => {
  it("serves the service's tools and pays a call on its network, with the receipt, and nothing but protocol on stdout", async () => {
    const { client, errors } = await bridge();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("defiTvl");
    const result = (await client.callTool({ name: "defiTvl", arguments: { limit: 2 } })) as CallToolResult;
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ signal: expect.any(String) });
    const receipt = result._meta?.["x402/payment-response"] as {
      success: boolean;
      payer: string;
      network: string;
      transaction: string;
    };
    expect(receipt).toMatchObject({ success: true, network: "eip155:84532" });
    expect(receipt.payer.toLowerCase()).toBe(privateKeyToAccount(key).address.toLowerCase());
    expect((await settled()).map((row) => row.transaction)).toContain(receipt.transaction);
    expect(errors).toEqual([]);
  });

  it("refuses a call above the per-call cap or the total cap, naming the price and the cap, with nothing signed", async () => {
    const before = (await service.ledger.rows()).length;
    const { client } = await bridge(["--max-per-call", "0.0005"]);
    const capped = (await client.callTool({ name: "defiTvl", arguments: {} })) as CallToolResult;
    expect(capped.isError).toBe(true);
    expect(JSON.stringify(capped.content)).toMatch(/costs 0\.001 USDC, above the per-call cap of 0\.0005 USDC/);

    const total = await bridge(["--max-total", "0.0015"]);
    expect((await total.client.callTool({ name: "defiTvl", arguments: { limit: 1 } })).isError).toBeFalsy();
    const over = (await total.client.callTool({ name: "defiTvl", arguments: { limit: 2 } })) as CallToolResult;
    expect(over.isError).toBe(true);
    expect(JSON.stringify(over.content)).toMatch(/total cap of 0\.0015 USDC/);
    expect((await service.ledger.rows()).length).toBe(before + 1);
  });

  it("with --confirm, asks the person (operation, arguments, price) and pays only when they accept", async () => {
    const asked: string[] = [];
    const yes = await bridge(["--confirm"], (message) => asked.push(message) > 0);
    expect((await yes.client.callTool({ name: "defiTvl", arguments: { limit: 3 } })).isError).toBeFalsy();
    expect(asked).toEqual([expect.stringMatching(/Pay 0\.001 USDC on base for defiTvl with \{"limit":3\}/)]);

    const before = (await service.ledger.rows()).length;
    const no = await bridge(["--confirm"], () => false);
    const declined = (await no.client.callTool({ name: "defiTvl", arguments: {} })) as CallToolResult;
    expect(declined.isError).toBe(true);
    expect(JSON.stringify(declined.content)).toMatch(/declined/);
    const { client } = await bridge(["--confirm"]);
    const unasked = (await client.callTool({ name: "defiTvl", arguments: {} })) as CallToolResult;
    expect(JSON.stringify(unasked.content)).toMatch(/cannot ask/);
    expect((await service.ledger.rows()).length).toBe(before);
  });
});

describe("the bridge's command line", () => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ["--import", "tsx", "scripts/mcp.ts", ...args], {
      encoding: "utf8",
      env: { PATH: process.env.PATH },
    });

  it("prints its usage on --help and exits 0; refuses a missing network, a bad cap or a key on the command line with 2", () => {
    const help = run("--help");
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("--max-per-call");
    for (const args of [
      [],
      ["--network", "ethereum"],
      ["--network", "base", "--max-total", "lots"],
      ["--network", "base", "--private-key", "0x1"],
    ]) {
      const refused = run(...args);
      expect(refused.status, `${args.join(" ")}: ${refused.stderr}`).toBe(2);
      expect(refused.stdout).toBe("");
    }
  });

  it("exits 1 with one line naming the variable when there is no key", () => {
    const started = run("--network", "base");
    expect(started.status).toBe(1);
    expect(started.stderr.trim().split("\n")).toHaveLength(1);
    expect(started.stderr).toContain("X402_EVM_PRIVATE_KEY");
    expect(started.stdout).toBe("");
  });
});
