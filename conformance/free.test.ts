// The free analytics endpoints: answered without payment, each body valid for its schema; the served OpenAPI
// document carries the interface's price for every paid operation.
import { describe } from "vitest";
import { freeCases, paidCases, title } from "./cases.js";
import { checkAnswer, Findings } from "./checks.js";
import { send } from "./http.js";
import type { OpenApiDoc } from "./openapi-doc.js";
import { caseTest, settings, useTarget } from "./suite.js";

const url = useTarget({ analytics: true });

describe(`free endpoints on ${settings.kind}`, () => {
  for (const c of freeCases()) {
    caseTest(title(c, "200 without payment"), "free", async () => {
      const f = new Findings(`${c.label} 200`);
      checkAnswer(f, c, await send(url("analyticsUrl"), c.request, settings.timeoutMs), [200]);
      f.assert();
    });
  }

  const served = freeCases().find((c) => c.template === "/openapi.json");
  if (served) {
    caseTest(title(served, "x-payment-info prices"), "openapiPrices", async () => {
      const f = new Findings(`${served.label} x-payment-info`);
      const doc = checkAnswer(f, served, await send(url("analyticsUrl"), served.request, settings.timeoutMs), [200]) as
        | OpenApiDoc
        | undefined;
      if (doc) {
        if (!String(doc.openapi).startsWith("3.1"))
          f.add("openapi", `expected 3.1.x, got ${JSON.stringify(doc.openapi)}`);
        for (const c of paidCases(settings.prefixes)) {
          const info = doc.paths?.[c.template]?.[c.method.toLowerCase()]?.["x-payment-info"];
          const at = `paths["${c.template}"].${c.method.toLowerCase()}.x-payment-info`;
          if (!info) f.add(at, `missing (${c.operationId})`);
          else {
            f.equal(`${at}.price.amount`, info.price?.amount, c.price.usd, ` (${c.operationId})`);
            f.equal(`${at}.maxAmountRequired`, info.maxAmountRequired, c.price.micro, ` (${c.operationId})`);
          }
        }
      }
      f.assert();
    });
  }
});
