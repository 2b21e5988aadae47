// Paid MCP tools, as an agent meets them: the official MCP SDK client (1.x line) over streamable HTTP against
// `npm start`'s service (embedded ledger settlement, in-memory ledger), paying with the x402 v2 client's own payload
// (`@x402/core`'s x402Client with the SDK's exact EVM scheme) in `params._meta["x402/payment"]`.
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { x402Client } from "@x402/core/client";
import type { PaymentRequired } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import {
  decodeSignedOffers,
  extractOffersFromPaymentRequired,
  extractReceiptPayload,
  findAcceptsObjectFromSignedOffer,
  type JWSSignedOffer,
  type JWSSignedReceipt,
  type SignedReceipt,
  verifyOfferSignatureJWS,
  verifyReceiptMatchesOffer,
  verifyReceiptSignatureJWS,
} from "@x402/extensions/offer-receipt";
import { appendPaymentIdentifierToExtensions, generatePaymentId } from "@x402/extensions/payment-identifier";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NETWORKS } from "../../lib/networks.js";
import { loadAnalyticsContract } from "../../server/analytics/contract/analytics-contract.js";
import { createAnalyticsService } from "../../server/analytics/service.js";
import { loadAnalyticsConfig } from "../../server/config/analytics.js";
import { createLogger } from "../../server/http/logger.js";
import { PAYMENT_STATUS_TOOLS } from "../../server/mcp/payment-status-tools.js";
import { listen, type Running } from "../support/x402-clients.js";

const contract = loadAnalyticsContract();
type OfferReceipt = { "offer-receipt": { info: { receipt: SignedReceipt } } };
const OPERATIONS = [...new Set(contract.paid.map((route) => route.name))];
let service: Running;
let client: Client;

beforeAll(async () => {
  const started = await createAnalyticsService(loadAnalyticsConfig({ LEDGER_DB: ":memory:" }), {
    logger: createLogger("silent"),
  });
  service = await listen(started.app, started.ledger, started.close);
  client = new Client({ name: "paid-tools-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${service.origin}/mcp`)));
});
afterAll(async () => {
  await client?.close();
  await service?.close();
});

const payer = () => {
  const payments = new x402Client();
  payments.register("eip155:*", new ExactEvmScheme(privateKeyToAccount(generatePrivateKey())));
  return payments;
};

const call = (name: string, args: Record<string, unknown>, payment?: unknown) =>
  client.callTool({
    name,
    arguments: args,
    ...(payment === undefined ? {} : { _meta: { "x402/payment": payment } }),
  }) as Promise<CallToolResult>;

async function paymentFor(name: string, args: Record<string, unknown>) {
  const unpaid = await call(name, args);
  return payer().createPaymentPayload(unpaid.structuredContent as unknown as PaymentRequired);
}

const settled = async () => (await service.ledger.rows()).filter((row) => row.status === "settled");

describe("tools/list", () => {
  it("lists one tool per paid operation, self-contained, read-only, priced, within the context budget", async () => {
    const { tools: listed } = await client.listTools();
    const tools = listed.filter((tool) => !(PAYMENT_STATUS_TOOLS as readonly string[]).includes(tool.name));
    expect(tools.map((tool) => tool.name).sort()).toEqual([...OPERATIONS].sort());
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      expect(JSON.stringify(tool.inputSchema)).not.toContain("$ref");
      expect(JSON.stringify(tool.outputSchema)).not.toContain("$ref");
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
      const route = contract.paid.find((r) => r.name === tool.name);
      expect(tool._meta?.["x402/price"]).toEqual({ amount: route?.payment.price.amount, currency: "USD" });
      expect(tool.description).toContain(`${route?.payment.price.amount} USD per call`);
      for (const signal of route?.signals ?? []) expect(tool.description).toContain(signal);
    }
    // docs/mcp.md: at about four characters a token, 12,000 tokens for the paid tools, 400 for the two lookups
    expect(JSON.stringify({ tools }).length).toBeLessThanOrEqual(48_000);
    expect(JSON.stringify({ tools: listed }).length).toBeLessThanOrEqual(49_600);
  });

  it("lists the two payment lookups beside them, free (no price) and read-only", async () => {
    const lookups = (await client.listTools()).tools.filter((tool) => tool.name.startsWith("paymentStatus"));
    expect(lookups.map((tool) => tool.name)).toEqual([...PAYMENT_STATUS_TOOLS]);
    for (const tool of lookups) {
      expect(tool._meta?.["x402/price"]).toBeUndefined();
      expect(tool.annotations).toMatchObject({ readOnlyHint: true });
      expect(tool.description).toContain("Free");
    }
  });
});

describe("an unpaid call", () => {
  it("answers the x402 v2 PaymentRequired for every network, naming the tool, in structuredContent and as JSON text", async () => {
    const result = await call("defiTvl", { limit: 2 });
    expect(result.isError).toBe(true);
    const required = result.structuredContent as unknown as PaymentRequired & {
      extensions: { bazaar: { info: { input: object } } };
    };
    expect(required.x402Version).toBe(2);
    expect(required.resource.url).toBe("mcp://tool/defiTvl");
    expect(required.accepts.map((a) => a.network).sort()).toEqual(NETWORKS.map((n) => n.testnet.caip2).sort());
    expect(new Set(required.accepts.map((a) => a.payTo)).size).toBe(2);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(required);
    expect(required.extensions.bazaar.info.input).toMatchObject({
      type: "mcp",
      toolName: "defiTvl",
      transport: "streamable-http",
    });
    // x402's payment-identifier, declared optional as on HTTP
    expect((required.extensions as Record<string, { info: unknown }>)["payment-identifier"]?.info).toEqual({
      required: false,
    });
    expect(await settled()).toHaveLength(0);
  });

  it("with bad arguments is a tool error naming each field, before any payment is read", async () => {
    const result = await call("defiTvl", { limit: "three", extra: 1 }, { x402Version: 2, not: "a payment" });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: "invalid_request" });
    const { errors } = result.structuredContent as { errors: { field: string }[] };
    const fields = errors.map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(["limit", "extra"]));
    expect(await service.ledger.rows()).toHaveLength(0);
  });
});

describe("a paid call", () => {
  it("answers the envelope with its settlement, once; the same payment again gets the same answer, never a second charge", async () => {
    const args = { limit: 3 };
    const payment = await paymentFor("defiTvl", args);
    const before = (await settled()).length;
    const first = await call("defiTvl", args, payment);
    expect(first.isError, JSON.stringify(first.content)).toBeFalsy();
    expect(first.structuredContent).toMatchObject({ signal: expect.any(String), confidence: expect.any(Number) });
    const receipt = first._meta?.["x402/payment-response"] as Record<string, unknown>;
    expect(receipt).toMatchObject({
      success: true,
      network: payment.accepted.network,
      amount: payment.accepted.amount,
    });
    expect(JSON.parse((first.content[0] as { text: string }).text)).toEqual(first.structuredContent);

    const again = await call("defiTvl", args, payment);
    expect(again.structuredContent).toEqual(first.structuredContent);
    expect(again._meta?.["x402/payment-response"]).toEqual(receipt);
    const rows = await settled();
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({ transaction: receipt.transaction, transport: "mcp", endpoint: "defiTvl" });
  });

  it("refuses the same payment for other arguments or another tool, with the reason, uncharged", async () => {
    const payment = await paymentFor("defiTvl", { limit: 1 });
    expect((await call("defiTvl", { limit: 1 }, payment)).isError).toBeFalsy();
    const count = (await settled()).length;
    for (const [name, args] of [
      ["defiTvl", { limit: 2 }],
      ["lpPools", {}],
    ] as const) {
      const refused = await call(name, args, payment);
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toMatchObject({
        x402Version: 2,
        error: expect.stringMatching(/nonce|requirements|used/),
      });
    }
    expect(await settled()).toHaveLength(count);
  });

  it("is one payment whichever transport brought it: paid over HTTP, the same payment over MCP gets that answer", async () => {
    const args = { limit: 4 };
    const payment = await paymentFor("defiTvl", args);
    const http = await fetch(`${service.origin}/base/defi/tvl`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "PAYMENT-SIGNATURE": Buffer.from(JSON.stringify(payment)).toString("base64"),
      },
      body: JSON.stringify(args),
    });
    expect(http.status).toBe(200);
    const receipt = JSON.parse(Buffer.from(http.headers.get("payment-response") ?? "", "base64").toString("utf8"));
    const count = (await settled()).length;
    const mcp = await call("defiTvl", args, payment);
    expect(mcp.structuredContent).toEqual(await http.json());
    // the same settlement; its signed receipt names the resource each transport paid for, at the answer's one time
    const paid = mcp._meta as Record<string, { extensions: OfferReceipt }>;
    const { extensions, ...settlement } = paid["x402/payment-response"] as { extensions: OfferReceipt };
    const { extensions: httpExtensions, ...httpSettlement } = receipt;
    expect(settlement).toEqual(httpSettlement);
    const signed = (ext: OfferReceipt) => extractReceiptPayload(ext["offer-receipt"].info.receipt);
    expect(signed(extensions)).toEqual({ ...signed(httpExtensions), resourceUrl: "mcp://tool/defiTvl" });
    const rows = await settled();
    expect(rows).toHaveLength(count);
    expect(rows.find((row) => row.transaction === receipt.transaction)?.transport).toBe("http");
  });

  it("refuses a payment that is not one, with a PaymentRequired naming why", async () => {
    const result = await call("defiTvl", {}, { x402Version: 2, accepted: { network: "eip155:84532" }, payload: {} });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ x402Version: 2, error: "invalid_payment_requirements" });
  });
});

describe("a paid call whose every model attempt fails", () => {
  it("is a result like HTTP's 206, the data with null insight, charged the same way", async () => {
    const model = createServer((_req, res) =>
      res.writeHead(503, { "content-type": "application/json" }).end('{"error":"down"}'),
    );
    await new Promise<void>((resolve) => model.listen(0, "127.0.0.1", resolve));
    const env = {
      LEDGER_DB: ":memory:",
      INSIGHT_BASE_URL: `http://127.0.0.1:${(model.address() as AddressInfo).port}`,
      INSIGHT_ATTEMPTS: "1",
    };
    const started = await createAnalyticsService(loadAnalyticsConfig(env), { logger: createLogger("silent") });
    const degraded = await listen(started.app, started.ledger, started.close);
    const agent = new Client({ name: "paid-tools-test", version: "1.0.0" });
    try {
      await agent.connect(new StreamableHTTPClientTransport(new URL(`${degraded.origin}/mcp`)));
      const unpaid = (await agent.callTool({ name: "defiTvl", arguments: {} })) as CallToolResult;
      const payment = await payer().createPaymentPayload(unpaid.structuredContent as unknown as PaymentRequired);
      const paid = (await agent.callTool({
        name: "defiTvl",
        arguments: {},
        _meta: { "x402/payment": payment },
      })) as CallToolResult;
      expect(paid.isError).toBeFalsy();
      expect(paid.structuredContent).toMatchObject({
        insight: null,
        model_used: null,
        data: expect.any(Object),
        signal: expect.any(String),
      });
      const receipt = paid._meta?.["x402/payment-response"] as { success: boolean; transaction: string };
      expect(receipt.success).toBe(true);
      const rows = (await degraded.ledger.rows()).filter((row) => row.status === "settled");
      expect(rows.map((row) => row.transaction)).toEqual([receipt.transaction]);
    } finally {
      await agent.close();
      await degraded.close();
      await new Promise((resolve) => model.close(resolve));
    }
  });
});

describe("the endpoint", () => {
  it("answers a tool call the same whether the SDK's transport answers it or not", async () => {
    // a single tools/call is answered directly (server/mcp/direct-tool-call.ts); the same call in a batch, by the SDK
    const message = {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "defiTvl", arguments: { limit: 5 } },
    };
    const post = async (body: unknown) => {
      const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
      const res = await fetch(`${service.origin}/mcp`, { method: "POST", headers, body: JSON.stringify(body) });
      return (await res.json()) as { result: { isError?: boolean } };
    };
    // The signed offers name their validity in whole seconds: a pair of calls that straddles a second is taken again.
    const pair = async () => {
      const second = Math.floor(Date.now() / 1000);
      const answers = [await post(message), await post([message])] as const;
      return { answers, sameSecond: Math.floor(Date.now() / 1000) === second };
    };
    let taken = await pair();
    for (let attempt = 1; attempt < 3 && !taken.sameSecond; attempt++) taken = await pair();
    const [direct, bySdk] = taken.answers;
    expect(direct.result.isError).toBe(true);
    // (the SDK answers a batch of one as a single message)
    expect(direct).toEqual(Array.isArray(bySdk) ? bySdk[0] : bySdk);
  });

  it("behind a trusted proxy, answers the public name the proxy forwards, and still refuses another", async () => {
    const env = { LEDGER_DB: ":memory:", PUBLIC_BASE_URL: "https://api.example.com", TRUST_PROXY: "loopback" };
    const started = await createAnalyticsService(loadAnalyticsConfig(env), { logger: createLogger("silent") });
    const proxied = await listen(started.app, started.ledger, started.close);
    try {
      const headers = {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "x-forwarded-proto": "https",
      };
      const body = JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "defiTvl", arguments: {} },
      });
      const as = (host: string) =>
        fetch(`${proxied.origin}/mcp`, { method: "POST", headers: { ...headers, "x-forwarded-host": host }, body });
      const forwarded = await as("api.example.com");
      expect(forwarded.status).toBe(200);
      expect(
        ((await forwarded.json()) as { result: { structuredContent: { x402Version: number } } }).result
          .structuredContent.x402Version,
      ).toBe(2);
      expect((await as("evil.example")).status).toBe(403);
    } finally {
      await proxied.close();
    }
  });

  it("answers a tool it does not have with a protocol error", async () => {
    await expect(client.callTool({ name: "noSuchTool", arguments: {} })).rejects.toThrow(/noSuchTool/);
  });

  it("refuses a Host or Origin that is not the service's, and GET, before any protocol", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const foreignOrigin = await fetch(`${service.origin}/mcp`, {
      method: "POST",
      body,
      headers: { ...headers, origin: "https://evil.example" },
    });
    expect(foreignOrigin.status).toBe(403);
    const port = new URL(service.origin).port;
    const { request } = await import("node:http");
    const foreignHost = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port,
          path: "/mcp",
          method: "POST",
          headers: { ...headers, host: `attacker.example:${port}` },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end(body);
    });
    expect(foreignHost).toBe(403);
    const get = await fetch(`${service.origin}/mcp`, { headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });
});

/** The key of the service's /.well-known/did.json, as x402's verifiers take it. */
async function publicKey() {
  const did = (await (await fetch(`${service.origin}/.well-known/did.json`)).json()) as {
    verificationMethod: { publicKeyJwk: object }[];
  };
  return did.verificationMethod[0]?.publicKeyJwk as NonNullable<Parameters<typeof verifyOfferSignatureJWS>[1]>;
}

// Signed offers and receipts (x402's offer-receipt extension), checked with @x402/extensions' own verifiers.
describe("a paid tool's offers and receipt", () => {
  it("sign every network of the PaymentRequired, and the paid call's receipt, which a repeat gets unchanged", async () => {
    const args = { limit: 2 };
    const required = (await call("defiTvl", args)).structuredContent as unknown as PaymentRequired;
    const offers = extractOffersFromPaymentRequired(required) as JWSSignedOffer[];
    expect(offers).toHaveLength(required.accepts.length);
    for (const [index, offer] of offers.entries()) {
      expect(await verifyOfferSignatureJWS(offer, await publicKey())).toMatchObject({
        resourceUrl: "mcp://tool/defiTvl",
      });
      expect(findAcceptsObjectFromSignedOffer(offer, required.accepts)).toEqual(required.accepts[index]);
    }

    const account = privateKeyToAccount(generatePrivateKey());
    const payments = new x402Client();
    payments.register("eip155:*", new ExactEvmScheme(account));
    const payment = await payments.createPaymentPayload(required);
    const paid = await call("defiTvl", args, payment);
    expect(paid.isError, JSON.stringify(paid.content)).toBeFalsy();
    const settlement = paid._meta?.["x402/payment-response"] as {
      extensions: { "offer-receipt": { info: { receipt: JWSSignedReceipt } } };
    };
    const receipt = settlement.extensions["offer-receipt"].info.receipt;
    // the answer's text is the body a receipt binds, as over HTTP
    const text = (paid.content as { text: string }[])[0]?.text as string;
    expect(await verifyReceiptSignatureJWS(receipt, await publicKey())).toMatchObject({
      version: 2,
      resourceUrl: "mcp://tool/defiTvl",
      network: payment.accepted.network,
      payer: account.address,
      issuedAt: Math.floor(Date.parse((paid.structuredContent as { timestamp: string }).timestamp) / 1000),
      responseHash: `0x${createHash("sha256").update(text, "utf8").digest("hex")}`,
      responseHashEncoding: "raw",
    });
    const offered = decodeSignedOffers(offers).find((offer) => offer.network === payment.accepted.network);
    expect(offered && verifyReceiptMatchesOffer(receipt, offered, [account.address])).toBe(true);

    const again = await call("defiTvl", args, payment);
    expect(again._meta?.["x402/payment-response"]).toEqual(settlement);
  });
});

describe("asking about a payment", () => {
  it("tells a tool's purchase by its identifier, settled with the identical receipt, and charges nothing", async () => {
    const args = { limit: 5 };
    const payment = await paymentFor("defiTvl", args);
    const id = generatePaymentId();
    payment.extensions = appendPaymentIdentifierToExtensions(payment.extensions ?? {}, id);
    const paid = await call("defiTvl", args, payment);
    expect(paid.isError, JSON.stringify(paid.content)).toBeFalsy();
    const settlement = paid._meta?.["x402/payment-response"] as {
      transaction: string;
      extensions: { "offer-receipt": { info: { receipt: JWSSignedReceipt } } };
    };
    const network = NETWORKS.find((n) => n.testnet.caip2 === payment.accepted.network)?.name as string;
    const count = (await settled()).length;

    const status = await call("paymentStatus", { network, id });
    expect(status.isError, JSON.stringify(status.content)).toBeFalsy();
    expect(status.structuredContent).toMatchObject({ status: "settled", transaction: settlement.transaction });
    const receipt = (status.structuredContent as { receipt: JWSSignedReceipt }).receipt;
    expect(receipt).toEqual(settlement.extensions["offer-receipt"].info.receipt);
    expect(await verifyReceiptSignatureJWS(receipt, await publicKey())).toMatchObject({
      resourceUrl: "mcp://tool/defiTvl",
    });

    const byTransaction = await call("paymentStatusByTransaction", { network, transaction: settlement.transaction });
    expect(byTransaction.structuredContent).toMatchObject({ status: "settled" });
    expect(byTransaction.structuredContent).not.toHaveProperty("receipt");
    const unknown = await call("paymentStatus", { network, id: generatePaymentId() });
    expect(unknown.isError).toBe(true);
    expect(unknown.structuredContent).toMatchObject({ error: "not_found" });
    const invalid = await call("paymentStatus", { network: "moon", id });
    expect(invalid.structuredContent).toMatchObject({ error: "invalid_request" });
    expect(await settled()).toHaveLength(count);
  });
});
