// The 206 answer of every paid operation: raw data, the rule engine's signal, no model output. In-process it
// comes from a service whose model always fails; the mock is asked for it with `Prefer: code=206` (and paid).
import { describe } from "vitest";
import { paidCases, title } from "./cases.js";
import { checkEnvelope, Findings } from "./checks.js";
import { withHeaders } from "./http.js";
import { createPayer, payAndSend } from "./payer.js";
import { caseTest, isPrism, prefer, settings, useTarget } from "./suite.js";

const url = useTarget({ degraded: true });
const pay = await createPayer();

describe(`206 partial answers on ${settings.kind}`, () => {
  for (const c of paidCases(settings.prefixes)) {
    caseTest(title(c, "206 partial"), "partial", async () => {
      const f = new Findings(`${c.label} 206 partial`);
      const paid = isPrism
        ? await payAndSend(f, withHeaders(c.request, prefer(206)), c, url("analyticsUrl"), pay, settings.timeoutMs)
        : await payAndSend(f, c.request, c, url("degradedUrl"), pay, settings.timeoutMs);
      if (paid) checkEnvelope(f, c, paid.answer, [206]);
      f.assert();
    });
  }
});
