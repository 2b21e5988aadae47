import { describe, expect, it } from "vitest";
import { challengeAnswer, malformedAnswer, readPayment, receiptHeader } from "./mock-payments.js";

const header = (value: unknown) => ({ "x-payment": Buffer.from(JSON.stringify(value)).toString("base64") });
const evm = { signature: "0xabc", authorization: { from: "0x1111111111111111111111111111111111111111" } };
const asked = { network: "base-sepolia" };

describe("the mock's payment reading", () => {
  it("tells a missing header from a malformed one", () => {
    expect(readPayment({}, asked)).toEqual({ kind: "none" });
    expect(readPayment({ "x-payment": "not base64!" }, asked)).toEqual({ kind: "malformed", message: "is not base64" });
  });

  it("refuses another version, scheme or network, and a payload that names no payer", () => {
    const paid = { x402Version: 1, scheme: "exact", network: "base-sepolia", payload: evm };
    expect(readPayment(header({ ...paid, x402Version: 2 }), asked)).toMatchObject({ kind: "refused", reason: "invalid_x402_version" });
    expect(readPayment(header({ ...paid, scheme: "upto" }), asked)).toMatchObject({ kind: "refused", reason: "unsupported_scheme" });
    expect(readPayment(header({ ...paid, network: "base" }), asked)).toMatchObject({ kind: "refused", reason: "invalid_network" });
    expect(readPayment(header({ ...paid, payload: {} }), asked)).toMatchObject({ kind: "refused", reason: "invalid_payload" });
    expect(readPayment(header(paid), asked)).toEqual({ kind: "paid", network: "base-sepolia", payer: evm.authorization.from });
  });
});

describe("the mock's answers", () => {
  const contract = {
    x402Version: 1 as const,
    error: "X-PAYMENT header is required" as const,
    message: "Pay 0.001 USD",
    accepts: [{ resource: "http://localhost:4021/base/defi/tvl", network: "base-sepolia" }],
  } as unknown as Parameters<typeof challengeAnswer>[0];

  it("puts the requested URL at the mock's origin in the challenge, and the refusal's reason", () => {
    const plain = challengeAnswer(contract, "http://127.0.0.1:4010/base/defi/tvl");
    expect(plain).toMatchObject({
      status: 402,
      body: { error: "X-PAYMENT header is required", accepts: [{ resource: "http://127.0.0.1:4010/base/defi/tvl" }] },
    });
    const refused = challengeAnswer(contract, "http://127.0.0.1:4010/base/defi/tvl", {
      reason: "invalid_network",
      message: "wrong network",
    });
    expect(refused.body).toMatchObject({ error: "invalid_network", message: "wrong network" });
  });

  it("answers a malformed header like the service, and settles with a decodable mock receipt", () => {
    expect(malformedAnswer("is not base64").body).toEqual({
      error: "invalid_payload",
      message: "X-PAYMENT: is not base64",
      errors: [{ location: "header", field: "X-PAYMENT", message: "is not base64" }],
    });
    const receipt = JSON.parse(
      Buffer.from(receiptHeader({ network: "base-sepolia", payer: "0x1" })["X-PAYMENT-RESPONSE"] as string, "base64").toString(),
    );
    expect(receipt).toMatchObject({ success: true, network: "base-sepolia", payer: "0x1", simulated: true });
    expect(receipt.transaction).toMatch(/^mock-settlement-/);
  });
});
