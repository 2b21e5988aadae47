// The payment lookup tools over any lookup: a pending payment's answer says when to ask again, an unreachable ledger is
// the contract's 503 body as a tool error, arguments are checked before anything is looked up, and every other tool is
// the wrapped server's.
import { describe, expect, it } from "vitest";
import { loadAnalyticsContract } from "../analytics/contract/analytics-contract.js";
import type { LookUpPayment } from "../analytics/free/payment-status.js";
import { StoreUnavailable } from "../db/unavailable.js";
import { withPaymentStatusTools } from "./payment-status-tools.js";
import type { ToolServer } from "./streamable-endpoint.js";

const { document } = loadAnalyticsContract();
const paid: ToolServer = {
  name: "paid",
  version: "1",
  instructions: "Paid tools.",
  tools: [{ name: "defiTvl", inputSchema: { type: "object" } }],
  call: async ({ name }) => ({ content: [{ type: "text", text: `paid ${name}` }] }),
};
const pending = {
  status: "pending",
  stage: "settling",
  network: "base-sepolia",
  amount: "1000",
  retry_after: 7,
  message: "In progress.",
} as const;

const toolsOver = (lookUp: LookUpPayment) => withPaymentStatusTools(paid, document, lookUp, "http://localhost:4021");
const call = (server: ToolServer, name: string, args: Record<string, unknown>) =>
  server.call({ name, arguments: args, requestId: "r" });

describe("the payment lookup tools", () => {
  it("answer a pending payment with when to ask again, looked up on the network named", async () => {
    const asked: unknown[] = [];
    const server = toolsOver(async (...args) => {
      asked.push(args);
      return { found: true, body: pending, retryAfter: 7 };
    });
    const result = await call(server, "paymentStatus", { network: "base", id: "pay_0123456789abcdef" });
    expect(result?.isError).toBeFalsy();
    expect(result?.structuredContent).toEqual(pending);
    expect(asked).toEqual([["base", { identifier: "pay_0123456789abcdef" }, "http://localhost:4021"]]);
  });

  it("answer an unreachable ledger with the contract's 503 body, and bad arguments before any lookup", async () => {
    let looked = 0;
    const server = toolsOver(async () => {
      looked++;
      throw new StoreUnavailable("ledger");
    });
    const down = await call(server, "paymentStatusByTransaction", { network: "solana", transaction: "0xabcdef0123" });
    expect(down).toMatchObject({ isError: true, structuredContent: { error: "service_unavailable" } });
    for (const args of [
      { network: "moon", transaction: "0xabcdef0123" },
      { network: "base", transaction: "no spaces allowed" },
      { network: "base", transaction: "0xabcdef0123", extra: 1 },
    ]) {
      const refused = await call(server, "paymentStatusByTransaction", args);
      expect(refused).toMatchObject({ isError: true, structuredContent: { error: "invalid_request" } });
    }
    expect(looked).toBe(1);
  });

  it("list themselves after the wrapped server's tools and hand it every other call", async () => {
    const server = toolsOver(async () => ({ found: false, message: "none" }));
    expect(server.tools.map((tool) => tool.name)).toEqual(["defiTvl", "paymentStatus", "paymentStatusByTransaction"]);
    expect(await call(server, "defiTvl", {})).toEqual({ content: [{ type: "text", text: "paid defiTvl" }] });
  });
});
