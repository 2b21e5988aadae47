// payment_lookup: a payer asks, free, what became of its payment, under the prefix it paid on (GET {prefix}/payments/{id}
// and /payments/by-transaction/{transaction}). An id or a transaction no payment has is a 404 with the contract's error
// body; a purchase paid with an x402 payment-identifier is settled, naming its transaction and, by identifier, the very
// receipt its answer carried (by transaction, no receipt). The mock remembers the payments it served, so every target
// answers the same.
import { randomUUID } from "node:crypto";
import { describe } from "vitest";
import { lookupCases, paidCases, title } from "./cases.js";
import { checkAnswer, decodeHeader, Findings, RECEIPTS } from "./checks.js";
import { send } from "./http.js";
import { createPayer, payAndSend } from "./payer.js";
import { caseTest, settings, useTarget } from "./suite.js";

const CHECK = "payment_lookup";
const url = useTarget({ analytics: true });
const pay = await createPayer();

type Settlement = { transaction?: string; extensions?: { "offer-receipt"?: { info?: { receipt?: unknown } } } };

const lookupPath = (prefix: string, by: "id" | "transaction", value: string) =>
  `${prefix}/payments/${by === "id" ? "" : "by-transaction/"}${encodeURIComponent(value)}`;

describe(`payment lookups on ${settings.kind}`, () => {
  for (const c of lookupCases(settings.prefixes)) {
    caseTest(title(c, `${CHECK}: unknown ${c.by} is a 404`), "free", async () => {
      const f = new Findings(`${c.label} ${CHECK} unknown`);
      const value = c.by === "id" ? `pay_unknown_${randomUUID().replaceAll("-", "")}` : `0x${"0".repeat(64)}`;
      const path = lookupPath(c.prefix.prefix, c.by, value);
      const body = checkAnswer(
        f,
        c,
        await send(url("analyticsUrl"), { method: "GET", path }, settings.timeoutMs),
        [404],
      );
      if (body) f.equal("error", body.error, "not_found");
      f.assert();
    });
  }

  for (const c of paidCases(settings.prefixes).filter((p) => !p.legacy && p.row === "POST /defi/tvl")) {
    const [byId, byTransaction] = (["id", "transaction"] as const).map(
      (by) => lookupCases([c.prefix]).find((l) => l.by === by) as ReturnType<typeof lookupCases>[number],
    );
    caseTest(title(c, `${CHECK}: settled with the answer's receipt`), "paid", async () => {
      const f = new Findings(`${c.label} ${CHECK} settled`);
      const id = `pay_conformance_${randomUUID().replaceAll("-", "")}`;
      const paid = await payAndSend(f, c.request, c, url("analyticsUrl"), pay, settings.timeoutMs, 2, id);
      const header = paid?.answer.headers.get(RECEIPTS[2].header);
      if (!paid || paid.answer.status >= 300 || !header) {
        f.add("paid answer", `expected a 200 with ${RECEIPTS[2].header}, got ${paid?.answer.status}`);
        return f.assert();
      }
      const settlement = decodeHeader(header) as Settlement;
      const asked = await send(
        url("analyticsUrl"),
        { method: "GET", path: lookupPath(c.prefix.prefix, "id", id) },
        settings.timeoutMs,
      );
      const status = checkAnswer(f, byId ?? c, asked, [200]);
      if (status) {
        f.equal("status", status.status, "settled");
        f.equal("transaction", status.transaction, settlement.transaction);
        const carried = settlement.extensions?.["offer-receipt"]?.info?.receipt;
        if (carried) f.equal("receipt", JSON.stringify(status.receipt), JSON.stringify(carried), " (the answer's own)");
      }
      if (settlement.transaction) {
        const path = lookupPath(c.prefix.prefix, "transaction", settlement.transaction);
        const byTx = checkAnswer(
          f,
          byTransaction ?? c,
          await send(url("analyticsUrl"), { method: "GET", path }, settings.timeoutMs),
          [200],
        );
        if (byTx) {
          f.equal("by transaction: status", byTx.status, "settled");
          if ("receipt" in byTx) f.add("by transaction: receipt", "must not be given to a lookup by transaction");
        }
      }
      f.assert();
    });
  }
});
