// The discovery judgements catch what they must, naming the field: the service's own live challenge (built by its
// code, as it serves it) passes, then it is broken the way a drifting deployment would break it.
import { describe, expect, it } from "vitest";
import { loadAnalyticsContract, type PaidRoute } from "../server/analytics/contract/analytics-contract.js";
import { challengeV2, encodeHeader } from "../server/analytics/payments/x402/protocols.js";
import { offerAt, routeOffer } from "../server/analytics/payments/x402/requirements.js";
import { loadAnalyticsConfig } from "../server/config/analytics.js";
import { type PaidCase, paidCases } from "./cases.js";
import { Findings, type PaymentRequiredV2 } from "./checks.js";
import { checkIndexerProbe } from "./discovery-checks.js";
import type { Answer } from "./http.js";
import { ALL_PREFIXES } from "./targets.js";

const ORIGIN = "http://localhost:4021";
const contract = loadAnalyticsContract();
const config = loadAnalyticsConfig({}, contract.developmentDefaults);
const cases = paidCases(ALL_PREFIXES);
const caseOf = (operationId: string) => cases.find((c) => c.operationId === operationId) as PaidCase;
const post = caseOf("Base_defiTvl");
const legacy = caseOf("Base_lpPoolsLegacy");

/** The 402 the service answers `c`'s route at `path`: the v1 body and the v2 challenge, as JSON and headers. */
function answerOf(c: PaidCase, path = c.request.path.split("?")[0], edit: (v2: PaymentRequiredV2) => void = () => {}) {
  const route = contract.paid.find((r) => r.operationId === c.operationId) as PaidRoute;
  const routed = routeOffer(route, config, contract.document);
  const offer = offerAt(routed, `${ORIGIN}${path}`);
  const v2 = structuredClone(challengeV2(offer, routed.extensions, "Payment required")) as PaymentRequiredV2;
  edit(v2);
  const body = { x402Version: 1, error: "X-PAYMENT header is required", message: "Pay", accepts: [offer.v1] };
  return {
    status: 402,
    headers: new Headers({ "PAYMENT-REQUIRED": encodeHeader(v2) }),
    contentType: "application/json",
    text: JSON.stringify(body),
    json: body,
  } satisfies Answer;
}

function failure(check: (f: Findings) => void): string {
  const f = new Findings("case");
  check(f);
  try {
    f.assert();
  } catch (error) {
    return (error as Error).message;
  }
  return "";
}

describe("indexer_probe's judgement", () => {
  it("passes the service's 402 on a POST and on a legacy GET with path parameters", () => {
    expect(failure((f) => checkIndexerProbe(f, post, answerOf(post)))).toBe("");
    expect(failure((f) => checkIndexerProbe(f, legacy, answerOf(legacy, "/base/lp/meteora/pools")))).toBe("");
  });

  it("names a 400, a missing header, an empty accepts, and what the Bazaar validators refuse", () => {
    expect(failure((f) => checkIndexerProbe(f, post, { ...answerOf(post), status: 400 }))).toContain(
      "status: expected 402 (an indexer lists only a route that answers it), got 400",
    );
    const bare = { ...answerOf(post), headers: new Headers() };
    expect(failure((f) => checkIndexerProbe(f, post, bare))).toContain("PAYMENT-REQUIRED: header is required");
    const broken = answerOf(post, undefined, (v2) => {
      v2.accepts = [];
      const bazaar = v2.extensions.bazaar as unknown as { info: { input: Record<string, unknown> } };
      bazaar.info.input.method = "GET";
      bazaar.info.input.bodyType = "yaml";
    });
    const message = failure((f) => checkIndexerProbe(f, post, broken));
    expect(message).toContain("PAYMENT-REQUIRED.accepts: must offer at least one requirement");
    expect(message).toMatch(/PAYMENT-REQUIRED\.extensions\.bazaar: validateDiscoveryExtensionSpec: .*bodyType/);
    expect(message).toMatch(/PAYMENT-REQUIRED\.extensions\.bazaar: validateAndExtract: invalid/);
  });
});
