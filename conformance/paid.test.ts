// Every paid operation (POST and legacy GET) under every selected prefix: the 402 challenge, a malformed payment
// refused with a 400, then the paid answer with its receipt. The mock (Prism behind its front) charges like the
// service, so the same exchange runs against every target.
import { describe } from "vitest";
import { paidCases, title } from "./cases.js";
import { checkAnswer, checkChallenge, checkEnvelope, checkReceipt, Findings } from "./checks.js";
import { send, withHeaders } from "./http.js";
import { createPayer, payAndSend } from "./payer.js";
import { skipReason } from "./skips.js";
import { caseTest, settings, useTarget } from "./suite.js";

const url = useTarget({ analytics: true });
const pay = await createPayer();
const checksOrigin = !skipReason(settings, "resourceOrigin");
const checksReceipt = !skipReason(settings, "receipt");

describe(`paid operations on ${settings.kind}`, () => {
  for (const c of paidCases(settings.prefixes)) {
    caseTest(title(c, "402 challenge"), "challenge", async () => {
      const f = new Findings(`${c.label} 402 challenge`);
      checkChallenge(f, c, await send(url("analyticsUrl"), c.request, settings.timeoutMs), checksOrigin ? url("analyticsUrl") : undefined);
      f.assert();
    });

    caseTest(title(c, "400 malformed X-PAYMENT"), "challenge", async () => {
      const f = new Findings(`${c.label} 400 malformed X-PAYMENT`);
      const answer = await send(url("analyticsUrl"), withHeaders(c.request, { "X-PAYMENT": "not base64 json!" }), settings.timeoutMs);
      const body = checkAnswer(f, c, answer, [400]);
      if (body) {
        f.equal("error", body.error, "invalid_payload");
        const errors = Array.isArray(body.errors) ? (body.errors as { location?: string; field?: string }[]) : [];
        if (!errors.some((e) => e.location === "header" && e.field?.toLowerCase() === "x-payment"))
          f.add("errors", `must name header X-PAYMENT, got ${JSON.stringify(errors)}`);
      }
      f.assert();
    });

    caseTest(title(c, "paid answer"), "paid", async () => {
      const f = new Findings(`${c.label} paid answer`);
      const paid = await payAndSend(f, c.request, c, url("analyticsUrl"), pay, settings.timeoutMs);
      if (paid) checkEnvelope(f, c, paid.answer, [200, 206]);
      if (paid && checksReceipt && paid.answer.status < 300) checkReceipt(f, paid.answer, paid.network);
      f.assert();
    });
  }
});
