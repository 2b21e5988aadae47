// The paid operations as MCP tools (`/mcp`), on every target: one tool per paid operation, taking its POST body
// (the same schema, self-contained); and, for each tool on each selected prefix's network, x402's MCP flow with the
// official MCP SDK client: unpaid → the PaymentRequired offering that network; paid → the envelope, valid against
// the operation's 200 schema, with a successful settlement; the same payment again → the same answer and settlement;
// a payment that does not pay the offer → refused with a PaymentRequired naming why. On the in-process server a
// tool's data is its POST's for the same arguments. Beside that 2025-era flow, MCP 2026-07-28 by hand
// (mcp-current.ts): `server/discover` advertising x402's extension `org.x402/payment`, `tools/list`'s caching hints,
// the revision's refusals carrying the request's id, and each tool unpaid and paid on x402's two bindings: the
// extension's (`resultType: "payment_required"`) for a client advertising it, the tool-result binding
// (`resultType: "complete"`) for one that does not.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect } from "vitest";
import {
  CURRENT_REVISION,
  namesExtension,
  RPC_ERROR,
  SERVER_INFO_META,
  VERSION_META,
  X402_EXTENSION,
} from "../lib/mcp-revision.js";
import { plainSchema } from "../server/schemas/plain-schema.js";
import { DOCS, type PaidCase, paidCases, title } from "./cases.js";
import type { PaymentRequiredV2 } from "./checks.js";
import { send, withHeaders } from "./http.js";
import { CONFORMANCE_CLIENT, type CurrentOptions, currentRequest } from "./mcp-current.js";
import { createPayer, paymentPayload, requirementOn } from "./payer.js";
import { createResponseValidator } from "./schema-validator.js";
import { caseTest, settings, useTarget } from "./suite.js";

const url = useTarget({ analytics: true });
const pay = await createPayer();
const contract = createResponseValidator(DOCS.analytics);
const cases = paidCases(settings.prefixes).filter((c) => !c.legacy);
let client: Client;

beforeAll(async () => {
  client = new Client(CONFORMANCE_CLIENT);
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url("analyticsUrl")}/mcp`)));
});
afterAll(() => client?.close());

const toolOf = (c: PaidCase) => c.operationId.slice(c.operationId.indexOf("_") + 1);
const call = async (c: PaidCase, payment?: unknown) =>
  (await client.callTool({
    name: toolOf(c),
    arguments: c.request.body as Record<string, unknown>,
    ...(payment === undefined ? {} : { _meta: { "x402/payment": payment } }),
  })) as CallToolResult;

/** A tool's PaymentRequired for the case: x402 v2, the tool's resource, a requirement on the case's network. */
function expectRequired(required: PaymentRequiredV2 | undefined, c: PaidCase, label = c.label) {
  expect(required?.x402Version, `${label}: ${JSON.stringify(required)}`).toBe(2);
  expect(required?.resource.url, label).toBe(`mcp://tool/${toolOf(c)}`);
  expect(requirementOn(required as PaymentRequiredV2, c), `${label}: a requirement on ${c.prefix.name}`).toBeDefined();
}

/** A paid tool result: the envelope, valid against the operation's 200 schema, and a successful settlement. */
function expectPaid(paid: CallToolResult, c: PaidCase, network: string, label = c.label) {
  expect(paid.isError, `${label}: ${JSON.stringify(paid.structuredContent)}`).toBeFalsy();
  expect(contract.validate("POST", c.template, 200, paid.structuredContent), label).toEqual([]);
  const receipt = paid._meta?.["x402/payment-response"] as { success?: boolean; network?: string } | undefined;
  expect(receipt, label).toMatchObject({ success: true, network });
  return receipt;
}

/** A v2 PaymentPayload object paying the case's network's requirement, signed as the suite signs a header. */
const paymentFor = (required: PaymentRequiredV2, c: PaidCase) => paymentPayload(pay, required, c);

describe(`MCP tools on ${settings.kind}`, () => {
  caseTest("tools/list · one tool per paid operation, taking its POST body", "mcp", async () => {
    const { tools } = await client.listTools();
    const names = [
      ...new Set(
        paidCases(settings.prefixes)
          .filter((c) => !c.legacy)
          .map(toolOf),
      ),
    ];
    expect(tools.map((tool) => tool.name).sort()).toEqual(expect.arrayContaining(names.sort()));
    for (const c of cases) {
      const tool = tools.find((t) => t.name === toolOf(c));
      const body = (
        DOCS.analytics.paths[c.template]?.post as { requestBody?: { content: Record<string, { schema: unknown }> } }
      )?.requestBody;
      expect(tool?.inputSchema, `${c.label}: the tool's input schema`).toEqual(
        plainSchema(DOCS.analytics, body?.content["application/json"]?.schema),
      );
    }
  });

  for (const c of cases) {
    caseTest(title(c, "MCP unpaid · PaymentRequired"), "mcp", async () => {
      const result = await call(c);
      expect(result.isError, c.label).toBe(true);
      const required = result.structuredContent as unknown as PaymentRequiredV2;
      expectRequired(required, c);
      expect(JSON.parse((result.content[0] as { text: string }).text), c.label).toEqual(required);
    });

    caseTest(title(c, "MCP paid · envelope, settlement, the same again"), ["mcp", "paid"], async () => {
      const required = (await call(c)).structuredContent as unknown as PaymentRequiredV2;
      const payment = await paymentFor(required, c);
      const paid = await call(c, payment);
      const receipt = expectPaid(paid, c, payment.accepted.network);
      if (settings.kind === "prism") return; // the mock remembers no payment: the same payment twice is answered twice
      const again = await call(c, payment);
      expect(again.structuredContent, `${c.label}: the same payment again`).toEqual(paid.structuredContent);
      expect(again._meta?.["x402/payment-response"], c.label).toEqual(receipt);
    });

    caseTest(title(c, "MCP refused · a payment that does not pay the offer"), "mcp", async () => {
      const required = (await call(c)).structuredContent as unknown as PaymentRequiredV2;
      const payment = await paymentFor(required, c);
      const refused = await call(c, { ...payment, accepted: { ...payment.accepted, amount: "1" } });
      expect(refused.isError, c.label).toBe(true);
      expect(refused.structuredContent, c.label).toMatchObject({
        x402Version: 2,
        error: "invalid_payment_requirements",
      });
    });

    caseTest(title(c, "MCP data · the same as its POST's"), ["mcp", "paid", "mcpSameData"], async () => {
      const required = (await call(c)).structuredContent as unknown as PaymentRequiredV2;
      const tool = await call(c, await paymentFor(required, c));
      const challenge = await send(url("analyticsUrl"), c.request, settings.timeoutMs);
      const header = await pay((challenge.json as { accepts: never[] }).accepts[0] as never);
      const http = await send(url("analyticsUrl"), withHeaders(c.request, { "X-PAYMENT": header }), settings.timeoutMs);
      expect((tool.structuredContent as { data?: unknown }).data, c.label).toEqual(
        (http.json as { data?: unknown }).data,
      );
    });
  }
});

/** A request of MCP 2026-07-28 to the target's `/mcp`. */
const current = (method: string, params: Record<string, unknown> = {}, options: CurrentOptions = {}) =>
  currentRequest(`${url("analyticsUrl")}/mcp`, settings.timeoutMs, method, params, options);

/** The case's tool called on 2026-07-28: its result, the client advertising x402's extension or not. */
async function currentCall(c: PaidCase, advertise: boolean, payment?: unknown) {
  const params = {
    name: toolOf(c),
    arguments: c.request.body,
    ...(payment !== undefined && { _meta: { "x402/payment": payment } }),
  };
  const { status, id, message } = await current("tools/call", params, { advertise });
  const label = `${c.label} (2026-07-28, ${advertise ? "extension advertised" : "extension not advertised"})`;
  expect(status, `${label}: ${JSON.stringify(message)}`).toBe(200);
  expect(message?.id, label).toBe(id);
  expect(message?.result, `${label}: ${JSON.stringify(message)}`).toBeDefined();
  return { result: message?.result, label };
}

/** A refusal of the revision: a JSON-RPC error of `code` carrying the request's id, with `status`. */
async function expectRefusal(answer: ReturnType<typeof current>, status: number, code: number, what: string) {
  const { status: sent, id, message } = await answer;
  expect(message?.error?.code, `${what}: ${JSON.stringify(message)}`).toBe(code);
  expect(message?.id, `${what}: the request's id`).toBe(id);
  expect(sent, what).toBe(status);
  return message?.error;
}

describe(`MCP 2026-07-28 on ${settings.kind}`, () => {
  caseTest("2026-07-28 server/discover · the revision, tools, org.x402/payment, the server", "mcp", async () => {
    const { status, id, message } = await current("server/discover");
    expect(status, JSON.stringify(message)).toBe(200);
    expect(message?.id).toBe(id);
    const result = message?.result;
    expect(result?.resultType).toBe("complete");
    expect(result?.supportedVersions).toContain(CURRENT_REVISION);
    expect(result?.capabilities?.tools, "the tools capability").toBeTypeOf("object");
    expect(namesExtension(result?.capabilities, X402_EXTENSION), `the ${X402_EXTENSION} extension`).toBe(true);
    expect(result?._meta?.[SERVER_INFO_META]?.name, "the server's name").toBeTypeOf("string");
  });

  caseTest("2026-07-28 tools/list · resultType, ttlMs and cacheScope, the 2025 era's tools", "mcp", async () => {
    const { status, message } = await current("tools/list");
    expect(status, JSON.stringify(message)).toBe(200);
    const result = message?.result;
    expect(result?.resultType).toBe("complete");
    expect(result?.ttlMs, "ttlMs").toBeTypeOf("number");
    expect(result?.ttlMs).toBeGreaterThanOrEqual(0);
    expect(["public", "private"], "cacheScope").toContain(result?.cacheScope);
    const { tools } = await client.listTools();
    const names = ((result?.tools ?? []) as { name: string }[]).map((tool) => tool.name);
    expect(names.sort(), "the same tools in both eras").toEqual(tools.map((tool) => tool.name).sort());
  });

  caseTest("2026-07-28 refusals · JSON-RPC errors carrying the request's id", "mcp", async () => {
    await expectRefusal(current("tools/list", {}, { meta: null }), 400, RPC_ERROR.invalidParams, "no _meta");
    const mismatch = current("tools/list", {}, { headers: { "Mcp-Method": "tools/call" } });
    await expectRefusal(mismatch, 400, RPC_ERROR.headerMismatch, "Mcp-Method disagreeing with the body");
    const other = "2099-01-01";
    const meta = { [VERSION_META]: other, "io.modelcontextprotocol/clientCapabilities": {} };
    const unsupported = current("tools/list", {}, { meta, headers: { "MCP-Protocol-Version": other } });
    const error = await expectRefusal(unsupported, 400, RPC_ERROR.unsupportedVersion, "a revision not served");
    expect(error?.data, "the revisions served and the one requested").toMatchObject({ requested: other });
    expect(error?.data?.supported).toContain(CURRENT_REVISION);
    await expectRefusal(current("initialize"), 404, RPC_ERROR.methodNotFound, "initialize, gone from the revision");
  });

  for (const c of cases) {
    caseTest(title(c, "MCP 2026-07-28 unpaid · payment_required, or the tool-result binding"), "mcp", async () => {
      const extension = await currentCall(c, true);
      expect(extension.result.resultType, extension.label).toBe("payment_required");
      expectRequired(extension.result.paymentRequired, c, extension.label);
      const toolResult = await currentCall(c, false);
      expect(toolResult.result.resultType, toolResult.label).toBe("complete");
      expect(toolResult.result.isError, toolResult.label).toBe(true);
      expectRequired(toolResult.result.structuredContent, c, toolResult.label);
      expect(JSON.parse(toolResult.result.content[0].text), toolResult.label).toEqual(
        toolResult.result.structuredContent,
      );
    });

    caseTest(title(c, "MCP 2026-07-28 paid · on each binding, envelope and settlement"), ["mcp", "paid"], async () => {
      for (const advertise of [true, false]) {
        const unpaid = (await currentCall(c, advertise)).result;
        const required = advertise ? unpaid.paymentRequired : unpaid.structuredContent;
        const payment = await paymentFor(required, c);
        const { result, label } = await currentCall(c, advertise, payment);
        expect(result.resultType, `${label}: ${JSON.stringify(result)}`).toBe("complete");
        expectPaid(result, c, payment.accepted.network, label);
      }
    });
  }
});
