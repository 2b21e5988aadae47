// indexer_probe: every paid route on every selected prefix as x402's Bazaar indexer meets it (x402 issues #2156,
// #2840; docs/decisions/0016-challenge-before-input.md): the method its declaration names, no payment, and no body
// or a body of `{}` (a legacy GET: no query string). Each answer must be a 402 whose v2 PAYMENT-REQUIRED decodes,
// offers at least one requirement, and whose Bazaar extension passes @x402/extensions' own validators
// (validateDiscoveryExtensionSpec, validateAndExtract), declaring the route's method: an indexer lists nothing else.
import { describe } from "vitest";
import { type PaidCase, paidCases, title } from "./cases.js";
import { Findings } from "./checks.js";
import { checkIndexerProbe } from "./discovery-checks.js";
import { type CaseRequest, send } from "./http.js";
import { caseTest, settings, useTarget } from "./suite.js";

const url = useTarget({ analytics: true });
const CHECK = "indexer_probe";

/** The indexer's probes of a route: a POST without a body and with `{}`, a legacy GET without its query string. */
function probesOf(c: PaidCase): { what: string; request: CaseRequest }[] {
  const path = c.request.path.split("?")[0] as string;
  if (c.method === "GET") return [{ what: "no payment, no query", request: { method: "GET", path } }];
  return [
    { what: "no payment, no body", request: { method: "POST", path } },
    { what: "no payment, {}", request: { method: "POST", path, body: {} } },
  ];
}

describe(`${CHECK} on ${settings.kind}`, () => {
  for (const c of paidCases(settings.prefixes))
    for (const { what, request } of probesOf(c))
      caseTest(title(c, `${CHECK}: ${what} → a 402 the Bazaar validators accept`), "indexerProbe", async () => {
        const f = new Findings(`${c.label} ${CHECK}: ${request.method} ${request.path}, ${what}`);
        checkIndexerProbe(f, c, await send(url("analyticsUrl"), request, settings.timeoutMs));
        f.assert();
      });
});
