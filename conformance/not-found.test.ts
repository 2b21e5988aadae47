// A paid operation's 404: an operation that names one entity (a pool, a position, a mint, a protocol) and says in the
// document that an unknown one is a 404, asked and paid for one that cannot exist (a fresh random Solana address),
// answers 404 with the contract's error body and no receipt: the payment is released, never charged. Which operations
// and which field the document says: the field whose description announces the 404, else the one field the request
// requires of an operation whose summary or description does.
import { randomBytes } from "node:crypto";
import { getAddressDecoder } from "@solana/kit";
import { describe } from "vitest";
import { DOCS, type PaidCase, paidCases, title } from "./cases.js";
import { checkAnswer, checkChallenge, checkNoReceipt, Findings } from "./checks.js";
import { send, withHeaders } from "./http.js";
import type { Operation, Schema } from "./openapi-doc.js";
import { createPayer, paymentHeader } from "./payer.js";
import { effective } from "./schemas.js";
import { caseTest, settings, useTarget } from "./suite.js";

const url = useTarget({ analytics: true });
const pay = await createPayer();

/** The body field naming the operation's entity, when the document says an unknown one is a 404. */
function entityField(c: PaidCase): string | undefined {
  const operation = DOCS.analytics.paths[c.template]?.[c.method.toLowerCase()] as Operation | undefined;
  const schema = operation?.requestBody?.content["application/json"]?.schema as Schema | undefined;
  if (!operation || !schema) return undefined;
  const body = effective(DOCS.analytics, schema);
  const properties = Object.entries(body.properties ?? {});
  const described = (field: unknown) => String(effective(DOCS.analytics, field as Schema).description ?? "");
  const announced = properties.find(([, field]) => /\b404\b/.test(described(field)));
  if (announced) return announced[0];
  const required = (body.required ?? []) as string[];
  return /\b404\b/.test(`${operation.summary ?? ""} ${operation.description ?? ""}`) && required.length === 1
    ? required[0]
    : undefined;
}

/** An address no pool, position, mint or protocol has: 32 random bytes in base58. */
const nowhere = () => getAddressDecoder().decode(randomBytes(32));

describe(`404 of an unknown entity on ${settings.kind}`, () => {
  for (const c of paidCases(settings.prefixes).filter((c) => c.method === "POST")) {
    const field = entityField(c);
    if (!field) continue;
    caseTest(title(c, `404 an unknown ${field}, not charged`), ["paid", "entityLookup"], async () => {
      const f = new Findings(`${c.label} 404 unknown ${field}`);
      const request = { ...c.request, body: { ...(c.request.body as object), [field]: nowhere() } };
      const requirement = checkChallenge(f, c, await send(url("analyticsUrl"), request, settings.timeoutMs));
      if (requirement) {
        const paid = withHeaders(request, await paymentHeader(pay, 1, requirement, undefined));
        const answer = await send(url("analyticsUrl"), paid, settings.timeoutMs);
        const body = checkAnswer(f, c, answer, [404]);
        if (body) f.equal("error", body.error, "not_found");
        checkNoReceipt(f, answer);
      }
      f.assert();
    });
  }
});
