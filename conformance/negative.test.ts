// negative_data_rejection: negative cases generated from the request schemas (missing required field, value above its
// maximum, unknown enum value, wrong type, pattern mismatch, a field a closed body does not have, a Solana address
// that is not 32 bytes). On a paid operation, sent without payment, each gets the 402 challenge whatever its input
// (docs/decisions/0016-challenge-before-input.md): its body an X402.PaymentRequiredBody whose `errors` name the field
// and whose message says to fix it before paying, its PAYMENT-REQUIRED the plain v2 challenge. Paid as that challenge
// asks (x402 v2), the same request is a 400 naming the field, with no receipt and (where the ledger can be read: the
// in-process target) nothing charged or left reserved. On the registry (free) each is a 400 naming the field.
import { describe } from "vitest";
import { type NegativeCase, negativeCases, type PaidCase, title } from "./cases.js";
import { newRequestId, useCharges } from "./charges.js";
import { checkInputChallenge, checkNoReceipt, checkRejection, Findings } from "./checks.js";
import { send, withHeaders } from "./http.js";
import { createPayer, paymentHeader } from "./payer.js";
import { caseTest, isPrism, settings, useTarget } from "./suite.js";

const url = useTarget({ analytics: true, registry: true });
const pay = await createPayer();
const checkCharged = useCharges(url.ledgerDb);
const CHECK = "negative_data_rejection";

const isPaid = (c: NegativeCase): c is NegativeCase & { paid: PaidCase } => c.paid !== undefined;

describe(`negative cases on ${settings.kind}`, () => {
  for (const c of negativeCases(settings.prefixes)) {
    if (!isPaid(c)) {
      caseTest(title(c, `${CHECK}: 400 ${c.description}`), "registry", async () => {
        const f = new Findings(`${c.label} 400 ${c.description}`);
        checkRejection(f, c, await send(url("registryUrl"), c.request, settings.timeoutMs), isPrism);
        f.assert();
      });
      continue;
    }

    caseTest(title(c, `${CHECK}: unpaid → 402 naming ${c.description}`), "negative", async () => {
      const f = new Findings(`${c.label} unpaid, 402 naming ${c.description}`);
      checkInputChallenge(f, c, await send(url("analyticsUrl"), c.request, settings.timeoutMs));
      f.assert();
    });

    caseTest(
      title(c, `${CHECK}: paid (x402 v2) → 400 ${c.description}, nothing charged`),
      ["negative", "paid"],
      async () => {
        const f = new Findings(`${c.label} paid, 400 ${c.description}`);
        const unpaid = await send(url("analyticsUrl"), c.request, settings.timeoutMs);
        const { requirement, v2 } = checkInputChallenge(new Findings(c.label), c, unpaid);
        if (!requirement || !v2) {
          f.add(
            "challenge",
            `the unpaid request answered no challenge to pay (${unpaid.status}): ${unpaid.text.slice(0, 200)}`,
          );
          f.assert();
          return;
        }
        const requestId = newRequestId("negative");
        const headers = { ...(await paymentHeader(pay, 2, requirement, v2)), "X-Request-Id": requestId };
        const answer = await send(url("analyticsUrl"), withHeaders(c.request, headers), settings.timeoutMs);
        checkRejection(f, c, answer, isPrism);
        checkNoReceipt(f, answer);
        await checkCharged(f, requestId, { status: answer.status, delivered: false });
        f.assert();
      },
    );
  }
});
