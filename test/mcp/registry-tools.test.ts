// The registry's read operations as free MCP tools, as the official MCP SDK client (1.x line) meets them over
// streamable HTTP: one tool per operation, each answering what its HTTP GET answers for the same arguments.
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testApp } from "../support/registry.js";

let origin: string;
let close: () => Promise<void>;
let client: Client;

beforeAll(async () => {
  const { app, store } = await testApp();
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = async () => {
    await new Promise((resolve) => server.close(resolve));
    await store.close();
  };
  client = new Client({ name: "registry-tools-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`)));
});
afterAll(async () => {
  await client?.close();
  await close?.();
});

const call = (name: string, args: Record<string, unknown>) =>
  client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
const get = async (path: string) => (await fetch(`${origin}${path}`)).json();

describe("the registry's MCP tools", () => {
  it("lists one free, read-only tool per read operation", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      ["agentExists", "getManifest", "identityCard", "listAgents", "listSkills", "primaryAlias"].sort(),
    );
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint).toBe(true);
      expect(JSON.stringify(tool.inputSchema)).not.toContain("$ref");
    }
  });

  it("answers each tool with what its GET answers for the same arguments", async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ["listAgents", { limit: 2 }, "/api/agents?limit=2"],
      ["listAgents", {}, "/api/agents"],
      ["agentExists", { name: "meme-oracle" }, "/api/agents/meme-oracle/exists"],
      ["primaryAlias", { name: "meme-oracle" }, "/api/agent/primary-alias/meme-oracle"],
      ["listSkills", {}, "/api/skills"],
    ];
    for (const [name, args, path] of cases) {
      const result = await call(name, args);
      expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
      expect(result.structuredContent).toEqual(await get(path));
    }
  });

  it("refuses bad arguments naming the field, and an unknown agent with the HTTP answer's code", async () => {
    const bad = await call("listAgents", { limit: 1000 });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toMatchObject({
      error: "invalid_request",
      errors: [expect.objectContaining({ field: "limit" })],
    });
    const missing = await call("primaryAlias", {});
    expect(missing.structuredContent).toMatchObject({ errors: [expect.objectContaining({ field: "name" })] });
    const unknown = await call("primaryAlias", { name: "no-such-agent-here" });
    expect(unknown.isError).toBe(true);
    const { request_id: _, ...answered } = (await get("/api/agent/primary-alias/no-such-agent-here")) as Record<
      string,
      unknown
    >;
    expect(unknown.structuredContent).toEqual(answered);
  });
});
