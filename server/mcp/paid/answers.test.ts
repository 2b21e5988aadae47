import { describe, expect, it } from "vitest";
import type { PaidOutcome } from "../../analytics/paid/outcomes.js";
import { type AnsweredCall, mcpAnswer, mcpAnswerJson } from "./answers.js";

const call: AnsweredCall = {
  challenge: (error) => ({ x402Version: 2, error, resource: { url: "mcp://tool/defiTvl" }, accepts: [] }) as never,
  caip2: "eip155:84532",
  price: "0.001",
  now: 1_000,
};
const receipt = {
  success: true,
  transaction: "0xabc",
  network: "base-sepolia",
  payer: "0xpayer",
  amount: "1000",
} as never;
const OUTCOMES: PaidOutcome[] = [
  {
    kind: "delivered",
    answer: { status: 200, body: '{"data":{"a":"\\"quoted\\""},"signal":"hold"}' },
    receipt,
    replayed: false,
  },
  { kind: "delivered", answer: { status: 206, body: '{"data":[],"insight":null}' }, receipt, replayed: true },
  { kind: "payment_required" },
  { kind: "invalid_input", errors: [{ location: "body", field: "limit", message: "must be integer" }] },
  { kind: "held", stage: "settling", until: 4_500 },
  { kind: "refused", reason: "invalid_exact_evm_payload_signature", detail: "the signature is not the payer's" },
  { kind: "settlement_refused", reason: "insufficient_funds", detail: "no funds", payer: "0xpayer" },
  { kind: "identifier_conflict", identifier: "pay_0123456789abcdef" },
];

describe("a paid tool call's result", () => {
  it("is the same whether written as an object or as JSON text, with or without a signed receipt", () => {
    const signing: AnsweredCall = {
      ...call,
      signReceipt: (response, body) => ({ ...response, signedOver: body }) as never,
    };
    for (const answered of [call, signing])
      for (const outcome of OUTCOMES)
        expect(JSON.parse(mcpAnswerJson(outcome, answered))).toEqual(mcpAnswer(outcome, answered));
    expect(mcpAnswer(OUTCOMES[0] as PaidOutcome, signing)._meta?.["x402/payment-response"]).toMatchObject({
      signedOver: '{"data":{"a":"\\"quoted\\""},"signal":"hold"}',
    });
  });

  it("delivers the envelope with its settlement, and says how long a held payment waits", () => {
    const [delivered] = OUTCOMES;
    const result = mcpAnswer(delivered as PaidOutcome, call);
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ data: { a: '"quoted"' }, signal: "hold" });
    expect(result._meta?.["x402/payment-response"]).toMatchObject({
      success: true,
      transaction: "0xabc",
      network: "eip155:84532",
    });
    expect(mcpAnswer({ kind: "held", stage: "verified", until: 4_500 }, call).structuredContent).toMatchObject({
      error: "payment_in_progress",
      retryAfterSeconds: 4,
    });
  });

  it("withholds the answer when settlement refuses the payment, and reports the failure in the x402 form", () => {
    const result = mcpAnswer(
      { kind: "settlement_refused", reason: "insufficient_funds", detail: "no funds", payer: "0xpayer" },
      call,
    );
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      x402Version: 2,
      error: "insufficient_funds",
      "x402/payment-response": {
        success: false,
        errorReason: "insufficient_funds",
        transaction: "",
        network: "eip155:84532",
      },
    });
    expect(JSON.stringify(result)).not.toContain('"signal"');
    expect(result._meta).toBeUndefined();
  });

  it("names the identifier of a purchase the payment's id is bound to elsewhere, as a tool error charging nothing", () => {
    const result = mcpAnswer({ kind: "identifier_conflict", identifier: "pay_0123456789abcdef" }, call);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      error: "payment_identifier_conflict",
      identifier: "pay_0123456789abcdef",
    });
    expect(result.content[0]).toMatchObject({
      text: expect.stringContaining('extensions["payment-identifier"].info.id'),
    });
  });
});
