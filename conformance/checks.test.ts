// The suite's judgements catch what they must, with messages naming operation, prefix and field: answers
// built from the document's own examples, then broken the way a faulty server would break them.
import { describe, expect, it } from "vitest";
import { loadAnalyticsContract, type PaidRoute } from "../server/analytics/contract/analytics-contract.js";
import { challengeV2, encodeHeader } from "../server/analytics/payments/x402/protocols.js";
import { offerAt, routeOffer } from "../server/analytics/payments/x402/requirements.js";
import { loadAnalyticsConfig } from "../server/config/analytics.js";
import { DOCS, type NegativeCase, negativeCases, type PaidCase, paidCases } from "./cases.js";
import {
  checkBrowserReadable,
  checkChallenge,
  checkChallengeV2,
  checkEnvelope,
  checkInputChallenge,
  checkReceipt,
  decodeHeader,
  Findings,
  type PaymentRequiredV2,
} from "./checks.js";
import type { Answer } from "./http.js";
import { ALL_PREFIXES } from "./targets.js";

const base = paidCases(ALL_PREFIXES).find((c) => c.operationId === "Base_defiTvl") as PaidCase;
const contract = loadAnalyticsContract();
const route = contract.paid.find((r) => r.operationId === base.operationId) as PaidRoute;
/** What the service offers on the route (testnet profile, the contract's development recipients). */
const offer = routeOffer(route, loadAnalyticsConfig({}, contract.developmentDefaults), contract.document);

type Edit = [path: (string | number)[], value: unknown];

/** The operation's example for `status`, with each edit applied (an `undefined` value deletes the field). */
function exampleAnswer(c: PaidCase, status: number, ...edits: Edit[]): Answer {
  const media = DOCS.analytics.paths[c.template]?.post?.responses[String(status)]?.content?.["application/json"] as {
    example: unknown;
  };
  const body = structuredClone(media.example) as Record<string | number, unknown>;
  for (const [path, value] of edits) {
    const parent = path
      .slice(0, -1)
      .reduce<Record<string | number, unknown>>((at, key) => at[key] as Record<string | number, unknown>, body);
    const last = path.at(-1) as string | number;
    if (value === undefined) delete parent[last];
    else parent[last] = value;
  }
  return { status, headers: new Headers(), contentType: "application/json", text: JSON.stringify(body), json: body };
}

/**
 * The 402 example with the v2 challenge the service sends beside it (its offer for the example's
 * resource), after `edit`, and `headers` over the challenge's own.
 */
function challengeAnswer(
  edit: (challenge: PaymentRequiredV2) => void = () => {},
  headers: Record<string, string> = {},
): Answer {
  const answer = exampleAnswer(base, 402);
  const { resource } = (answer.json as { accepts: { resource: string }[] }).accepts[0] as { resource: string };
  const challenge = structuredClone(challengeV2(offerAt(offer, resource), offer.extensions, "Payment required"));
  edit(challenge);
  return {
    ...answer,
    headers: new Headers({ "PAYMENT-REQUIRED": encodeHeader(challenge), "Cache-Control": "no-store", ...headers }),
  };
}

/** The 200 example with these receipt headers (an object is encoded as the service encodes it). */
const receiptAnswer = (headers: Record<string, unknown>): Answer => ({
  ...exampleAnswer(base, 200),
  headers: new Headers(
    Object.entries(headers).map(([name, value]) => [name, typeof value === "string" ? value : encodeHeader(value)]),
  ),
});

/** Each of `findings` is in the failure `message`. */
function expectAll(message: string, findings: string[]): void {
  for (const finding of findings) expect(message).toContain(finding);
}

function failure(check: (f: Findings) => void): string {
  const f = new Findings(`${base.label} check`);
  check(f);
  try {
    f.assert();
  } catch (error) {
    return (error as Error).message;
  }
  return "";
}

describe("checks", () => {
  it("pass the document's own examples", () => {
    expect(failure((f) => checkChallenge(f, base, exampleAnswer(base, 402)))).toBe("");
    expect(failure((f) => checkEnvelope(f, base, exampleAnswer(base, 200), [200]))).toBe("");
    expect(failure((f) => checkChallengeV2(f, base, challengeAnswer()))).toBe("");
  });

  it("name the operation, prefix and field of a wrong price", () => {
    const answer = exampleAnswer(base, 402, [["accepts", 0, "maxAmountRequired"], "2000"]);
    const message = failure((f) => checkChallenge(f, base, answer));
    expect(message).toContain("Base_defiTvl [base]");
    expect(message).toContain('accepts[0].maxAmountRequired: expected "1000" (0.001 USD in micro-USDC), got "2000"');
  });

  it("name a wrong network and a relative resource URL", () => {
    const answer = exampleAnswer(
      base,
      402,
      [["accepts", 0, "network"], "solana-devnet"],
      [["accepts", 0, "resource"], "/base/defi/tvl"],
    );
    const message = failure((f) => checkChallenge(f, base, answer));
    expect(message).toContain(
      'accepts[0].network: expected base or base-sepolia (prefix "/base"), got "solana-devnet"',
    );
    expect(message).toContain("accepts[0].resource: must be an absolute URL");
  });

  it("name each broken field of an envelope and a signal outside the vocabulary", () => {
    const answer = exampleAnswer(
      base,
      200,
      [["data", "total_tvl_usd"], undefined],
      [["data", "chains", 0, "tvl_usd"], "lots"],
      [["signal"], "snipe"],
    );
    const message = failure((f) => checkEnvelope(f, base, answer, [200]));
    expectAll(message, [
      "Base_defiTvl [base]",
      "/data: must have required property 'total_tvl_usd'",
      "/data/chains/0/tvl_usd: must be number",
      'signal: expected one of high_yield, medium_yield, low_yield, risky (the operation\'s vocabulary), got "snipe"',
    ]);
  });

  it("require a 206 to carry no model output", () => {
    const answer = exampleAnswer(base, 206, [["insight"], "still written"]);
    expect(failure((f) => checkEnvelope(f, base, answer, [206]))).toContain("insight:");
  });

  it("require the v2 challenge in PAYMENT-REQUIRED as base64 JSON, and a 402 never cached", () => {
    const missing = failure((f) => checkChallengeV2(f, base, { ...exampleAnswer(base, 402), headers: new Headers() }));
    expectAll(missing, [
      "Base_defiTvl [base]",
      'Cache-Control: expected "no-store" (a challenge is never cached), got null',
      "PAYMENT-REQUIRED: header is required on a 402",
    ]);
    const garbled = failure((f) =>
      checkChallengeV2(f, base, challengeAnswer(undefined, { "PAYMENT-REQUIRED": "not base64!" })),
    );
    expect(garbled).toContain("PAYMENT-REQUIRED: must be base64 of a JSON object (X402.PaymentRequiredV2)");
  });

  it("name each field of a v2 challenge that differs from the v1 body, the price or the contract", () => {
    const message = failure((f) =>
      checkChallengeV2(
        f,
        base,
        challengeAnswer((challenge) => {
          const [offered] = challenge.accepts as unknown as [Record<string, unknown>];
          Object.assign(offered, {
            network: "base-sepolia",
            amount: "2000",
            payTo: "0x0000000000000000000000000000000000000001",
          });
          offered.extra = { name: "USDC" };
          challenge.x402Version = 1 as 2;
          challenge.resource.url = "http://localhost:4021/base/defi/yields";
          challenge.error = "invalid_network";
        }),
      ),
    );
    expectAll(message, [
      "PAYMENT-REQUIRED.accepts[0].network: must be equal to one of the allowed values",
      'PAYMENT-REQUIRED.accepts[0].network: expected "eip155:84532" (the CAIP-2 id of the v1 body\'s base-sepolia)',
      'PAYMENT-REQUIRED.accepts[0].amount: expected "1000" (0.001 USD in micro-USDC), got "2000"',
      'PAYMENT-REQUIRED.accepts[0].payTo: expected "0xBab484B2daAFAb4BF6eD642A847517d33d106535" (the v1 body\'s)',
      'PAYMENT-REQUIRED.accepts[0].extra: expected {"name":"USDC","version":"2"} (the v1 body\'s)',
      "PAYMENT-REQUIRED.x402Version: expected 2, got 1",
      'PAYMENT-REQUIRED.resource.url: expected "http://localhost:4021/base/defi/tvl" (the v1 body\'s resource)',
      'PAYMENT-REQUIRED.error: expected "Payment required" (no payment was sent), got "invalid_network"',
    ]);
  });

  it("require one v2 requirement, and the v1 body's reason for a refused payment", () => {
    const answer = challengeAnswer((challenge) => {
      challenge.accepts.push(challenge.accepts[0] as PaymentRequiredV2["accepts"][number]);
    });
    Object.assign(answer.json as object, { error: "invalid_exact_evm_payload_signature" });
    const message = failure((f) => checkChallengeV2(f, base, answer));
    expect(message).toContain("PAYMENT-REQUIRED.accepts.length: expected 1, got 2");
    expect(message).toContain(
      'PAYMENT-REQUIRED.error: expected "invalid_exact_evm_payload_signature" (the v1 body\'s reason), got "Payment required"',
    );
  });

  it("hold the Bazaar extension to the operation's method and to its own JSON Schema 2020-12", () => {
    const bazaar = (challenge: PaymentRequiredV2) =>
      challenge.extensions.bazaar as unknown as {
        info: { input: Record<string, unknown> };
        schema: Record<string, unknown>;
      };
    const wrong = failure((f) =>
      checkChallengeV2(
        f,
        base,
        challengeAnswer((challenge) => {
          Object.assign(bazaar(challenge).info.input, { method: "GET", body: { limit: 500 } });
        }),
      ),
    );
    expectAll(wrong, [
      'PAYMENT-REQUIRED.extensions.bazaar.info.input.method: expected "POST" (the operation\'s method), got "GET"',
      "PAYMENT-REQUIRED.extensions.bazaar.info.input.body.limit: must be <= 50",
      "(the extension's schema)",
    ]);
    const draft07 = failure((f) =>
      checkChallengeV2(
        f,
        base,
        challengeAnswer((challenge) => {
          bazaar(challenge).schema.$schema = "http://json-schema.org/draft-07/schema#";
        }),
      ),
    );
    expect(draft07).toContain(
      'PAYMENT-REQUIRED.extensions.bazaar.schema.$schema: expected "https://json-schema.org/draft/2020-12/schema"',
    );
    expect(draft07).toContain("PAYMENT-REQUIRED.extensions.bazaar.schema: is not a JSON Schema 2020-12");
  });

  it("require the receipt of the version paid in, and only that one", () => {
    const v2 = { success: true, transaction: "0xabc", network: "eip155:84532", payer: "0x1", amount: "1000" };
    const paidV2 = { version: 2, network: "base-sepolia", amount: "1000" } as const;
    expect(failure((f) => checkReceipt(f, receiptAnswer({ "PAYMENT-RESPONSE": v2 }), paidV2))).toBe("");
    const wrong = failure((f) =>
      checkReceipt(
        f,
        receiptAnswer({
          "PAYMENT-RESPONSE": { ...v2, success: false, network: "base-sepolia", amount: "999" },
          "X-PAYMENT-RESPONSE": v2,
        }),
        paidV2,
      ),
    );
    expectAll(wrong, [
      "X-PAYMENT-RESPONSE: must not come with a payment in PAYMENT-SIGNATURE (the receipt is in PAYMENT-RESPONSE)",
      "PAYMENT-RESPONSE.success: expected true, got false",
      'PAYMENT-RESPONSE.network: expected "eip155:84532" (the CAIP-2 id of base-sepolia), got "base-sepolia"',
      'PAYMENT-RESPONSE.amount: expected "1000" (the price), got "999"',
      "PAYMENT-RESPONSE.network: must be equal to one of the allowed values",
      "(X402.SettlementReceiptV2)",
    ]);
    const missing = failure((f) => checkReceipt(f, receiptAnswer({ "X-PAYMENT-RESPONSE": v2 }), paidV2));
    expect(missing).toContain("PAYMENT-RESPONSE: header is required on a paid answer");

    const v1 = failure((f) =>
      checkReceipt(f, receiptAnswer({ "X-PAYMENT-RESPONSE": { ...v2, network: "base" }, "PAYMENT-RESPONSE": v2 }), {
        ...paidV2,
        version: 1,
      }),
    );
    expect(v1).toContain(
      "PAYMENT-RESPONSE: must not come with a payment in X-PAYMENT (the receipt is in X-PAYMENT-RESPONSE)",
    );
    expect(v1).toContain('X-PAYMENT-RESPONSE.network: expected "base-sepolia", got "base"');
  });
});

describe("the check of an unpaid request whose input breaks the contract", () => {
  const limit = negativeCases(ALL_PREFIXES).find(
    (c) => c.operationId === "Base_defiTvl" && c.field === "limit" && c.mutation === "maximum",
  ) as NegativeCase & { paid: PaidCase };
  const named = { location: "body", field: "limit", message: "must be <= 50" };
  /** The 402 example with both challenges, its body naming `errors` with `message`. */
  const unpaid = (errors: unknown[], message = "Fix limit (must be <= 50) before paying: then pay.") => {
    const answer = challengeAnswer();
    Object.assign(answer.json as object, { errors, message });
    return answer;
  };

  it("passes the challenge naming the field, told to fix it before paying, and returns what to pay", () => {
    let paid: ReturnType<typeof checkInputChallenge> = {};
    expect(failure((f) => (paid = checkInputChallenge(f, limit, unpaid([named]))))).toBe("");
    expect(paid.requirement?.maxAmountRequired).toBe("1000");
    expect(paid.v2?.accepts[0]?.amount).toBe("1000");
  });

  it("names a 400, errors that miss the field, a message that does not say to fix it first", () => {
    const refused = { ...exampleAnswer(base, 400), status: 400 };
    expect(failure((f) => checkInputChallenge(f, limit, refused))).toContain("status: expected 402, got 400");
    const message = failure((f) =>
      checkInputChallenge(f, limit, unpaid([{ ...named, field: "chain" }], "Pay 0.001 USD.")),
    );
    expectAll(message, [
      "Base_defiTvl [base]",
      'errors: must name body.limit (as the 400 of the request paid), got [{"location":"body","field":"chain"',
      'message: must start "Fix … before paying" (the input\'s errors), got "Pay 0.001 USD."',
    ]);
  });

  it("holds the body to X402.PaymentRequiredBody, and the v2 header to the plain challenge", () => {
    const answer = unpaid([{ location: "cookie", field: "limit" }]);
    const header = decodeHeader((answer.headers.get("PAYMENT-REQUIRED") ?? "") as string);
    answer.headers.set("PAYMENT-REQUIRED", encodeHeader({ ...header, errors: [named] }));
    const message = failure((f) => checkInputChallenge(f, limit, answer));
    expectAll(message, [
      "/errors/0/location: must be equal to one of the allowed values",
      "PAYMENT-REQUIRED.errors: must be absent",
    ]);
  });
});

describe("the CORS check", () => {
  const answer = (headers: Record<string, string>): Answer => ({
    ...exampleAnswer(base, 402),
    headers: new Headers(headers),
  });
  const open = { "access-control-allow-origin": "*" };

  it("passes an answer any origin may read with the header exposed, by name in any case or by `*`", () => {
    const exposing = (list: string) => answer({ ...open, "access-control-expose-headers": list });
    expect(
      failure((f) => checkBrowserReadable(f, exposing("X-Request-Id, payment-required"), ["PAYMENT-REQUIRED"])),
    ).toBe("");
    expect(failure((f) => checkBrowserReadable(f, exposing("*"), ["PAYMENT-REQUIRED"]))).toBe("");
    expect(failure((f) => checkBrowserReadable(f, answer(open)))).toBe("");
  });

  it("names what a browser would hide: no Allow-Origin, another origin, a header not exposed", () => {
    expect(failure((f) => checkBrowserReadable(f, answer({})))).toMatch(
      /access-control-allow-origin: expected "\*".*got null/,
    );
    expect(
      failure((f) => checkBrowserReadable(f, answer({ "access-control-allow-origin": "https://a.example" }))),
    ).toMatch(/got "https:\/\/a\.example"/);
    const hidden = answer({ ...open, "access-control-expose-headers": "X-Request-Id" });
    expect(failure((f) => checkBrowserReadable(f, hidden, ["PAYMENT-REQUIRED"]))).toMatch(/must list PAYMENT-REQUIRED/);
  });
});
