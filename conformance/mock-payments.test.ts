import { describe, expect, it } from "vitest";
import { offerAt } from "../server/analytics/payments/x402/requirements.js";
import { DOCS, type PaidCase, paidCases } from "./cases.js";
import { checkChallenge, checkChallengeV2, decodeHeader, Findings } from "./checks.js";
import * as mock from "./mock-payments.js";
import { checkSignedOffers, checkSignedReceipt, type PublishedKeys } from "./signatures.js";
import { ALL_PREFIXES } from "./targets.js";

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");
/** A request's headers as the front reads them. */
const headers =
  (values: Record<string, string> = {}) =>
  (name: string) =>
    values[name.toLowerCase()];

const route = mock.mockRoutes().find((r) => r.route.operationId === "Base_defiTvl");
if (!route) throw new Error("no Base_defiTvl route");
const resource = "http://127.0.0.1:4010/base/defi/tvl";
const offer = offerAt(route.offer, resource);
/** The mock's key, as its /.well-known/did.json lists it at 127.0.0.1:4010. */
const mockKeys: PublishedKeys = new Map([
  [`did:web:127.0.0.1%3A4010#${mock.mockConfig().receipts?.fragment}`, mock.mockConfig().receipts?.publicJwk as never],
]);
const evm = { signature: "0xabc", authorization: { from: "0x1111111111111111111111111111111111111111" } };
const v1 = { x402Version: 1, scheme: "exact", network: "base-sepolia", payload: evm };
const v2 = { x402Version: 2, accepted: offer.v2, payload: evm, resource: { url: resource } };

describe("the mock's payment reading", () => {
  it("tells a missing header from a malformed one, in either header, and refuses both at once", () => {
    expect(mock.readPayment(headers(), offer)).toEqual({ kind: "none" });
    expect(mock.readPayment(headers({ "x-payment": "not base64!" }), offer)).toEqual({
      kind: "malformed",
      headers: ["X-PAYMENT"],
      message: "is not base64",
    });
    expect(mock.readPayment(headers({ "payment-signature": "" }), offer)).toMatchObject({
      kind: "malformed",
      headers: ["PAYMENT-SIGNATURE"],
    });
    expect(
      mock.readPayment(headers({ "payment-signature": encode(v2), "x-payment": encode(v1) }), offer),
    ).toMatchObject({
      kind: "malformed",
      headers: ["PAYMENT-SIGNATURE", "X-PAYMENT"],
    });
  });

  it("refuses another version, scheme or network, and a payload that names no payer", () => {
    const paid = (value: unknown) => mock.readPayment(headers({ "x-payment": encode(value) }), offer);
    expect(paid({ ...v1, x402Version: 2 })).toMatchObject({ kind: "refused", reason: "invalid_x402_version" });
    expect(paid({ ...v1, scheme: "upto" })).toMatchObject({ kind: "refused", reason: "unsupported_scheme" });
    expect(paid({ ...v1, network: "base" })).toMatchObject({ kind: "refused", reason: "invalid_network" });
    expect(paid({ ...v1, payload: {} })).toMatchObject({ kind: "refused", reason: "invalid_payload" });
    expect(paid(v1)).toEqual({ kind: "paid", version: 1, network: "base-sepolia", payer: evm.authorization.from });
  });

  it("reads a v2 payment whose accepted is the offer (extra may hold more), and refuses any other", () => {
    const paid = (value: unknown) => mock.readPayment(headers({ "payment-signature": encode(value) }), offer);
    expect(paid(v2)).toEqual({ kind: "paid", version: 2, network: "base-sepolia", payer: evm.authorization.from });
    expect(paid({ ...v2, accepted: { ...offer.v2, extra: { ...offer.v2.extra, client: "own" } } })).toMatchObject({
      kind: "paid",
    });
    expect(paid({ ...v2, x402Version: 1 })).toMatchObject({ kind: "refused", reason: "invalid_x402_version" });
    const cheaper = paid({ ...v2, accepted: { ...offer.v2, amount: "1" } });
    expect(cheaper).toMatchObject({ kind: "refused", reason: "invalid_payment_requirements" });
    expect((cheaper as { message: string }).message).toContain("accepted.amount");
    expect(paid({ ...v2, accepted: { ...offer.v2, network: "eip155:8453" } })).toMatchObject({
      reason: "invalid_payment_requirements",
    });
    expect(paid({ ...v2, payload: {} })).toMatchObject({ kind: "refused", reason: "invalid_payload" });
  });
});

describe("the mock's answers", () => {
  const c = paidCases(ALL_PREFIXES).find((p) => p.operationId === "Base_defiTvl") as PaidCase;
  const example = DOCS.analytics.paths[c.template]?.post?.responses["402"]?.content?.["application/json"]?.example;
  const contract = example as Parameters<typeof mock.challengeAnswer>[0];

  it("answers the contract's challenge at the mock's origin in both versions, as the suite requires of the service", async () => {
    const answer = mock.challengeAnswer(contract, offer, route.offer);
    expect(answer.headers["Cache-Control"]).toBe("no-store");
    const challenge = decodeHeader(answer.headers["PAYMENT-REQUIRED"] as string);
    expect(challenge).toMatchObject({
      x402Version: 2,
      error: "Payment required",
      resource: { url: resource },
      accepts: [offer.v2],
    });
    const f = new Findings("mock challenge");
    const sent = {
      status: answer.status,
      headers: new Headers(answer.headers),
      contentType: "application/json",
      text: JSON.stringify(answer.body),
      json: answer.body,
    };
    checkChallenge(f, c, sent, "http://127.0.0.1:4010");
    const v2 = checkChallengeV2(f, c, sent);
    // its offers signed with the mock's fixed key, as the suite's signatures check verifies them
    if (v2) await checkSignedOffers(f, v2, mockKeys, Date.now());
    expect(f.problems).toEqual([]);
    expect(decodeHeader(answer.headers["PAYMENT-REQUIRED"] as string)).toHaveProperty([
      "extensions",
      "offer-receipt",
      "info",
      "offers",
    ]);
  });

  it("names a refusal's reason in both versions", () => {
    const refused = mock.challengeAnswer(contract, offer, route.offer, {
      reason: "invalid_network",
      message: "wrong network",
    });
    expect(refused.body).toMatchObject({ error: "invalid_network", message: "wrong network" });
    expect(decodeHeader(refused.headers["PAYMENT-REQUIRED"] as string).error).toBe("invalid_network");
  });

  it("answers a malformed header like the service, naming it (or both)", () => {
    expect(mock.malformedAnswer({ headers: ["X-PAYMENT"], message: "is not base64" }).body).toEqual({
      error: "invalid_payload",
      message: "X-PAYMENT: is not base64",
      errors: [{ location: "header", field: "X-PAYMENT", message: "is not base64" }],
    });
    const both = mock.malformedAnswer({ headers: ["PAYMENT-SIGNATURE", "X-PAYMENT"], message: "one at a time" })
      .body as {
      errors: unknown[];
    };
    expect(both.errors).toEqual([
      { location: "header", field: "PAYMENT-SIGNATURE", message: "one at a time" },
      { location: "header", field: "X-PAYMENT", message: "one at a time" },
    ]);
  });

  it("settles with a decodable mock receipt in the header of the version paid in", () => {
    const paid = { network: "base-sepolia", payer: "0x1" };
    const v1Receipt = mock.mockReceipt({ ...paid, version: 1 }, offer);
    expect(Object.keys(v1Receipt)).toEqual(["X-PAYMENT-RESPONSE"]);
    const receipt = decodeHeader(v1Receipt["X-PAYMENT-RESPONSE"] as string);
    expect(receipt).toMatchObject({ success: true, network: "base-sepolia", payer: "0x1", simulated: true });
    expect(receipt.transaction).toMatch(/^mock-settlement-/);

    const v2Receipt = mock.mockReceipt({ ...paid, version: 2 }, offer);
    expect(Object.keys(v2Receipt)).toEqual(["PAYMENT-RESPONSE"]);
    expect(decodeHeader(v2Receipt["PAYMENT-RESPONSE"] as string)).toMatchObject({
      success: true,
      network: "eip155:84532",
      amount: "1000",
      payer: "0x1",
      simulated: true,
    });
  });

  it("signs a v2 receipt with its fixed key, at the answer's time; the key is the one it publishes", async () => {
    const timestamp = "2026-01-02T03:04:05.000Z";
    const signing = { receipts: route.offer.receipts, answerBody: JSON.stringify({ data: [], timestamp }) };
    const settlement = decodeHeader(
      mock.mockReceipt({ network: "base-sepolia", payer: "0x1", version: 2 }, offer, signing)[
        "PAYMENT-RESPONSE"
      ] as string,
    );
    const f = new Findings("mock receipt");
    await checkSignedReceipt(f, settlement, mockKeys, { resourceUrl: resource, timestamp, body: signing.answerBody });
    expect(f.problems).toEqual([]);
    // judged: a receipt for another resource, time or body, or under a key the target does not publish
    const judged = new Findings("judged");
    await checkSignedReceipt(judged, settlement, mockKeys, {
      resourceUrl: `${resource}?x=1`,
      timestamp: "2026-01-02T03:04:06.000Z",
      body: JSON.stringify({ data: [1], timestamp }),
    });
    await checkSignedReceipt(judged, settlement, new Map(), { resourceUrl: resource, timestamp });
    expect(judged.problems.map((p) => p.field)).toEqual([
      "PAYMENT-RESPONSE.extensions.offer-receipt.info.receipt.payload.resourceUrl",
      "PAYMENT-RESPONSE.extensions.offer-receipt.info.receipt.payload.issuedAt",
      "PAYMENT-RESPONSE.extensions.offer-receipt.info.receipt.payload.responseHash",
      "PAYMENT-RESPONSE.extensions.offer-receipt.info.receipt.signature",
    ]);
    expect(JSON.parse(mock.MOCK_RECEIPT_KEY).x).toBe(mock.mockConfig().receipts?.publicJwk.x);
    const v1Receipt = decodeHeader(
      mock.mockReceipt({ network: "base-sepolia", payer: "0x1", version: 1 }, offer, signing)[
        "X-PAYMENT-RESPONSE"
      ] as string,
    );
    expect(v1Receipt).not.toHaveProperty("extensions");
  });
});

describe("the mock's closed bodies", () => {
  const post = mock.mockRoutes().find((r) => r.route.operationId === "Base_defiTvl")?.route;
  const get = mock.mockRoutes().find((r) => r.route.operationId === "Base_defiTvlLegacy")?.route;
  if (!post || !get) throw new Error("no Base_defiTvl routes");
  it("names each field the operation does not have as the service does", () => {
    expect(mock.unknownFieldErrors(post, { limit: 3, limt: 3, chian: "all" })).toEqual([
      { location: "body", field: "limt", message: "is not a field of this request" },
      { location: "body", field: "chian", message: "is not a field of this request" },
    ]);
  });

  it("lets the operation's own fields, an empty body and a GET's query through (Prism answers those)", () => {
    for (const value of [{ chain: "all", limit: 3, protocol: "aave" }, {}])
      expect(mock.unknownFieldErrors(post, value)).toEqual([]);
    expect(mock.unknownFieldErrors(get, { limt: 3 })).toEqual([]);
  });
});

describe("the mock's challenge to an unpaid request whose input breaks the contract", () => {
  const routed = mock.mockRoutes().find((r) => r.route.operationId === "Base_defiTvl");
  if (!routed) throw new Error("no Base_defiTvl route");
  const errors = [{ location: "body" as const, field: "limt", message: "is not a field of this request" }];

  it("says to fix the fields before paying, in the service's sentence", () => {
    const { message } = mock.inputToFix(routed, errors);
    expect(message).toMatch(/^Fix limt \(is not a field of this request\) before paying: /);
    expect(message).toContain("0.001 USD in USDC on base-sepolia");
  });

  it("is the challenge with the fields in its body, the v2 header the plain challenge", () => {
    const offer = offerAt(routed.offer, "http://127.0.0.1:4010/base/defi/tvl");
    const body = { x402Version: 1, error: "X-PAYMENT header is required", message: "Pay", accepts: [offer.v1] };
    const answer = mock.challengeAnswer(body as never, offer, routed.offer, undefined, mock.inputToFix(routed, errors));
    expect(answer.status).toBe(402);
    expect(answer.body).toMatchObject({ error: "X-PAYMENT header is required", errors });
    const v2 = decodeHeader(answer.headers["PAYMENT-REQUIRED"] as string) as { error: string; errors?: unknown };
    expect(v2.error).toBe("Payment required");
    expect(v2).not.toHaveProperty("errors");
  });
});
