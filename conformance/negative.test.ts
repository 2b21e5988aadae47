// negative_data_rejection: negative cases generated from the request schemas (missing required field, value above its
// maximum, unknown enum value, wrong type, pattern mismatch), sent without payment: each must be a 400 naming the field.
import { describe } from "vitest";
import { negativeCases, title } from "./cases.js";
import { checkRejection, Findings } from "./checks.js";
import { send } from "./http.js";
import { caseTest, isPrism, settings, useTarget } from "./suite.js";

const url = useTarget({ analytics: true, registry: true });

describe(`negative cases on ${settings.kind}`, () => {
  for (const c of negativeCases(settings.prefixes)) {
    caseTest(
      title(c, `negative_data_rejection: 400 ${c.description}`),
      c.service === "registry" ? "registry" : "negative",
      async () => {
        const f = new Findings(`${c.label} 400 ${c.description}`);
        const base = url(c.service === "registry" ? "registryUrl" : "analyticsUrl");
        checkRejection(f, c, await send(base, c.request, settings.timeoutMs), isPrism);
        f.assert();
      },
    );
  }
});
