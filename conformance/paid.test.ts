// Every paid operation (POST and legacy GET) under every selected prefix: the 402 challenge in both x402
// versions (v1 body, v2 PAYMENT-REQUIRED), a malformed payment refused with a 400 in either payment header and
// both headers at once, then the paid answer with its receipt, paid in each version; where the target publishes a
// receipt key (/.well-known/did.json), its signed offers and v2 receipts (signatures.ts). The mock (Prism behind its
// front) charges like the service, so the same exchange runs against every target.
import { describe } from "vitest";
import { type PaidCase, paidCases, title } from "./cases.js";
import {
  checkAnswer,
  checkBrowserReadable,
  checkChallenge,
  checkChallengeV2,
  checkEnvelope,
  checkReceipt,
  decodeHeader,
  Findings,
  RECEIPTS,
  X402_VERSIONS,
} from "./checks.js";
import { type CaseRequest, send, withHeaders } from "./http.js";
import { createPayer, payAndSend } from "./payer.js";
import { checkSignedOffers, checkSignedReceipt, type PublishedKeys, publishedKeys } from "./signatures.js";
import { skipReason } from "./skips.js";
import { caseTest, settings, useTarget } from "./suite.js";

const url = useTarget({ analytics: true });
const pay = await createPayer();
const checksOrigin = !skipReason(settings, "resourceOrigin");
const checksReceipt = !skipReason(settings, "receipt");
const checksSignatures = !skipReason(settings, "signatures");
let keys: Promise<PublishedKeys | undefined> | undefined;
/** The keys the target publishes (once per file), or undefined when it signs nothing. */
const signingKeys = () => (keys ??= publishedKeys(url("analyticsUrl"), settings.timeoutMs));

const PAYMENT_HEADERS = ["X-PAYMENT", "PAYMENT-SIGNATURE"];
const MALFORMED = "not base64 json!";

/** A 400 `invalid_payload` whose errors name each of `headers`. */
async function expectPaymentRefused(
  c: PaidCase,
  check: string,
  request: CaseRequest,
  headers: string[],
): Promise<void> {
  const f = new Findings(`${c.label} ${check}`);
  const answer = await send(url("analyticsUrl"), request, settings.timeoutMs);
  checkBrowserReadable(f, answer);
  const body = checkAnswer(f, c, answer, [400]);
  if (body) {
    f.equal("error", body.error, "invalid_payload");
    const errors = Array.isArray(body.errors) ? (body.errors as { location?: string; field?: string }[]) : [];
    for (const header of headers)
      if (!errors.some((e) => e.location === "header" && e.field?.toLowerCase() === header.toLowerCase()))
        f.add("errors", `must name header ${header}, got ${JSON.stringify(errors)}`);
  }
  f.assert();
}

describe(`paid operations on ${settings.kind}`, () => {
  for (const c of paidCases(settings.prefixes)) {
    caseTest(title(c, "402 challenge"), "challenge", async () => {
      const f = new Findings(`${c.label} 402 challenge`);
      const answer = await send(url("analyticsUrl"), c.request, settings.timeoutMs);
      checkChallenge(f, c, answer, checksOrigin ? url("analyticsUrl") : undefined);
      checkChallengeV2(f, c, answer);
      checkBrowserReadable(f, answer, ["PAYMENT-REQUIRED"]);
      f.assert();
    });

    caseTest(title(c, "signed offers"), ["challenge", "signatures"], async () => {
      const published = await signingKeys();
      if (!published) return; // the target publishes no key: it signs nothing, and nothing is judged
      const f = new Findings(`${c.label} signed offers`);
      const challenge = checkChallengeV2(f, c, await send(url("analyticsUrl"), c.request, settings.timeoutMs));
      if (challenge) await checkSignedOffers(f, challenge, published, Date.now());
      f.assert();
    });

    for (const header of PAYMENT_HEADERS) {
      const check = `400 malformed ${header}`;
      caseTest(title(c, check), "challenge", () =>
        expectPaymentRefused(c, check, withHeaders(c.request, { [header]: MALFORMED }), [header]),
      );
    }

    const both = Object.fromEntries(PAYMENT_HEADERS.map((header) => [header, MALFORMED]));
    caseTest(title(c, "400 both payment headers"), "challenge", () =>
      expectPaymentRefused(c, "400 both payment headers", withHeaders(c.request, both), PAYMENT_HEADERS),
    );

    for (const version of X402_VERSIONS) {
      const check = `paid answer (x402 v${version})`;
      caseTest(title(c, check), "paid", async () => {
        const f = new Findings(`${c.label} ${check}`);
        const paid = await payAndSend(f, c.request, c, url("analyticsUrl"), pay, settings.timeoutMs, version);
        if (paid) checkEnvelope(f, c, paid.answer, [200, 206]);
        if (paid && checksReceipt && paid.answer.status < 300) {
          checkReceipt(f, paid.answer, paid.paid);
          checkBrowserReadable(f, paid.answer, [RECEIPTS[version].header]);
          const published = version === 2 && checksSignatures ? await signingKeys() : undefined;
          const settlement = paid.answer.headers.get(RECEIPTS[2].header);
          if (published && settlement) {
            const expected = {
              resourceUrl: paid.paid.resource ?? "",
              timestamp: (paid.answer.json as { timestamp?: unknown })?.timestamp,
              body: paid.answer.text,
            };
            await checkSignedReceipt(f, decodeHeader(settlement), published, expected);
          }
        }
        f.assert();
      });
    }
  }
});
