// The paid operations as MCP tools (`/mcp`), on every target: one tool per paid operation, taking its POST body
// (the same schema, self-contained); and, for each tool on each selected prefix's network, x402's MCP flow with the
// official MCP SDK client: unpaid → the PaymentRequired offering that network; paid → the envelope, valid against
// the operation's 200 schema, with a successful settlement; the same payment again → the same answer and settlement;
// a payment that does not pay the offer → refused with a PaymentRequired naming why. On the in-process server a
// tool's data is its POST's for the same arguments.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { findNetwork } from "../lib/networks.js";
import { plainSchema } from "../server/schemas/plain-schema.js";
import { DOCS, type PaidCase, paidCases, title } from "./cases.js";
import type { PaymentRequiredV2 } from "./checks.js";
import { send, withHeaders } from "./http.js";
import { createPayer } from "./payer.js";
import { createResponseValidator } from "./schema-validator.js";
import { caseTest, settings, useTarget } from "./suite.js";

const url = useTarget({ analytics: true });
const pay = await createPayer();
const contract = createResponseValidator(DOCS.analytics);
const cases = paidCases(settings.prefixes).filter((c) => !c.legacy);
let client: Client;

beforeAll(async () => {
  client = new Client({ name: "defi-intel-conformance", version: "1.0.0" });
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

/** The requirement of the case's network in a tool's PaymentRequired (the testnet's or the mainnet's, as deployed). */
function requirementOf(required: PaymentRequiredV2, c: PaidCase) {
  return required.accepts.find((r) =>
    [c.prefix.testnet, c.prefix.mainnet].includes(findNetwork(r.network)?.details.network ?? ""),
  );
}

/** A v2 PaymentPayload object paying that requirement, signed as the suite signs a header. */
async function paymentFor(required: PaymentRequiredV2, c: PaidCase) {
  const accepted = requirementOf(required, c);
  if (!accepted) throw new Error(`${c.label}: the tool offers no requirement on ${c.prefix.name}`);
  const network = findNetwork(accepted.network)?.details.network as string;
  const v1 = {
    ...accepted,
    network,
    maxAmountRequired: accepted.amount,
    resource: required.resource.url,
    description: "",
    mimeType: "application/json",
  };
  const header = await pay(v1 as never);
  const { payload } = JSON.parse(Buffer.from(header, "base64").toString("utf8"));
  return { x402Version: 2, resource: required.resource, accepted, payload };
}

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
      expect(required.x402Version, c.label).toBe(2);
      expect(required.resource.url, c.label).toBe(`mcp://tool/${toolOf(c)}`);
      expect(requirementOf(required, c), `${c.label}: a requirement on ${c.prefix.name}`).toBeDefined();
      expect(JSON.parse((result.content[0] as { text: string }).text), c.label).toEqual(required);
    });

    caseTest(title(c, "MCP paid · envelope, settlement, the same again"), ["mcp", "paid"], async () => {
      const required = (await call(c)).structuredContent as unknown as PaymentRequiredV2;
      const payment = await paymentFor(required, c);
      const paid = await call(c, payment);
      expect(paid.isError, `${c.label}: ${JSON.stringify(paid.structuredContent)}`).toBeFalsy();
      expect(contract.validate("POST", c.template, 200, paid.structuredContent), c.label).toEqual([]);
      const receipt = paid._meta?.["x402/payment-response"] as { success?: boolean; network?: string } | undefined;
      expect(receipt, c.label).toMatchObject({ success: true, network: payment.accepted.network });
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
