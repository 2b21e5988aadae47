// The paying analytics client against the real analytics service (in-process, embedded defaults,
// ledger settlement): all three prefixes over x402 v2 by default, v1 when forced or when the 402
// offers only v1 (a transport hides the v2 challenge), the payment record and receipt of each
// version, caps, pinning and rejections on both versions, HTTP errors, plus type-level checks that
// tsc verifies.
import { generateKeyPairSigner } from "@solana/kit";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { components } from "../generated/types/analytics.js";
import { findNetwork } from "../lib/networks.js";
import { startLocalServices } from "../scripts/local-services.js";
import { editing402, v1Only } from "../test/support/challenge-edits.js";
import { useLocalServices } from "../test/support/local-services.js";
import { type AnalyticsClientOptions, createAnalyticsClient } from "./analytics.js";
import { HttpError, PaymentRefusedError, PaymentRejectedError } from "./errors.js";
import type { X402Network } from "./networks.js";
import { evmPayer, offlineBlockhash, type Payer, solanaPayer } from "./payers.js";
import { challengeHeaderOf } from "./x402/challenge.js";
import { evmExactPayload } from "./x402/evm.js";
import {
  decodeHeader,
  encodePayment,
  type PaymentPayloadV2,
  type PaymentRequiredBody,
  type PaymentRequiredV2,
  termsOf,
} from "./x402/types.js";

const services = useLocalServices();

const account = privateKeyToAccount(generatePrivateKey());
const solanaSigner = await generateKeyPairSigner();

/** A payer that counts its signatures. */
function counting(payer: Payer): Payer & { signed: number } {
  const counted = {
    family: payer.family,
    address: payer.address,
    signed: 0,
    sign(terms: Parameters<Payer["sign"]>[0]) {
      counted.signed++;
      return payer.sign(terms);
    },
  };
  return counted;
}

const evm = () => counting(evmPayer(account));
const svm = () => counting(solanaPayer(solanaSigner, { blockhash: async () => offlineBlockhash() }));
const settledRows = async () => (await services().ledger.rows()).filter((r) => r.status === "settled").length;

function analytics(options: Partial<AnalyticsClientOptions> & Pick<AnalyticsClientOptions, "network" | "payer">) {
  return createAnalyticsClient({ baseUrl: services().analyticsUrl, ...options });
}

const CAIP2 = {
  solana: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
  base: "eip155:84532",
  skale: "eip155:324705682",
} as const;

/** Patches every offer of both challenges; `network` by its v1 name, written as CAIP-2 in the v2 challenge. */
function rewritingOffers(patch: { payTo?: string; asset?: string; network?: X402Network }, from = 0) {
  const { network, ...both } = patch;
  const caip2 = network && findNetwork(network)?.details.caip2;
  return editing402(
    {
      v1: (body) => ({
        ...body,
        accepts: body.accepts.map((offer) => ({ ...offer, ...both, ...(network ? { network } : {}) })),
      }),
      v2: (challenge) => ({
        ...challenge,
        accepts: challenge.accepts.map((offer) => ({
          ...offer,
          ...both,
          ...(caip2 ? { network: caip2 } : {}),
        })) as PaymentRequiredV2["accepts"],
      }),
    },
    from,
  );
}

/** A payer that signs for 1 micro-USDC whatever the price. */
const underpaying: Payer = {
  family: "evm",
  address: account.address,
  sign: (terms) => evmExactPayload(account, terms, { overrides: { value: "1" } }),
};

describe("paying on each prefix (x402 v2 by default)", () => {
  it("pays /defi/tvl at the root on Solana and returns the typed envelope, version, receipt and amount", async () => {
    const payer = svm();
    const client = analytics({ network: "solana", payer });
    const result = await client.call("/defi/tvl", { chain: "all", limit: 3 });
    expect(result.status).toBe(200);
    expect(result.envelope.data.chains.length).toBeLessThanOrEqual(3);
    expect(["high_yield", "medium_yield", "low_yield", "risky"]).toContain(result.envelope.signal);
    expect(result).toMatchObject({
      version: 2,
      paymentHeaderName: "PAYMENT-SIGNATURE",
      requirement: { network: CAIP2.solana, amount: "1000" },
    });
    expect(result.receipt).toEqual({
      success: true,
      transaction: expect.any(String),
      network: CAIP2.solana,
      payer: solanaSigner.address,
      amount: "1000",
      simulated: true,
      extensions: { "offer-receipt": expect.any(Object) },
    });
    expect(result.paid).toBe(1000n);
    expect(client.spent()).toBe(1000n);
    expect(payer.signed).toBe(1);
  });

  it("pays /lp/pools on Base and /trenches/graduating on SKALE, at their contract prices", async () => {
    const base = analytics({ network: "base", payer: evm() });
    const pools = await base.call("/lp/pools", { sort: "tvl", limit: 2 });
    expect(pools.envelope.data.pools).toHaveLength(2);
    expect(pools.receipt).toMatchObject({ success: true, network: CAIP2.base, payer: account.address });
    expect(pools.paid).toBe(BigInt(pools.requirement ? termsOf(pools.requirement).amount : -1));
    expect(pools.response.url).toContain("/base/lp/pools");

    const skale = analytics({ network: "skale", payer: evm() });
    const graduating = await skale.call("/trenches/graduating", { limit: 2 });
    expect(graduating).toMatchObject({ version: 2, receipt: { success: true, network: CAIP2.skale } });
    expect(["graduate_soon", "watch"]).toContain(graduating.envelope.signal);
    expect(skale.spent()).toBe(graduating.paid);
  });

  it("pays a legacy GET with query and path parameters", async () => {
    const client = analytics({ network: "base", payer: evm() });
    const tvl = await client.get("/defi/tvl", { query: { chain: "solana", limit: 2 } });
    expect(tvl.envelope.data.filter.chain).toBe("solana");
    expect(tvl.version).toBe(2);
    const pools = await client.get("/lp/{venue}/pools", {
      path: { venue: "meteora" },
      query: { sort: "tvl", limit: 1 },
    });
    expect(pools.envelope.data.pools).toHaveLength(1);
    expect(client.spent()).toBe(tvl.paid + pools.paid);
  });

  it("pays through the raw openapi-fetch client too, with the payment found by its response", async () => {
    const client = analytics({ network: "skale", payer: evm() });
    const { data, response } = await client.client.POST("/defi/yields", { body: { limit: 1 } });
    expect(data?.data.pools).toHaveLength(1);
    const payment = client.fetch.paymentOf(response);
    expect(payment).toMatchObject({
      version: 2,
      headerName: "PAYMENT-SIGNATURE",
      paid: payment?.amount,
      receipt: { success: true, network: CAIP2.skale },
    });
    expect(payment?.amount).toBe(BigInt(payment ? termsOf(payment.requirement).amount : -1));
  });

  it("returns 206 with a null insight, still paid, when the model fails", async () => {
    const degraded = await startLocalServices({
      INSIGHT_BASE_URL: "http://127.0.0.1:9/v1",
      INSIGHT_ATTEMPTS: "1",
      INSIGHT_TIMEOUT_MS: "500",
    });
    try {
      const client = createAnalyticsClient({ baseUrl: degraded.analyticsUrl, network: "base", payer: evm() });
      const result = await client.call("/defi/tvl");
      expect(result.status).toBe(206);
      if (result.status === 206) {
        expectTypeOf(result.envelope.insight).toEqualTypeOf<null>();
        expect(result.envelope.insight).toBeNull();
      }
      expect(result.paid).toBe(1000n);
    } finally {
      await degraded.close();
    }
  });
});

describe("x402 versions", () => {
  const challengeAt = async (url: string) =>
    challengeHeaderOf(
      (await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).headers,
    );

  it("pays v2 with the offer unchanged, the resource and the challenge's extensions, and reads PAYMENT-RESPONSE", async () => {
    const client = analytics({ network: "base", payer: evm() });
    const challenge = await challengeAt(`${client.url}/defi/tvl`);
    const result = await client.call("/defi/tvl");
    expect(decodeHeader(result.paymentHeader as string)).toEqual({
      x402Version: 2,
      resource: challenge?.resource,
      accepted: challenge?.accepts[0],
      payload: {
        signature: expect.any(String),
        authorization: expect.objectContaining({ from: account.address, value: "1000" }),
      },
      // echoed as they came, the purchase's id added to the payment-identifier declaration
      extensions: {
        ...challenge?.extensions,
        "payment-identifier": {
          ...challenge?.extensions["payment-identifier"],
          info: { required: false, id: result.paymentId },
        },
      },
    });
    expect(result.paymentId).toMatch(/^pay_[0-9a-f]{32}$/);
    expect(challenge?.extensions.bazaar).toBeDefined();
    expect(result.receipt).toEqual(decodeHeader(result.response.headers.get("PAYMENT-RESPONSE") as string));
    expect(result.response.headers.get("X-PAYMENT-RESPONSE")).toBeNull();
  });

  it("pays v1 when told to: the same payload in X-PAYMENT, the receipt from X-PAYMENT-RESPONSE, v1 names", async () => {
    const payer = svm();
    const client = analytics({ network: "solana", payer, protocol: "v1" });
    const result = await client.call("/defi/tvl", { limit: 1 });
    expect(result).toMatchObject({
      version: 1,
      paymentHeaderName: "X-PAYMENT",
      requirement: { network: "solana-devnet", maxAmountRequired: "1000" },
    });
    expect(decodeHeader(result.paymentHeader as string)).toEqual({
      x402Version: 1,
      scheme: "exact",
      network: "solana-devnet",
      payload: { transaction: expect.any(String) },
    });
    expect(result.receipt).toEqual({
      success: true,
      transaction: expect.any(String),
      network: "solana-devnet",
      payer: solanaSigner.address,
      simulated: true,
    });
    expect(result.response.headers.get("PAYMENT-RESPONSE")).toBeNull();
    expect(client.fetch.paymentOf(result.response)).toMatchObject({ version: 1, headerName: "X-PAYMENT", paid: 1000n });
    expect(payer.signed).toBe(1);
  });

  it("pays v1 to a server that offers only v1, and refuses it when told to pay v2 only", async () => {
    const payer = evm();
    const transport = v1Only();
    const client = analytics({ network: "base", payer, fetch: transport });
    const result = await client.call("/defi/tvl");
    expect(result).toMatchObject({
      version: 1,
      paymentHeaderName: "X-PAYMENT",
      paid: 1000n,
      receipt: { success: true, network: "base-sepolia" },
    });
    const retry = transport.sent.at(-1);
    expect([retry?.headers.has("X-PAYMENT"), retry?.headers.has("PAYMENT-SIGNATURE")]).toEqual([true, false]);

    const v2Only = analytics({ network: "base", payer, fetch: v1Only(), protocol: "v2" });
    await expect(v2Only.call("/defi/tvl")).rejects.toMatchObject({
      name: "PaymentRefusedError",
      reason: "version_not_offered",
    });
    expect(payer.signed).toBe(1);
  });

  it("pays v1 when the v2 challenge offers nothing on the client's network", async () => {
    const elsewhere = editing402({
      v2: (challenge) => ({
        ...challenge,
        accepts: challenge.accepts.map((offer) => ({ ...offer, network: CAIP2.base })),
      }),
    });
    const client = analytics({ network: "skale", payer: evm(), fetch: elsewhere });
    const result = await client.call("/defi/tvl");
    expect(result).toMatchObject({ version: 1, receipt: { success: true, network: "skale-base-sepolia" } });
  });

  it("holds the recipient pinned by a v2 payment against a v1-only challenge", async () => {
    const payer = evm();
    const dead = "0x000000000000000000000000000000000000dEaD";
    const changed = editing402(
      {
        v2: () => undefined,
        v1: (body) => ({ ...body, accepts: body.accepts.map((offer) => ({ ...offer, payTo: dead })) }),
      },
      1,
    );
    const client = analytics({ network: "base", payer, fetch: changed });
    expect((await client.call("/defi/tvl")).version).toBe(2);
    await expect(client.call("/defi/tvl")).rejects.toMatchObject({
      reason: "pay_to_changed",
      requirement: { network: "base-sepolia" },
    });
    expect(payer.signed).toBe(1);
  });
});

describe.each(["auto", "v1"] as const)("refusing to pay, protocol %s (nothing signed, nothing charged)", (protocol) => {
  const baseNetwork = protocol === "v1" ? "base-sepolia" : CAIP2.base;

  it("refuses a price above the per-call cap", async () => {
    const payer = evm();
    const before = await settledRows();
    const client = analytics({ protocol, network: "base", payer, maxPerCallUsd: "0.01" });
    const error = await client.call("/ask", { query: "best stable yield on solana?" }).catch((e) => e);
    expect(error).toBeInstanceOf(PaymentRefusedError);
    expect(error).toMatchObject({ reason: "cap_per_call", requirement: { network: baseNetwork } });
    expect(termsOf(error.requirement).amount).toBe("25000");
    expect(payer.signed).toBe(0);
    expect(client.spent()).toBe(0n);
    expect(await settledRows()).toBe(before);
  });

  it("refuses a payment that would exceed the session cap, after paying within it", async () => {
    const payer = svm();
    const client = analytics({ protocol, network: "solana", payer, maxPerSession: "1500" });
    await client.call("/defi/tvl", { limit: 1 });
    await expect(client.call("/defi/tvl", { limit: 2 })).rejects.toMatchObject({
      name: "PaymentRefusedError",
      reason: "cap_per_session",
    });
    expect(payer.signed).toBe(1);
    expect(client.spent()).toBe(1000n);
  });

  it("refuses a recipient that changed after the first challenge (pinning)", async () => {
    const payer = evm();
    const client = analytics({
      protocol,
      network: "base",
      payer,
      fetch: rewritingOffers({ payTo: "0x000000000000000000000000000000000000dEaD" }, 1),
    });
    await client.call("/defi/tvl", { limit: 1 });
    const error = await client.call("/defi/tvl", { limit: 1 }).catch((e) => e);
    expect(error).toBeInstanceOf(PaymentRefusedError);
    expect(error.reason).toBe("pay_to_changed");
    expect(payer.signed).toBe(1);
    expect(client.spent()).toBe(1000n);
  });

  it("refuses a recipient or an asset other than the expected ones, and a network not offered", async () => {
    const payer = evm();
    const otherPayTo = analytics({
      protocol,
      network: "base",
      payer,
      expect: { payTo: "0x000000000000000000000000000000000000dEaD" },
    });
    await expect(otherPayTo.call("/defi/tvl")).rejects.toMatchObject({ reason: "pay_to_changed" });
    const foreignAsset = analytics({
      protocol,
      network: "base",
      payer,
      fetch: rewritingOffers({ asset: account.address }),
    });
    await expect(foreignAsset.call("/defi/tvl")).rejects.toMatchObject({ reason: "asset_unexpected" });
    const wrongNetwork = analytics({
      protocol,
      network: "base",
      payer,
      fetch: rewritingOffers({ network: "solana-devnet" }),
    });
    await expect(wrongNetwork.call("/defi/tvl")).rejects.toMatchObject({ reason: "network_not_offered" });
    expect(payer.signed).toBe(0);
  });

  it("asks the approval callback with the quote, and a no refuses", async () => {
    const payer = evm();
    const quotes: unknown[] = [];
    const client = analytics({
      protocol,
      network: "skale",
      payer,
      approve: ({ amount, url, version, requirement }) => {
        quotes.push({ amount, version, network: requirement.network });
        expect(url).toMatch(/\/skale\/defi\/tvl$/);
        return false;
      },
    });
    await expect(client.call("/defi/tvl")).rejects.toMatchObject({ reason: "declined" });
    expect(quotes).toEqual([
      protocol === "v1"
        ? { amount: 1000n, version: 1, network: "skale-base-sepolia" }
        : { amount: 1000n, version: 2, network: CAIP2.skale },
    ]);
    expect(payer.signed).toBe(0);
  });
});

describe("repeating a paid request, with the same payment and payment identifier", () => {
  /** A fetch whose answers to paid requests are lost on the way, `times` times, after the service answered them. */
  function losingAnswers(times: number) {
    const sent: string[] = [];
    const fetch = async (request: Request) => {
      const payment = request.headers.get("PAYMENT-SIGNATURE");
      const response = await globalThis.fetch(request);
      if (!payment) return response;
      sent.push(payment);
      if (sent.length > times) return response;
      await response.body?.cancel();
      throw new TypeError("fetch failed: the connection was reset");
    };
    return { fetch, sent };
  }

  it("gets the answer bought by a payment whose answer was lost, charged once", async () => {
    const before = await settledRows();
    const lossy = losingAnswers(1);
    const payer = evm();
    const client = analytics({ network: "base", payer, fetch: lossy.fetch });
    const result = await client.call("/defi/tvl");
    expect(result.status).toBe(200);
    expect(lossy.sent).toHaveLength(2);
    expect(lossy.sent[1]).toBe(lossy.sent[0]);
    expect(
      (decodeHeader(lossy.sent[0] as string) as PaymentPayloadV2).extensions?.["payment-identifier"],
    ).toMatchObject({
      info: { id: result.paymentId },
    });
    expect(payer.signed).toBe(1);
    expect(await settledRows()).toBe(before + 1);
    expect(client.spent()).toBe(1000n);
  });

  /** A fetch that answers the paid request `times` times as a payment in progress (after `seconds`), then forwards it. */
  function inProgress(times: number, seconds = 1) {
    const sent: string[] = [];
    const fetch = async (request: Request) => {
      const payment = request.headers.get("PAYMENT-SIGNATURE");
      if (!payment) return globalThis.fetch(request);
      sent.push(payment);
      if (sent.length > times) return globalThis.fetch(request);
      const body = { error: "payment_in_progress", message: "in progress", request_id: "r" };
      return Response.json(body, { status: 503, headers: { "Retry-After": String(seconds) } });
    };
    return { fetch, sent };
  }

  it("follows every in-progress answer with the same payment, beyond its retries, and is charged once", async () => {
    const before = await settledRows();
    const held = inProgress(3);
    const payer = evm();
    const client = analytics({ network: "base", payer, fetch: held.fetch, paidRetries: 1 });
    const result = await client.call("/defi/tvl");
    expect(result.status).toBe(200);
    expect(held.sent).toHaveLength(4);
    expect(new Set(held.sent).size).toBe(1);
    expect(payer.signed).toBe(1);
    expect(await settledRows()).toBe(before + 1);
    expect(client.spent()).toBe(1000n);
  });

  it("returns an in-progress answer that asks for a longer wait than it may make, counting the payment", async () => {
    const held = inProgress(1, 60);
    const payer = evm();
    const client = analytics({ network: "base", payer, fetch: held.fetch, maxRetryWaitMs: 5_000 });
    await expect(client.call("/defi/tvl")).rejects.toMatchObject({ status: 503 });
    expect(held.sent).toHaveLength(1);
    expect(payer.signed).toBe(1);
    expect(client.spent()).toBe(1000n);
  });

  it("gives up after its retries, counting the payment whose outcome it never learned", async () => {
    const lossy = losingAnswers(5);
    const client = analytics({ network: "base", payer: evm(), fetch: lossy.fetch, paidRetries: 1 });
    await expect(client.call("/defi/tvl")).rejects.toThrow(/connection was reset/);
    expect(lossy.sent).toHaveLength(2);
    expect(client.spent()).toBe(1000n);
  });
});

describe("typed failures", () => {
  it("throws PaymentRejectedError with the server's reason when the paid retry answers 402, and counts nothing", async () => {
    const client = analytics({ network: "base", payer: underpaying });
    const error = await client.call("/defi/tvl").catch((e) => e);
    expect(error).toBeInstanceOf(PaymentRejectedError);
    expect(error.reason).toBe("invalid_exact_evm_payload_authorization_value");
    expect(error.challenge.accepts[0].network).toBe(CAIP2.base);
    expect(error.body.accepts[0].network).toBe("base-sepolia");
    expect(error.message).toContain(error.body.message);
    expect(client.spent()).toBe(0n);
  });

  it("reads a v2 rejection's reason from PAYMENT-REQUIRED, else from the body, and a v1 rejection's from the body", async () => {
    // From the second 402 on (the answer to the payment), the header states another reason than the body, or none.
    const otherReason = () => editing402({ v2: (challenge) => ({ ...challenge, error: "payment_expired" }) }, 1);
    const noReason = () => editing402({ v2: ({ error: _, ...challenge }) => challenge }, 1);
    const rejected = (protocol: "v1" | "v2", fetch: ReturnType<typeof editing402>) =>
      analytics({ network: "base", payer: underpaying, protocol, fetch })
        .call("/defi/tvl")
        .catch((e) => e);
    expect(await rejected("v2", otherReason())).toMatchObject({
      name: "PaymentRejectedError",
      reason: "payment_expired",
    });
    expect(await rejected("v2", noReason())).toMatchObject({ reason: "invalid_exact_evm_payload_authorization_value" });
    expect(await rejected("v1", otherReason())).toMatchObject({
      reason: "invalid_exact_evm_payload_authorization_value",
    });
  });

  it("refuses a payer of the wrong chain family at creation", () => {
    expect(() => analytics({ network: "solana", payer: evm() })).toThrow(/evm payer cannot pay on solana/);
  });

  it("passes the caller's own payment header through: the same request gets its answer again, another is refused", async () => {
    const client = analytics({ network: "solana", payer: svm() });
    const first = await client.call("/trenches/new-tokens", { limit: 1 });
    const paid = { "PAYMENT-SIGNATURE": first.paymentHeader as string };
    const again = await client.client.POST("/trenches/new-tokens", { body: { limit: 1 }, headers: paid });
    expect(again.response.status).toBe(first.status);
    expect(again.data).toEqual(first.envelope);
    expect(decodeHeader(again.response.headers.get("PAYMENT-RESPONSE") as string)).toEqual(first.receipt);
    // the payment names its purchase: for another request it is a conflict over that name, before any replay check
    const replay = await client.client.POST("/trenches/new-tokens", { body: { limit: 2 }, headers: paid });
    expect(replay.response.status).toBe(409);
    expect(replay.error).toMatchObject({
      error: "payment_identifier_conflict",
      message: expect.stringContaining(first.paymentId as string),
    });
    // The same payload in the v1 envelope, for the same request: refused too, and passed through as well.
    const { payload } = decodeHeader(first.paymentHeader as string) as PaymentPayloadV2;
    const challenge = await fetch(first.response.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    const [requirement] = ((await challenge.json()) as PaymentRequiredBody).accepts;
    if (!requirement) throw new Error("no v1 offer");
    const crossed = await client.client.POST("/trenches/new-tokens", {
      body: { limit: 1 },
      headers: { "X-PAYMENT": encodePayment({ version: 1, requirement }, payload) },
    });
    expect(crossed.response.status).toBe(402);
    expect(crossed.error).toMatchObject({ error: "duplicate_settlement" });
    expect(client.spent()).toBe(first.paid);
  });

  it("throws HttpError naming the bad fields from the challenge, never signing a payment for it", async () => {
    const payer = evm();
    const client = analytics({ network: "base", payer });
    const error = await client.call("/defi/tvl", { limit: 500 }).catch((e) => e);
    expect(error).toBeInstanceOf(HttpError);
    // the unpaid request's 402 names the field; paid, it would be a 400, so the client does not pay
    expect(error.status).toBe(402);
    expect(error.body).toMatchObject({ errors: [{ location: "body", field: "limit" }] });
    expect(error.body.message).toMatch(/^Fix limit .* before paying/);
    expect(payer.signed).toBe(0);
  });
});

describe("asking about a payment (free)", () => {
  it("tells a purchase by its identifier, with the receipt it carried, and by its transaction; never pays", async () => {
    const payer = evm();
    const client = analytics({ network: "base", payer });
    const paid = await client.call("/defi/tvl", { limit: 2 });
    const receipt = paid.receipt as {
      transaction: string;
      extensions?: Record<string, { info: { receipt: unknown } }>;
    };
    const signed = payer.signed;
    const byId = await client.paymentStatus({ identifier: paid.paymentId as string });
    expect(byId).toMatchObject({ status: "settled", network: "base-sepolia", transaction: receipt.transaction });
    expect(byId?.receipt).toEqual(receipt.extensions?.["offer-receipt"]?.info.receipt);
    const byTransaction = await client.paymentStatus({ transaction: receipt.transaction });
    expect(byTransaction).toMatchObject({ status: "settled", transaction: receipt.transaction });
    expect(byTransaction).not.toHaveProperty("receipt");
    // another prefix's network has no such payment; an unknown id is none either
    const skale = analytics({ network: "skale", payer: evm() });
    expect(await skale.paymentStatus({ identifier: paid.paymentId as string })).toBeUndefined();
    expect(await client.paymentStatus({ identifier: "pay_00000000000000000000000000000000" })).toBeUndefined();
    expect(payer.signed).toBe(signed);
    expect(client.spent()).toBe(1000n);
  });
});

describe("types", () => {
  it("checks paths, bodies and envelopes against the generated contract", () => {
    // Compiled, never run: tsc verifies every @ts-expect-error below.
    const compileOnly = async () => {
      const client = analytics({ network: "base", payer: evm() });
      // @ts-expect-error an unknown body field
      await client.call("/defi/tvl", { limt: 3 });
      // @ts-expect-error a wrong field type
      await client.call("/defi/tvl", { limit: "3" });
      // @ts-expect-error a required body is missing
      await client.call("/ask");
      // @ts-expect-error an unknown path
      await client.call("/defi/tvls");
      // @ts-expect-error prefixed twins are reached through `network`, not by path
      await client.call("/base/defi/tvl");
      // @ts-expect-error a legacy GET path parameter is missing
      await client.get("/lp/{venue}/pools/{address}", {});
      // @ts-expect-error free endpoints are not paid operations
      await client.call("/");
      const result = await client.call("/ask", { query: "where is yield?" });
      expectTypeOf(result.envelope.data.available_endpoints).toEqualTypeOf<string[]>();
      expectTypeOf(result.paid).toEqualTypeOf<bigint>();
      const info = await client.free.GET("/");
      expectTypeOf(info.data).toEqualTypeOf<components["schemas"]["ServiceInfo"] | undefined>();
    };
    expect(typeof compileOnly).toBe("function");
    expectTypeOf<Parameters<ReturnType<typeof analytics>["call"]>[0]>().toExtend<`/${string}`>();
  });
});
