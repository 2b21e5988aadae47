// payment_required_enforced: a paid operation is never served without a valid payment, on every prefix. Beside the
// unpaid request's 402 (paid.test.ts), three payments that must not buy an answer: a bogus one (signed, then its
// authorization or transaction altered, so the signature no longer holds), a reused one (it already bought this
// request's answer in x402 v1, and is presented again for another request: the same one asked in x402 v2), and one
// signed for another prefix's network. Each must be refused with a 402 naming why, and carry no receipt. And the 409:
// a payment identifier (x402 `payment-identifier`) one payer bought with, sent by another payer for the same request.
import { describe } from "vitest";
import { newPaymentId } from "../client/x402/types.js";
import { decodeHeader, encodeHeader, PAYMENT_HEADERS } from "../lib/x402-headers.js";
import { type PaidCase, paidCases, title } from "./cases.js";
import { checkAnswer, checkChallenge, checkChallengeV2, checkNoReceipt, Findings } from "./checks.js";
import { type CaseRequest, send, withHeaders } from "./http.js";
import { createPayer, paymentHeader } from "./payer.js";
import { caseTest, settings, useTarget } from "./suite.js";
import { ALL_PREFIXES } from "./targets.js";

const url = useTarget({ analytics: true });
const pay = await createPayer();
const otherPayer = await createPayer();
const CHECK = "payment_required_enforced";

/** The case's challenge in both versions (a finding when it is not one). */
async function challengeOf(f: Findings, c: PaidCase, request: CaseRequest = c.request) {
  const answer = await send(url("analyticsUrl"), request, settings.timeoutMs);
  return { requirement: checkChallenge(f, c, answer), v2: checkChallengeV2(f, c, answer) };
}

/** Sends `request` paid with `headers` and expects it refused: a 402 with the challenge, no receipt. */
async function expectRefused(f: Findings, c: PaidCase, headers: Record<string, string>): Promise<void> {
  const answer = await send(url("analyticsUrl"), withHeaders(c.request, headers), settings.timeoutMs);
  if (answer.status < 300) f.add("status", `served (${answer.status}) without a valid payment`);
  else checkAnswer(f, c, answer, [402]);
  checkNoReceipt(f, answer);
}

/** A signed v1 payment altered after signing: another EIP-3009 nonce, or a byte of each Solana signature made flipped. */
function bogus(header: string): string {
  const payment = decodeHeader(header) as { payload: { authorization?: { nonce: string }; transaction?: string } };
  const { authorization, transaction } = payment.payload;
  if (authorization) authorization.nonce = `0x${"ab".repeat(32)}`;
  if (transaction) {
    // The wire form starts with the signature count (one byte below 128), then 64 bytes a signature; the fee
    // payer's slot is still empty (the facilitator signs it), so every signature made is altered.
    const bytes = Buffer.from(transaction, "base64");
    for (let slot = 1; slot < 1 + (bytes[0] as number) * 64; slot += 64)
      if (bytes.subarray(slot, slot + 64).some(Boolean)) bytes[slot] = (bytes[slot] as number) ^ 0xff;
    payment.payload.transaction = bytes.toString("base64");
  }
  return encodeHeader(payment);
}

const IDENTIFIER = "payment-identifier";

/** A v2 payment header with x402's `payment-identifier` id set in the echoed declaration. */
function identified(header: Record<string, string>, id: string): Record<string, string> {
  const payment = decodeHeader(header[PAYMENT_HEADERS[2]] as string) as {
    extensions: Record<string, { info?: object }>;
  };
  const declared = payment.extensions[IDENTIFIER] ?? {};
  payment.extensions[IDENTIFIER] = { ...declared, info: { ...declared.info, id } };
  return { [PAYMENT_HEADERS[2]]: encodeHeader(payment) };
}

/** The same operation under another prefix: its challenge names another network. */
const elsewhere = (c: PaidCase) =>
  paidCases(ALL_PREFIXES.filter((p) => p.name !== c.prefix.name)).find((o) => o.row === c.row && o.method === c.method);

describe(`${CHECK} on ${settings.kind}`, () => {
  for (const c of paidCases(settings.prefixes)) {
    caseTest(title(c, `${CHECK}: a bogus payment → 402`), ["challenge", "bogusPayment"], async () => {
      const f = new Findings(`${c.label} ${CHECK}: bogus payment`);
      const { requirement } = await challengeOf(f, c);
      if (requirement) await expectRefused(f, c, { [PAYMENT_HEADERS[1]]: bogus(await pay(requirement)) });
      f.assert();
    });

    caseTest(title(c, `${CHECK}: a reused payment → 402`), ["paid", "reusedPayment"], async () => {
      const f = new Findings(`${c.label} ${CHECK}: reused payment`);
      const { requirement, v2 } = await challengeOf(f, c);
      if (requirement && v2) {
        const v1 = await paymentHeader(pay, 1, requirement, v2);
        const first = await send(url("analyticsUrl"), withHeaders(c.request, v1), settings.timeoutMs);
        checkAnswer(f, c, first, [200, 206]);
        const { payload } = decodeHeader(v1[PAYMENT_HEADERS[1]] as string) as { payload: unknown };
        const again = {
          x402Version: 2,
          accepted: v2.accepts[0],
          payload,
          resource: v2.resource,
          extensions: v2.extensions,
        };
        await expectRefused(f, c, { [PAYMENT_HEADERS[2]]: encodeHeader(again) });
      }
      f.assert();
    });

    caseTest(title(c, "409 a payment identifier another payer bought with"), ["paid", "reusedPayment"], async () => {
      const f = new Findings(`${c.label} 409 payment identifier of another payer`);
      const { requirement, v2 } = await challengeOf(f, c);
      // a target that does not declare payment identifiers cannot be asked for their conflict (the 409 stays uncovered)
      if (requirement && v2?.extensions?.[IDENTIFIER]) {
        const id = newPaymentId();
        const first = await send(
          url("analyticsUrl"),
          withHeaders(c.request, identified(await paymentHeader(pay, 2, requirement, v2), id)),
          settings.timeoutMs,
        );
        checkAnswer(f, c, first, [200, 206]);
        const other = identified(await paymentHeader(otherPayer, 2, requirement, v2), id);
        const conflict = await send(url("analyticsUrl"), withHeaders(c.request, other), settings.timeoutMs);
        const body = checkAnswer(f, c, conflict, [409]);
        if (body) f.equal("error", body.error, "payment_identifier_conflict");
        checkNoReceipt(f, conflict);
      }
      f.assert();
    });

    const other = elsewhere(c);
    if (!other) continue;
    caseTest(title(c, `${CHECK}: a payment for ${other.prefix.name}'s network → 402`), "challenge", async () => {
      const f = new Findings(`${c.label} ${CHECK}: payment for ${other.prefix.name}`);
      const { requirement } = await challengeOf(new Findings(other.label), other, other.request);
      if (!requirement) f.add("challenge", `${other.label} answered no challenge to sign`);
      else await expectRefused(f, c, await paymentHeader(pay, 1, requirement, undefined));
      f.assert();
    });
  }
});
