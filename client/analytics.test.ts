// The paying analytics client against the real analytics service (in-process, embedded defaults,
// ledger settlement): all three prefixes, caps, pinning, rejections and HTTP errors, plus
// type-level checks that tsc verifies.
import { generateKeyPairSigner } from "@solana/kit";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { components } from "../generated/types/analytics.js";
import { startLocalServices } from "../scripts/local-services.js";
import { useLocalServices } from "../test/support/local-services.js";
import { type AnalyticsClientOptions, createAnalyticsClient } from "./analytics.js";
import { HttpError, PaymentRefusedError, PaymentRejectedError } from "./errors.js";
import { evmPayer, offlineBlockhash, type Payer, solanaPayer } from "./payers.js";
import { signEvmPayment } from "./x402/evm.js";
import type { PaymentRequiredBody, PaymentRequirements } from "./x402/types.js";

const services = useLocalServices();

const account = privateKeyToAccount(generatePrivateKey());
const solanaSigner = await generateKeyPairSigner();

/** A payer that counts its signatures. */
function counting(payer: Payer): Payer & { signed: number } {
  const counted = {
    family: payer.family,
    address: payer.address,
    signed: 0,
    sign(requirement: Parameters<Payer["sign"]>[0]) {
      counted.signed++;
      return payer.sign(requirement);
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

/** A transport that patches every offer of the 402 challenges it passes on, from the `from`-th challenge. */
function rewritingOffers(patch: Partial<PaymentRequirements>, from = 0) {
  let count = 0;
  return async (request: Request) => {
    const response = await fetch(request);
    if (response.status !== 402 || count++ < from) return response;
    const body = (await response.json()) as PaymentRequiredBody;
    const rewritten = { ...body, accepts: body.accepts.map((offer) => ({ ...offer, ...patch })) };
    return new Response(JSON.stringify(rewritten), { status: 402, headers: { "content-type": "application/json" } });
  };
}

describe("paying on each prefix", () => {
  it("pays /defi/tvl at the root on Solana and returns the typed envelope, receipt and amount", async () => {
    const payer = svm();
    const client = analytics({ network: "solana", payer });
    const result = await client.call("/defi/tvl", { chain: "all", limit: 3 });
    expect(result.status).toBe(200);
    expect(result.envelope.data.chains.length).toBeLessThanOrEqual(3);
    expect(["high_yield", "medium_yield", "low_yield", "risky"]).toContain(result.envelope.signal);
    expect(result.receipt).toMatchObject({ success: true, network: "solana-devnet", payer: solanaSigner.address });
    expect(result.paid).toBe(1000n);
    expect(result.requirement?.maxAmountRequired).toBe("1000");
    expect(client.spent()).toBe(1000n);
    expect(payer.signed).toBe(1);
  });

  it("pays /lp/pools on Base and /trenches/graduating on SKALE, at their contract prices", async () => {
    const base = analytics({ network: "base", payer: evm() });
    const pools = await base.call("/lp/pools", { sort: "tvl", limit: 2 });
    expect(pools.envelope.data.pools).toHaveLength(2);
    expect(pools.receipt).toMatchObject({ success: true, network: "base-sepolia", payer: account.address });
    expect(pools.paid).toBe(BigInt(pools.requirement?.maxAmountRequired ?? -1));
    expect(pools.response.url).toContain("/base/lp/pools");

    const skale = analytics({ network: "skale", payer: evm() });
    const graduating = await skale.call("/trenches/graduating", { limit: 2 });
    expect(graduating.receipt).toMatchObject({ success: true, network: "skale-base-sepolia" });
    expect(["graduate_soon", "watch"]).toContain(graduating.envelope.signal);
    expect(skale.spent()).toBe(graduating.paid);
  });

  it("pays a legacy GET with query and path parameters", async () => {
    const client = analytics({ network: "base", payer: evm() });
    const tvl = await client.get("/defi/tvl", { query: { chain: "solana", limit: 2 } });
    expect(tvl.envelope.data.filter.chain).toBe("solana");
    const pools = await client.get("/lp/{venue}/pools", { path: { venue: "meteora" }, query: { sort: "tvl", limit: 1 } });
    expect(pools.envelope.data.pools).toHaveLength(1);
    expect(client.spent()).toBe(tvl.paid + pools.paid);
  });

  it("pays through the raw openapi-fetch client too, with the payment found by its response", async () => {
    const client = analytics({ network: "skale", payer: evm() });
    const { data, response } = await client.client.POST("/defi/yields", { body: { limit: 1 } });
    expect(data?.data.pools).toHaveLength(1);
    const payment = client.fetch.paymentOf(response);
    expect(payment).toMatchObject({ paid: payment?.amount, receipt: { success: true, network: "skale-base-sepolia" } });
    expect(payment?.amount).toBe(BigInt(payment?.requirement.maxAmountRequired ?? -1));
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

describe("refusing to pay (nothing signed, nothing charged)", () => {
  it("refuses a price above the per-call cap", async () => {
    const payer = evm();
    const before = await settledRows();
    const client = analytics({ network: "base", payer, maxPerCallUsd: "0.01" });
    const error = await client.call("/ask", { query: "best stable yield on solana?" }).catch((e) => e);
    expect(error).toBeInstanceOf(PaymentRefusedError);
    expect(error).toMatchObject({ reason: "cap_per_call", requirement: { maxAmountRequired: "25000" } });
    expect(payer.signed).toBe(0);
    expect(client.spent()).toBe(0n);
    expect(await settledRows()).toBe(before);
  });

  it("refuses a payment that would exceed the session cap, after paying within it", async () => {
    const payer = svm();
    const client = analytics({ network: "solana", payer, maxPerSession: "1500" });
    await client.call("/defi/tvl", { limit: 1 });
    await expect(client.call("/defi/tvl", { limit: 2 })).rejects.toMatchObject({ name: "PaymentRefusedError", reason: "cap_per_session" });
    expect(payer.signed).toBe(1);
    expect(client.spent()).toBe(1000n);
  });

  it("refuses a recipient that changed after the first challenge (pinning)", async () => {
    const payer = evm();
    const client = analytics({
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
    const otherPayTo = analytics({ network: "base", payer, expect: { payTo: "0x000000000000000000000000000000000000dEaD" } });
    await expect(otherPayTo.call("/defi/tvl")).rejects.toMatchObject({ reason: "pay_to_changed" });
    const foreignAsset = analytics({
      network: "base",
      payer,
      fetch: rewritingOffers({ asset: account.address }),
    });
    await expect(foreignAsset.call("/defi/tvl")).rejects.toMatchObject({ reason: "asset_unexpected" });
    const wrongNetwork = analytics({
      network: "base",
      payer,
      fetch: rewritingOffers({ network: "solana-devnet" }),
    });
    await expect(wrongNetwork.call("/defi/tvl")).rejects.toMatchObject({ reason: "network_not_offered" });
    expect(payer.signed).toBe(0);
  });

  it("asks the approval callback with the quote, and a no refuses", async () => {
    const payer = evm();
    const quotes: bigint[] = [];
    const client = analytics({
      network: "skale",
      payer,
      approve: ({ amount, url }) => {
        quotes.push(amount);
        expect(url).toMatch(/\/skale\/defi\/tvl$/);
        return false;
      },
    });
    await expect(client.call("/defi/tvl")).rejects.toMatchObject({ reason: "declined" });
    expect(quotes).toEqual([1000n]);
    expect(payer.signed).toBe(0);
  });

  it("refuses a payer of the wrong chain family at creation", () => {
    expect(() => analytics({ network: "solana", payer: evm() })).toThrow(/evm payer cannot pay on solana/);
  });
});

describe("typed failures", () => {
  it("throws PaymentRejectedError with the server's reason when the paid retry answers 402, and counts nothing", async () => {
    const underpaying: Payer = {
      family: "evm",
      address: account.address,
      sign: (r) => signEvmPayment(account, r, { overrides: { value: "1" } }),
    };
    const client = analytics({ network: "base", payer: underpaying });
    const error = await client.call("/defi/tvl").catch((e) => e);
    expect(error).toBeInstanceOf(PaymentRejectedError);
    expect(error.reason).toBe("invalid_exact_evm_payload_authorization_value");
    expect(error.body.accepts[0].network).toBe("base-sepolia");
    expect(client.spent()).toBe(0n);
  });

  it("passes the caller's own X-PAYMENT through: the same request gets its answer again, another is refused", async () => {
    const client = analytics({ network: "solana", payer: svm() });
    const first = await client.call("/trenches/new-tokens", { limit: 1 });
    const again = await client.client.POST("/trenches/new-tokens", {
      body: { limit: 1 },
      headers: { "X-PAYMENT": first.paymentHeader as string },
    });
    expect(again.response.status).toBe(first.status);
    expect(again.data).toEqual(first.envelope);
    const replay = await client.client.POST("/trenches/new-tokens", {
      body: { limit: 2 },
      headers: { "X-PAYMENT": first.paymentHeader as string },
    });
    expect(replay.response.status).toBe(402);
    expect(replay.error).toMatchObject({ error: "duplicate_settlement" });
    expect(client.spent()).toBe(first.paid);
  });

  it("throws HttpError with the JSON error body on a 400, before any payment", async () => {
    const payer = evm();
    const client = analytics({ network: "base", payer });
    const error = await client.call("/defi/tvl", { limit: 500 }).catch((e) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error.status).toBe(400);
    expect(error.body).toMatchObject({ error: "invalid_request", errors: [{ location: "body", field: "limit" }] });
    expect(payer.signed).toBe(0);
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
