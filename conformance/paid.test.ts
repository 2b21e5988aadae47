// Every paid operation (POST and legacy GET) under every selected prefix: the 402 challenge, then the paid answer.
import { describe } from "vitest";
import { paidCases, title } from "./cases.js";
import { checkChallenge, checkEnvelope, checkReceipt, Findings } from "./checks.js";
import { send, withHeaders } from "./http.js";
import { createPayer, payAndSend } from "./payer.js";
import { skipReason } from "./skips.js";
import { caseTest, isPrism, prefer, settings, useTarget } from "./suite.js";

const url = useTarget({ analytics: true });
const pay = await createPayer();
const checksOrigin = !skipReason(settings, "resourceOrigin");
const checksReceipt = !skipReason(settings, "receipt");

describe(`paid operations on ${settings.kind}`, () => {
  for (const c of paidCases(settings.prefixes)) {
    caseTest(title(c, "402 challenge"), "challenge", async () => {
      const f = new Findings(`${c.label} 402 challenge`);
      const request = isPrism ? withHeaders(c.request, prefer(402)) : c.request;
      checkChallenge(f, c, await send(url("analyticsUrl"), request, settings.timeoutMs), checksOrigin ? url("analyticsUrl") : undefined);
      f.assert();
    });

    caseTest(title(c, "paid answer"), "paid", async () => {
      const f = new Findings(`${c.label} paid answer`);
      if (isPrism) {
        checkEnvelope(f, c, await send(url("analyticsUrl"), withHeaders(c.request, prefer(200, true)), settings.timeoutMs), [200]);
      } else {
        const paid = await payAndSend(f, c, url("analyticsUrl"), pay, settings.timeoutMs);
        if (paid) checkEnvelope(f, c, paid.answer, [200, 206]);
        if (paid && checksReceipt && paid.answer.status < 300) checkReceipt(f, paid.answer, paid.network);
      }
      f.assert();
    });
  }
});
