// The two x402 versions' wire forms around one payment: which header is read, how a v2 payment's
// `accepted` is held against the offer field by field, what it opens into, and each version's receipt.
import { describe, expect, it } from "vitest";
import { offerFor } from "../../../../test/support/analytics.js";
import { loadAnalyticsConfig } from "../../../config/analytics.js";
import { loadAnalyticsContract } from "../../contract/analytics-contract.js";
import { acceptedMismatch, encodeHeader, openSubmission, readSubmission, receiptHeader } from "./protocols.js";
import { requirementTemplate } from "./requirements.js";

const contract = loadAnalyticsContract();
const config = loadAnalyticsConfig({}, contract.developmentDefaults);
const routeAt = (path: string) =>
  contract.paid.find((r) => r.path === path && r.method === "post") ?? (undefined as never);
const offerOf = (path: string) =>
  offerFor({ ...requirementTemplate(routeAt(path), config), resource: `http://127.0.0.1${path}` });
const base = offerOf("/base/defi/tvl");
const solana = offerOf("/defi/tvl");
const payload = { signature: "0x00", authorization: { from: "0x01" } };
const decode = (header: string) => JSON.parse(Buffer.from(header, "base64").toString("utf8"));

describe("readSubmission", () => {
  const headers = (values: Record<string, string>) => (name: string) => values[name];
  it("reads PAYMENT-SIGNATURE as v2 and X-PAYMENT as v1, and neither as none", () => {
    expect(readSubmission(headers({ "PAYMENT-SIGNATURE": "a" }))).toEqual({ kind: "payment", version: 2, header: "a" });
    expect(readSubmission(headers({ "X-PAYMENT": "b" }))).toEqual({ kind: "payment", version: 1, header: "b" });
    expect(readSubmission(headers({}))).toEqual({ kind: "none" });
  });
  it("refuses to choose between two payments", () => {
    expect(readSubmission(headers({ "PAYMENT-SIGNATURE": "a", "X-PAYMENT": "b" }))).toEqual({ kind: "both" });
  });
});

describe("the v2 offer", () => {
  it("is the v1 requirement with the CAIP-2 network and `amount`, nothing else changed", () => {
    const { v1, v2 } = base;
    expect(v2).toEqual({
      scheme: "exact",
      network: "eip155:84532",
      amount: v1.maxAmountRequired,
      asset: v1.asset,
      payTo: v1.payTo,
      maxTimeoutSeconds: v1.maxTimeoutSeconds,
      extra: v1.extra,
    });
    expect(solana.v2).toMatchObject({
      network: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
      extra: { feePayer: config.feePayer },
    });
  });
});

describe("acceptedMismatch", () => {
  it("accepts the offer unchanged, and extra fields a client adds to `extra`", () => {
    expect(acceptedMismatch(base.v2, base.v2)).toBeUndefined();
    expect(acceptedMismatch({ ...base.v2, extra: { ...base.v2.extra, clientNote: 1 } }, base.v2)).toBeUndefined();
  });
  const changes: [string, Record<string, unknown>][] = [
    ["accepted.scheme", { scheme: "upto" }],
    ["accepted.network", { network: "eip155:8453" }],
    ["accepted.amount", { amount: "1" }],
    ["accepted.amount", { amount: 1000 }],
    ["accepted.asset", { asset: "0x0000000000000000000000000000000000000001" }],
    ["accepted.payTo", { payTo: "0x0000000000000000000000000000000000000002" }],
    ["accepted.maxTimeoutSeconds", { maxTimeoutSeconds: 3600 }],
    ["accepted.extra.name", { extra: { name: "Other", version: "2" } }],
    ["accepted.extra.version", { extra: { name: "USDC" } }],
    ["accepted.extra.name", { extra: undefined }],
  ];
  for (const [field, change] of changes)
    it(`names ${field} when ${JSON.stringify(change)}`, () => {
      expect(acceptedMismatch({ ...base.v2, ...change }, base.v2)).toBe(field);
    });
  it("names `accepted` itself when it is not an object", () => {
    for (const accepted of [undefined, null, "exact", [base.v2]])
      expect(acceptedMismatch(accepted, base.v2)).toBe("accepted");
  });
});

describe("openSubmission", () => {
  it("opens a v2 payment into the v1 form of the route's network", () => {
    const header = encodeHeader({
      x402Version: 2,
      accepted: base.v2,
      payload,
      resource: { url: "x" },
      extensions: { bazaar: {} },
    });
    expect(openSubmission({ version: 2, header }, base)).toEqual({
      ok: true,
      payment: { x402Version: 1, scheme: "exact", network: "base-sepolia", payload },
    });
  });
  it("passes a v1 payment on as decoded: its version, scheme and network are the verifier's to check", () => {
    const v1 = { x402Version: 1, scheme: "exact", network: "base-sepolia", payload };
    expect(openSubmission({ version: 1, header: encodeHeader(v1) }, base)).toEqual({ ok: true, payment: v1 });
  });
  it("refuses a PAYMENT-SIGNATURE of another version, and an `accepted` that is not the offer, naming the field", () => {
    const v1Inside = encodeHeader({ x402Version: 1, scheme: "exact", network: "base-sepolia", payload });
    expect(openSubmission({ version: 2, header: v1Inside }, base)).toMatchObject({
      ok: false,
      malformed: false,
      reason: "invalid_x402_version",
    });
    const otherRoute = encodeHeader({ x402Version: 2, accepted: solana.v2, payload });
    const refused = openSubmission({ version: 2, header: otherRoute }, base);
    expect(refused).toMatchObject({ ok: false, malformed: false, reason: "invalid_payment_requirements" });
    expect(refused.ok || refused.message).toContain("accepted.network");
  });
  it("answers a header that is not base64 JSON as malformed, not as a refused payment, in either version", () => {
    for (const version of [1, 2] as const)
      expect(openSubmission({ version, header: "not base64!" }, base)).toEqual({
        ok: false,
        malformed: true,
        message: "is not base64",
      });
  });
});

describe("receiptHeader", () => {
  const receipt = {
    success: true,
    transaction: "0xtx",
    network: "base-sepolia" as const,
    payer: "0xpayer",
    amount: "1000",
  };
  it("writes the v1 receipt in X-PAYMENT-RESPONSE, as before v2", () => {
    const [name, value] = receiptHeader(1, receipt, "eip155:84532");
    expect(name).toBe("X-PAYMENT-RESPONSE");
    expect(decode(value)).toEqual({ success: true, transaction: "0xtx", network: "base-sepolia", payer: "0xpayer" });
  });
  it("writes the v2 receipt in PAYMENT-RESPONSE with the CAIP-2 network and the amount", () => {
    const [name, value] = receiptHeader(2, { ...receipt, simulated: true }, "eip155:84532");
    expect(name).toBe("PAYMENT-RESPONSE");
    expect(decode(value)).toEqual({
      success: true,
      transaction: "0xtx",
      network: "eip155:84532",
      payer: "0xpayer",
      amount: "1000",
      simulated: true,
    });
  });
});
