// The facilitator backend against a local stand-in facilitator (node:http on 127.0.0.1): what it
// sends, how each kind of answer maps to settled, refused, or unknown (thrown), and the service
// running on it end to end (SETTLEMENT=facilitator).
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import request from "supertest";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { signEvmPayment } from "../../../../../client/x402/evm.js";
import { loadAnalyticsConfig } from "../../../../config/analytics.js";
import { createLogger } from "../../../../http/logger.js";
import { loadAnalyticsContract } from "../../../contract/analytics-contract.js";
import { type AnalyticsService, createAnalyticsService } from "../../../service.js";
import type { PaymentRequirements, VerifiedPayment } from "../../x402/types.js";
import { FacilitatorError, facilitatorBackend, supportedFeePayer } from "./facilitator.js";
import { contractReasons } from "./index.js";

type Answer = { status?: number; body: string; delayMs?: number };
const json = (value: unknown): Answer => ({ body: JSON.stringify(value) });
const FEE_PAYER = "CKPKJWNdJEqa81x7CkZ14BVPiY6y16Sxs7owznqtWYp5";
const supported = {
  kinds: [
    { x402Version: 1, scheme: "exact", network: "base-sepolia" },
    { x402Version: 1, scheme: "exact", network: "solana-devnet", extra: { feePayer: FEE_PAYER } },
  ],
};
/** How the stand-in answers POST /settle; GET /supported always lists `supported`. */
let answer: () => Answer;
const received: { method: string; path: string; headers: IncomingHttpHeaders; body: string }[] = [];

const server = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => {
    body += chunk;
  });
  req.on("end", () => {
    received.push({ method: req.method as string, path: req.url as string, headers: req.headers, body });
    const { status = 200, body: text, delayMs = 0 } = req.url?.endsWith("/supported") ? json(supported) : answer();
    setTimeout(() => res.writeHead(status, { "content-type": "application/json" }).end(text), delayMs);
  });
});
let url: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/facilitator/`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});
beforeEach(() => {
  received.length = 0;
});

const requirement = {
  scheme: "exact",
  network: "base-sepolia",
  maxAmountRequired: "1000",
  resource: "http://127.0.0.1/base/defi/tvl",
  description: "TVL",
  mimeType: "application/json",
  payTo: "0xBab484B2daAFAb4BF6eD642A847517d33d106535",
  maxTimeoutSeconds: 60,
  asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
  extra: { name: "USDC", version: "2" },
} as PaymentRequirements;
const payment: VerifiedPayment = {
  key: "base-sepolia:0x1111111111111111111111111111111111111111:0xabc",
  family: "evm",
  network: "base-sepolia",
  payer: "0x1111111111111111111111111111111111111111",
  amount: "1000",
  requirement,
  payload: { signature: "0x01", authorization: { from: "0x1111111111111111111111111111111111111111" } },
  expiresAt: Date.now() + 60_000,
};
const state = async () => ({ state: "open" as const, why: "not asked here" });
const reasons = contractReasons(loadAnalyticsContract());
const backend = (options: Partial<Parameters<typeof facilitatorBackend>[0]> = {}) =>
  facilitatorBackend({ url, timeoutMs: 500, reasons, state, ...options });

describe("facilitator settlement", () => {
  it("POSTs /settle with the rebuilt x402 payment and the issued requirement, and the auth header", async () => {
    answer = () => json({ success: true, transaction: "0xfeed", network: "base-sepolia", payer: payment.payer });
    expect(await backend({ authHeader: "X-Api-Key: secret" }).settle(payment)).toEqual({
      ok: true,
      transaction: "0xfeed",
      simulated: false,
    });
    const [request] = received;
    expect(request).toMatchObject({ method: "POST", path: "/facilitator/settle", headers: { "x-api-key": "secret" } });
    expect(JSON.parse(request?.body as string)).toEqual({
      x402Version: 1,
      paymentPayload: { x402Version: 1, scheme: "exact", network: "base-sepolia", payload: payment.payload },
      paymentRequirements: requirement,
    });
  });

  it("sends a bare auth value as Authorization", async () => {
    answer = () => json({ success: true, transaction: "0xfeed" });
    await backend({ authHeader: "Bearer token-1" }).settle(payment);
    expect(received[0]?.headers.authorization).toBe("Bearer token-1");
  });

  // verification's refusals, before anything is sent: the contract's reason for each, the facilitator's code in the message
  const refused: [string, string][] = [
    ["insufficient_funds", "insufficient_funds"],
    ["invalid_exact_evm_payload_signature", "invalid_exact_evm_payload_signature"],
    ["payment_expired", "payment_expired"],
    // the official facilitators' own names
    ["invalid_exact_evm_insufficient_balance", "insufficient_funds"],
    ["invalid_exact_evm_token_name_mismatch", "invalid_payment_requirements"],
    ["invalid_exact_svm_payload_signature_invalid", "invalid_exact_svm_payload_transaction_signature"],
    ["fee_payer_not_managed_by_facilitator", "invalid_exact_svm_payload_transaction_fee_payer_mismatch"],
    ["transaction_simulation_failed", "invalid_payload"],
    // a verification refusal the contract has no name for: the payment does not pay (never "outcome unknown")
    ["invalid_exact_evm_some_future_check", "invalid_payload"],
  ];
  for (const [errorReason, reason] of refused) {
    it(`treats success: false for ${errorReason} as a refusal (${reason})`, async () => {
      answer = () => json({ success: false, errorReason, transaction: "", network: "base-sepolia" });
      expect(await backend().settle(payment)).toEqual({
        ok: false,
        reason,
        message: `the facilitator refused the payment: ${errorReason}`,
      });
    });
  }

  it("names a failed simulation of a Solana payment as the contract's Solana reason", async () => {
    answer = () => json({ success: false, errorReason: "transaction_simulation_failed", transaction: "" });
    expect(await backend().settle({ ...payment, family: "svm", network: "solana-devnet" })).toMatchObject({
      ok: false,
      reason: "invalid_exact_svm_payload_transaction_simulation_failed",
    });
  });

  const unknown: [string, Answer, RegExp][] = [
    ["a 500", { status: 500, body: '{"error":"boom"}' }, /answered 500$/],
    [
      "a slow answer (timeout)",
      { body: '{"success":true,"transaction":"0x1"}', delayMs: 2000 },
      /did not answer within 500 ms/,
    ],
    ["malformed JSON", { body: "{not json" }, /without a JSON object/],
    ["a 200 that neither succeeds nor refuses", { body: '{"ok":1}' }, /neither success nor a transaction/],
    // refusals after the transaction was sent: it may still land
    [
      "a refusal whose confirmation timed out",
      json({ success: false, errorReason: "settle_exact_svm_transaction_confirmation_timed_out", transaction: "" }),
      /could not confirm the settlement \(settle_exact_svm_transaction_confirmation_timed_out\)/,
    ],
    [
      "a refusal that names its transaction",
      json({
        success: false,
        errorReason: "insufficient_funds",
        transaction: "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnb",
      }),
      /could not confirm the settlement \(insufficient_funds\)/,
    ],
    // what the official facilitators answer, with no transaction, when the wait for the confirmation failed after sending
    [
      "a reason outside the contract's (transaction_failed)",
      json({ success: false, errorReason: "transaction_failed", transaction: "" }),
      /could not confirm the settlement \(transaction_failed\)/,
    ],
    [
      "an RPC error's text as the reason (its first line, cut short)",
      json({
        success: false,
        errorReason: `The request took too long to respond. Request body: ${"ab".repeat(400)}\nURL: https://rpc.example/v2/sk_SECRET`,
        transaction: "",
      }),
      /could not confirm the settlement \(The request took too long to respond\. Request body: (ab)+…\); the chain decides \(now: not asked here\)$/,
    ],
    ["a refusal with no reason", json({ success: false }), /could not confirm the settlement \(no reason\)/],
    [
      "the contract's unexpected_settle_error",
      json({ success: false, errorReason: "unexpected_settle_error", transaction: "" }),
      /could not confirm the settlement \(unexpected_settle_error\)/,
    ],
    // reasons that name money that moved, or may have
    ...[
      "invalid_transaction_state",
      "invalid_exact_evm_nonce_already_used",
      "invalid_exact_evm_transaction_failed",
      "duplicate_settlement",
      "settle_exact_svm_block_height_exceeded",
    ].map((errorReason): [string, Answer, RegExp] => [
      errorReason,
      json({ success: false, errorReason, transaction: "" }),
      new RegExp(`could not confirm the settlement \\(${errorReason}\\)`),
    ]),
  ];
  for (const [what, reply, message] of unknown) {
    it(`throws on ${what}: the outcome is unknown`, async () => {
      answer = () => reply;
      const settling = backend().settle(payment);
      await expect(settling).rejects.toThrow(FacilitatorError);
      await expect(settling).rejects.toThrow(message);
    });
  }

  it("asks the chain about an answer that may have come after sending: moved is settled, never able to move is refused", async () => {
    answer = () => json({ success: false, errorReason: "settle_exact_svm_block_height_exceeded", transaction: "" });
    const asked: unknown[] = [];
    const chain = (said: Awaited<ReturnType<Parameters<typeof facilitatorBackend>[0]["state"]>>) =>
      backend({
        state: async (interrupted) => {
          asked.push(interrupted);
          return said;
        },
      });
    expect(await chain({ state: "settled", transaction: "0xmoved" }).settle(payment)).toEqual({
      ok: true,
      transaction: "0xmoved",
      simulated: false,
    });
    // nothing of it can be on chain before the settlement started: the search need not look further back
    expect(asked[0]).toEqual({
      network: payment.network,
      payer: payment.payer,
      payload: payment.payload,
      expiresAt: payment.expiresAt,
      createdAt: expect.any(Number),
    });
    expect(Math.abs((asked[0] as { createdAt: number }).createdAt - Date.now())).toBeLessThan(5_000);
    expect(await chain({ state: "unsettled", why: "its blockhash expired" }).settle(payment)).toEqual({
      ok: false,
      reason: "settle_exact_svm_block_height_exceeded",
      message:
        "the facilitator could not settle the payment (settle_exact_svm_block_height_exceeded), and it can no longer move: its blockhash expired",
    });
    // a reason outside the contract, or an RPC's text: the payment does not pay
    answer = () => json({ success: false, errorReason: "transaction_failed", transaction: "" });
    expect(await chain({ state: "unsettled", why: "expired" }).settle(payment)).toMatchObject({
      ok: false,
      reason: "invalid_payload",
    });
    // a chain that cannot be read, or not within the settlement's time, decides nothing
    const unreadable = backend({ state: () => Promise.reject(new Error("rpc down")) }).settle(payment);
    await expect(unreadable).rejects.toThrow(
      /could not confirm the settlement \(transaction_failed\); the chain decides \(now: it could not be read: rpc down\)$/,
    );
    const hung = backend({ timeoutMs: 500, state: () => new Promise(() => {}) }).settle(payment);
    await expect(hung).rejects.toThrow(/the chain decides \(now: it did not answer within \d+ ms\)$/);
  });

  // a facilitator's word that the settlement is under way: x402's reason, and the status x402 PR #3325 proposes
  const pendingAnswers: [string, Answer][] = [
    [
      "settlement_pending with its transaction",
      json({ success: false, errorReason: "settlement_pending", transaction: "0xabc" }),
    ],
    ["settlement_pending without one", json({ success: false, errorReason: "settlement_pending", transaction: "" })],
    ["success: true with status pending", json({ success: true, status: "pending", transaction: "0xabc" })],
    ["status scheduled", json({ success: false, status: "scheduled", errorReason: "insufficient_funds" })],
  ];
  for (const [what, reply] of pendingAnswers) {
    it(`asks once more, with the same payment, on ${what}; still pending, the chain decides, never a refusal`, async () => {
      answer = () => reply;
      const settling = backend({ timeoutMs: 1_000 }).settle(payment);
      await expect(settling).rejects.toThrow(
        /could not confirm the settlement \(.+\); the chain decides \(now: not asked here\)$/,
      );
      const settles = received.filter((r) => r.path.endsWith("/settle"));
      expect(settles).toHaveLength(2);
      expect(settles[1]?.body).toBe(settles[0]?.body);
      answer = () => reply;
      const moved = backend({ state: async () => ({ state: "settled", transaction: "0xmoved" }) });
      expect(await moved.settle(payment)).toEqual({ ok: true, transaction: "0xmoved", simulated: false });
    });
  }

  it("settles a payment the facilitator answers pending first and settled when asked again", async () => {
    const replies = [json({ success: false, errorReason: "settlement_pending", transaction: "0xabc" })];
    answer = () => replies.shift() ?? json({ success: true, status: "settled", transaction: "0xabc" });
    expect(await backend({ timeoutMs: 1_000 }).settle(payment)).toEqual({
      ok: true,
      transaction: "0xabc",
      simulated: false,
    });
    expect(received.filter((r) => r.path.endsWith("/settle"))).toHaveLength(2);
  });

  it("throws when the facilitator cannot be reached, naming the call and not the URL (a key may sit in its path)", async () => {
    const unreachable = backend({ url: "http://127.0.0.1:9/sk_live_SECRET" }).settle(payment);
    await expect(unreachable).rejects.toThrow(/^the facilitator's \/settle failed/);
    await expect(unreachable).rejects.not.toThrow(/SECRET/);
  });
});

describe("the facilitator's Solana fee payer", () => {
  it("is read from GET /supported for the route's network", async () => {
    expect(await supportedFeePayer({ url, timeoutMs: 500 }, "solana-devnet")).toBe(FEE_PAYER);
    expect(received[0]).toMatchObject({ method: "GET", path: "/facilitator/supported" });
  });

  it("is an error when the facilitator announces none for the network", async () => {
    await expect(supportedFeePayer({ url, timeoutMs: 500 }, "solana")).rejects.toThrow(
      "the facilitator did not provide a fee payer for network: solana",
    );
  });
});

describe("the facilitator's readiness", () => {
  it("pings GET /supported with the auth header, and fails when it cannot be reached or the signal aborts", async () => {
    await backend({ authHeader: "X-Key: k" }).ping?.(new AbortController().signal);
    expect(received[0]).toMatchObject({ method: "GET", path: "/facilitator/supported", headers: { "x-key": "k" } });
    await expect(backend({ url: "http://127.0.0.1:9" }).ping?.(new AbortController().signal)).rejects.toThrow(
      FacilitatorError,
    );
    await expect(backend().ping?.(AbortSignal.abort())).rejects.toThrow(FacilitatorError);
  });
});

describe("the service with SETTLEMENT=facilitator", () => {
  let service: AnalyticsService;
  beforeAll(async () => {
    // Response validation off: compiling its schemas on the first request would only add seconds here.
    const env = { SETTLEMENT: "facilitator", FACILITATOR_URL: url, LEDGER_DB: ":memory:", VALIDATE_RESPONSES: "false" };
    service = await createAnalyticsService(loadAnalyticsConfig(env), { logger: createLogger("silent") });
  });
  afterAll(() => service?.close());

  const payer = privateKeyToAccount(generatePrivateKey());
  const challenge = (path: string) => request(service.app).post(path).send({});
  const signed = async () => signEvmPayment(payer, (await challenge("/base/defi/tvl")).body.accepts[0]);
  const pay = (header: string) => request(service.app).post("/base/defi/tvl").set("X-PAYMENT", header).send({});
  const statuses = async () => (await service.ledger.rows()).map((row) => row.status);

  it("announces the fee payer the facilitator lists in /supported", async () => {
    expect((await challenge("/defi/tvl")).body.accepts[0].extra.feePayer).toBe(FEE_PAYER);
  });

  it("settles through POST /settle: 200, the facilitator's transaction in X-PAYMENT-RESPONSE, one settled row", async () => {
    answer = () =>
      json({ success: true, transaction: `0x${"ee".repeat(32)}`, network: "base-sepolia", payer: payer.address });
    const res = await pay(await signed());
    expect(res.status).toBe(200);
    expect(JSON.parse(Buffer.from(res.headers["x-payment-response"] as string, "base64").toString("utf8"))).toEqual({
      success: true,
      transaction: `0x${"ee".repeat(32)}`,
      network: "base-sepolia",
      payer: payer.address,
    });
    expect(await statuses()).toEqual(["settled"]);
  });

  it("answers a refusal with 402 and the facilitator's reason, recorded as failed", async () => {
    answer = () => json({ success: false, errorReason: "insufficient_funds" });
    const res = await pay(await signed());
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ error: "insufficient_funds", payer: payer.address });
    expect(await statuses()).toEqual(["settled", "failed"]);
  });

  it("answers an unknown outcome as a payment in progress, told when to come back, until recovery resolves it", async () => {
    answer = () => ({ status: 500, body: '{"echo":"Authorization: Bearer secret-token"}' });
    const header = await signed();
    const res = await pay(header);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: "payment_in_progress" });
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0);
    expect(res.headers["payment-required"]).toBeUndefined();
    expect(JSON.stringify(res.body)).not.toMatch(/secret-token/);
    expect(await statuses()).toEqual(["settled", "failed", "settling"]);
    expect((await service.ledger.rows())[2]).toMatchObject({ hasAnswer: true, reason: null });
    answer = () => json({ success: true, transaction: "0x01" });
    const retry = await pay(header);
    // held until recovery resolves it on the chain: told when to come back, never refused as a replay
    expect(retry.status).toBe(503);
    expect(retry.body).toMatchObject({ error: "payment_in_progress" });
    expect(Number(retry.headers["retry-after"])).toBeGreaterThan(0);
    expect(await statuses()).toEqual(["settled", "failed", "settling"]);
  });

  it("answers a pending settlement as a payment in progress, told when to come back, never a 402", async () => {
    answer = () => json({ success: false, errorReason: "settlement_pending", transaction: "0xabc" });
    const res = await pay(await signed());
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ error: "payment_in_progress" });
    expect(res.headers["retry-after"]).toMatch(/^[1-9][0-9]*$/);
    expect(res.headers["payment-required"]).toBeUndefined();
    expect((await service.ledger.rows()).at(-1)).toMatchObject({ status: "settling", hasAnswer: true });
  });

  it("answers 503 with Retry-After, never a 402, when the facilitator fails after sending: the chain decides", async () => {
    // @x402/evm's and @x402/svm's facilitators when the wait for the confirmation fails: the money may have moved
    for (const errorReason of [
      "transaction_failed",
      "Timed out while waiting for transaction with hash 0xabc to be confirmed.",
    ]) {
      answer = () => json({ success: false, errorReason, transaction: "" });
      const res = await pay(await signed());
      expect(res.status, errorReason).toBe(503);
      expect(res.headers["retry-after"], errorReason).toMatch(/^[1-9][0-9]*$/);
      expect(JSON.stringify(res.body)).not.toMatch(/0xabc/);
      const row = (await service.ledger.rows()).at(-1);
      expect(row, errorReason).toMatchObject({ status: "settling", hasAnswer: true, reason: null });
    }
  });
});
