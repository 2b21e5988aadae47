// The paying bridge (`npm run mcp`) on MCP's current revision, 2026-07-28, on both of its sides. Toward the host: the
// official 2.x client (`@modelcontextprotocol/client`) pinned to the revision over stdio, and a hand-written exchange
// of the revision's wire, beside the 1.x client of the 2025 era; `--confirm` asks through `input_required`. Toward
// the service: x402's extension binding when `server/discover` offers it, else the tool-result binding, on the
// current revision or the 2025 era; a recording proxy in front of `npm start`'s service shows what was sent.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { generateKeyPairSigner } from "@solana/kit";
import { generatePrivateKey } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAnalyticsService } from "../../server/analytics/service.js";
import { loadAnalyticsConfig } from "../../server/config/analytics.js";
import { createLogger } from "../../server/http/logger.js";
import { listen, type Running } from "../support/x402-clients.js";

const REVISION = "2026-07-28";
const EXTENSION = "org.x402/payment";
const CAIP2 = { base: "eip155:84532", solana: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1" } as const;
type Network = keyof typeof CAIP2;
// biome-ignore lint/suspicious/noExplicitAny: JSON-RPC messages, read field by field
type Json = any;
type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; _meta?: Record<string, unknown> };

/** What the service offers through the proxy: everything; the current revision without x402's extension; the 2025 era only. */
type Offer = "extension" | "no-extension" | "2025-only";
interface Proxy {
  origin: string;
  /** Every JSON-RPC exchange with the service, in order. */
  seen: { request: Json; response: Json }[];
}

let service: Running;
const stops: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  const started = await createAnalyticsService(loadAnalyticsConfig({ LEDGER_DB: ":memory:" }), {
    logger: createLogger("silent"),
  });
  service = await listen(started.app, started.ledger, started.close);
});
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
  await service?.close();
});

/** A proxy to the service's `/mcp` that records each exchange and, for `offer`, rewrites what `server/discover` says. */
async function proxy(offer: Offer): Promise<Proxy> {
  const seen: Proxy["seen"] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const request = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
    if (request?.method === "server/discover" && offer === "2025-only") {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: request.id, error: { code: -32601, message: "Method not found" } }));
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([name]) => !["host", "content-length", "connection"].includes(name)),
    ) as Record<string, string>;
    const upstream = await fetch(`${service.origin}${req.url}`, {
      method: req.method,
      headers,
      ...(chunks.length && { body: Buffer.concat(chunks) }),
    });
    let text = await upstream.text();
    const response = /^\s*\{/.test(text) ? JSON.parse(text) : undefined;
    if (request?.method === "server/discover" && offer === "no-extension" && response?.result) {
      delete response.result.capabilities.extensions;
      text = JSON.stringify(response);
    }
    if (request?.method) seen.push({ request, response });
    const forwarded = Object.fromEntries([...upstream.headers].filter(([name]) => name !== "content-length"));
    res.writeHead(upstream.status, forwarded);
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  stops.push(() => new Promise((resolve) => server.close(resolve)));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** The bridge's command line and environment for `network`, paying through `origin`. */
async function bridgeCommand(origin: string, network: Network, options: string[] = []) {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "" };
  if (network === "base") env.X402_EVM_PRIVATE_KEY = generatePrivateKey();
  else {
    const signer = await generateKeyPairSigner(true);
    const secret = new Uint8Array(await crypto.subtle.exportKey("pkcs8", signer.keyPair.privateKey)).slice(-32);
    const publicKey = new Uint8Array(await crypto.subtle.exportKey("raw", signer.keyPair.publicKey));
    env.X402_SOLANA_SECRET_KEY = JSON.stringify([...secret, ...publicKey]);
  }
  const args = ["--import", "tsx", "scripts/mcp.ts", "--base-url", origin, "--network", network, ...options];
  return { command: process.execPath, args, env, stderr: "pipe" as const };
}

/** A 2026-07-28 host: the 2.x client pinned to the revision, answering elicitations with `answer` when given. */
async function currentHost(origin: string, network: Network, options: string[] = [], answer?: (m: string) => boolean) {
  const client = new ClientV2(
    { name: "host-2026", version: "1.0.0" },
    { capabilities: answer ? { elicitation: {} } : {}, versionNegotiation: { mode: { pin: REVISION } } },
  );
  if (answer)
    client.setRequestHandler("elicitation/create", async (request) =>
      answer(request.params.message) ? { action: "accept", content: { pay: true } } : { action: "decline" },
    );
  await client.connect(new StdioV2(await bridgeCommand(origin, network, options)));
  stops.push(() => client.close());
  return client;
}

/** A 2025-era host: the 1.x client over stdio, `initialize` first. */
async function legacyHost(origin: string, network: Network) {
  const client = new ClientV1({ name: "host-2025", version: "1.0.0" });
  await client.connect(new StdioV1(await bridgeCommand(origin, network)));
  stops.push(() => client.close());
  return client;
}

const toolCalls = (seen: Proxy["seen"]) => seen.filter(({ request }) => request.method === "tools/call");
const paymentOf = (request: Json) => request.params._meta?.["x402/payment"];

/** A paid answer on `network`, its settlement the only one of its payer in the ledger. */
async function expectPaidOnce(result: Result, network: Network) {
  expect(result.isError, JSON.stringify(result)).toBeFalsy();
  expect(result.structuredContent).toMatchObject({ signal: expect.any(String) });
  const receipt = result._meta?.["x402/payment-response"] as { success: boolean; payer: string; network: string };
  expect(receipt).toMatchObject({ success: true, network: CAIP2[network] });
  const rows = (await service.ledger.rows()).filter((row) => row.payer === receipt.payer);
  expect(rows.map((row) => row.status)).toEqual(["settled"]);
}

describe("the bridge toward a 2026-07-28 host, paying over x402's extension binding", () => {
  for (const network of ["base", "solana"] as const)
    it(`lists the tools and pays a call on ${network}: payment_required from the service, one payment`, async () => {
      const { origin, seen } = await proxy("extension");
      const host = await currentHost(origin, network);
      expect((await host.listTools()).tools.map((tool) => tool.name)).toContain("defiTvl");
      await expectPaidOnce((await host.callTool({ name: "defiTvl", arguments: { limit: 2 } })) as Result, network);

      const calls = toolCalls(seen);
      expect(calls).toHaveLength(2);
      const [unpaid, paid] = calls;
      for (const { request } of calls)
        expect(request.params._meta).toMatchObject({
          "io.modelcontextprotocol/protocolVersion": REVISION,
          "io.modelcontextprotocol/clientCapabilities": { extensions: { [EXTENSION]: {} } },
        });
      expect(paymentOf(unpaid?.request)).toBeUndefined();
      expect(unpaid?.response.result).toMatchObject({
        resultType: "payment_required",
        paymentRequired: { x402Version: 2 },
      });
      expect(paymentOf(paid?.request).accepted.network).toBe(CAIP2[network]);
      expect(paid?.response.result.resultType).toBe("complete");
    });
});

describe("the bridge toward a 2025-era host, and toward services without the extension", () => {
  it("serves a 1.x host (initialize over stdio) and pays a call on Solana", async () => {
    const { origin } = await proxy("extension");
    const host = await legacyHost(origin, "solana");
    expect((await host.listTools()).tools.length).toBeGreaterThan(0);
    await expectPaidOnce((await host.callTool({ name: "defiTvl", arguments: { limit: 1 } })) as Result, "solana");
  });

  it("pays over the tool-result binding on 2026-07-28 when server/discover does not offer the extension", async () => {
    const { origin, seen } = await proxy("no-extension");
    const host = await currentHost(origin, "base");
    await expectPaidOnce((await host.callTool({ name: "defiTvl", arguments: { limit: 2 } })) as Result, "base");
    const [unpaid, paid] = toolCalls(seen);
    expect(unpaid?.request.params._meta["io.modelcontextprotocol/clientCapabilities"]).toEqual({});
    expect(unpaid?.response.result).toMatchObject({ resultType: "complete", isError: true });
    expect(paymentOf(paid?.request)).toMatchObject({ x402Version: 2 });
  });

  it("pays over the tool-result binding on the 2025 era when the service does not answer server/discover", async () => {
    const { origin, seen } = await proxy("2025-only");
    const host = await currentHost(origin, "base");
    await expectPaidOnce((await host.callTool({ name: "defiTvl", arguments: { limit: 2 } })) as Result, "base");
    expect(seen.map(({ request }) => request.method)).toContain("initialize");
    const [unpaid] = toolCalls(seen);
    expect(unpaid?.request.params._meta).toBeUndefined();
    expect(unpaid?.response.result).not.toHaveProperty("resultType");
  });
});

describe("--confirm on a 2026-07-28 host", () => {
  it("asks through input_required (operation, arguments, price): a yes pays once, a no pays nothing", async () => {
    const { origin, seen } = await proxy("extension");
    const asked: string[] = [];
    let yes = true;
    const host = await currentHost(origin, "base", ["--confirm"], (message) => asked.push(message) > 0 && yes);
    await expectPaidOnce((await host.callTool({ name: "defiTvl", arguments: { limit: 3 } })) as Result, "base");
    expect(asked).toEqual([expect.stringMatching(/Pay 0\.001 USDC on base for defiTvl with \{"limit":3\}/)]);

    yes = false;
    const before = (await service.ledger.rows()).length;
    const declined = (await host.callTool({ name: "defiTvl", arguments: { limit: 1 } })) as Result & { content: Json };
    expect(declined.isError).toBe(true);
    expect(JSON.stringify(declined.content)).toMatch(/declined/);
    expect(asked).toHaveLength(2);
    expect((await service.ledger.rows()).length).toBe(before);
    expect(toolCalls(seen).filter(({ request }) => paymentOf(request))).toHaveLength(1);
  });
});

/** The bridge spoken to by hand, one JSON line each way, as the revision's stdio binding says. */
function rawBridge(child: ChildProcessWithoutNullStreams) {
  const pending = new Map<unknown, (message: Json) => void>();
  createInterface({ input: child.stdout }).on("line", (line) => {
    const message = JSON.parse(line);
    pending.get(message.id)?.(message);
  });
  let nextId = 1;
  return (method: string, params: Json = {}, meta: Json = {}): Promise<Json> => {
    const id = nextId++;
    const _meta = {
      "io.modelcontextprotocol/protocolVersion": REVISION,
      "io.modelcontextprotocol/clientInfo": { name: "raw-host", version: "1.0.0" },
      "io.modelcontextprotocol/clientCapabilities": {},
      ...meta,
    };
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params: { ...params, _meta } })}\n`);
    return new Promise((resolve) => pending.set(id, resolve));
  };
}

describe("the revision's wire on the bridge's stdio", () => {
  let child: ChildProcessWithoutNullStreams;
  let send: ReturnType<typeof rawBridge>;
  let origin: string;

  beforeAll(async () => {
    origin = (await proxy("extension")).origin;
    const { command, args, env } = await bridgeCommand(origin, "base", ["--confirm"]);
    child = spawn(command, args, { env });
    stops.push(async () => child.kill());
    send = rawBridge(child);
  });

  it("answers server/discover and tools/list with resultType and caching hints", async () => {
    const discovered = (await send("server/discover")).result;
    expect(discovered).toMatchObject({
      resultType: "complete",
      capabilities: { tools: {} },
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "defi-intel-bridge" } },
      cacheScope: expect.any(String),
    });
    expect(discovered.supportedVersions).toEqual(expect.arrayContaining([REVISION, "2025-11-25"]));
    expect(discovered.ttlMs).toBeGreaterThanOrEqual(0);
    const listed = (await send("tools/list")).result;
    expect(listed).toMatchObject({ resultType: "complete", ttlMs: 3_600_000, cacheScope: "public" });
    expect(listed.tools.map((tool: Json) => tool.name)).toContain("defiTvl");
  });

  it("refuses a malformed _meta (-32602), another revision (-32022) and an unknown method (-32601), with the id", async () => {
    const malformed = await send("tools/list", {}, { "io.modelcontextprotocol/clientCapabilities": "none" });
    expect(malformed).toMatchObject({ id: expect.any(Number), error: { code: -32602 } });
    const other = await send("tools/list", {}, { "io.modelcontextprotocol/protocolVersion": "2030-01-01" });
    expect(other.error).toMatchObject({ code: -32022, data: { requested: "2030-01-01" } });
    expect((await send("ping")).error.code).toBe(-32601);
  });

  it("under --confirm pays nothing without a yes: a host that cannot ask, a forged or replayed state", async () => {
    const before = (await service.ledger.rows()).length;
    const call = { name: "defiTvl", arguments: { limit: 2 } };
    const unasked = (await send("tools/call", call)).result;
    expect(unasked).toMatchObject({ resultType: "complete", isError: true });
    expect(JSON.stringify(unasked.content)).toMatch(/cannot ask/);

    const asking = { "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } };
    const asked = (await send("tools/call", call, asking)).result;
    expect(asked).toMatchObject({
      resultType: "input_required",
      inputRequests: { confirm_payment: { method: "elicitation/create", params: { mode: "form" } } },
      requestState: expect.any(String),
    });
    const yes = { confirm_payment: { action: "accept", content: { pay: true } } };
    const forged = `${asked.requestState.split(".")[0]}.AAAA`;
    const again = await send("tools/call", { ...call, inputResponses: yes, requestState: forged }, asking);
    expect(again.result.resultType).toBe("input_required");
    const otherArgs = {
      name: "defiTvl",
      arguments: { limit: 3 },
      inputResponses: yes,
      requestState: asked.requestState,
    };
    expect((await send("tools/call", otherArgs, asking)).result.resultType).toBe("input_required");
    expect((await service.ledger.rows()).length).toBe(before);

    const paid = (await send("tools/call", { ...call, inputResponses: yes, requestState: asked.requestState }, asking))
      .result;
    expect(paid).toMatchObject({ resultType: "complete", _meta: { "x402/payment-response": { success: true } } });
    const replayed = await send(
      "tools/call",
      { ...call, inputResponses: yes, requestState: asked.requestState },
      asking,
    );
    expect(replayed.result.resultType).toBe("input_required");
    expect((await service.ledger.rows()).length).toBe(before + 1);
  });
});
