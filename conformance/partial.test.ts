// The 206 answer of every paid operation: raw data, the rule engine's signal, no model output. In-process it
// comes from a service whose model always fails; the mock is asked for it with `Prefer: code=206` (and paid).
// Each is paid in both x402 versions and carries the receipt of the version paid in.
import { describe } from "vitest";
import { paidCases, title } from "./cases.js";
import { checkEnvelope, checkReceipt, Findings, X402_VERSIONS } from "./checks.js";
import { withHeaders } from "./http.js";
import { createPayer, payAndSend } from "./payer.js";
import { skipReason } from "./skips.js";
import { caseTest, isPrism, prefer, settings, useTarget } from "./suite.js";

const url = useTarget({ degraded: true });
const pay = await createPayer();
const checksReceipt = !skipReason(settings, "receipt");

describe(`206 partial answers on ${settings.kind}`, () => {
  for (const c of paidCases(settings.prefixes)) {
    for (const version of X402_VERSIONS) {
      const check = `206 partial (x402 v${version})`;
      caseTest(title(c, check), "partial", async () => {
        const f = new Findings(`${c.label} ${check}`);
        const paid = isPrism
          ? await payAndSend(
              f,
              withHeaders(c.request, prefer(206)),
              c,
              url("analyticsUrl"),
              pay,
              settings.timeoutMs,
              version,
            )
          : await payAndSend(f, c.request, c, url("degradedUrl"), pay, settings.timeoutMs, version);
        if (paid) checkEnvelope(f, c, paid.answer, [206]);
        if (paid && checksReceipt && paid.answer.status === 206) checkReceipt(f, paid.answer, paid.paid);
        f.assert();
      });
    }
  }
});
