/**
 * What the in-process target charged for one request, read back from its ledger file (no other target exposes one):
 * a settled row exactly when the answer was delivered (it carries a receipt), and no payment left reserved after its
 * answer. Requests are told apart by the `X-Request-Id` the suite sends with them.
 */
import { afterAll } from "vitest";
import type { Findings } from "./checks.js";

let requestIds = 0;
/** A request id no other request of this run carries: `prefix-pid-n`. */
export const newRequestId = (prefix: string) => `${prefix}-${process.pid}-${++requestIds}`;

type Ledger = Awaited<
  ReturnType<typeof import("../server/analytics/payments/ledger/sqlite-ledger.js").openSqliteLedger>
>;

/**
 * A test file's check of what was charged, through one connection to the target's ledger (opened on its first use,
 * closed after the file's tests: closing one takes longer than a request). Judges nothing when `ledgerDb()` is
 * undefined, the target having no ledger to read.
 */
export function useCharges(ledgerDb: () => string | undefined) {
  let ledger: Promise<Ledger> | undefined;
  afterAll(async () => {
    await (await ledger)?.close();
  });
  /** Holds the ledger's rows of `requestId` to the answer's delivery. */
  return async function checkCharged(
    f: Findings,
    requestId: string,
    answer: { status: number; delivered: boolean },
  ): Promise<void> {
    const file = ledgerDb();
    if (!file) return;
    // Loaded only here: only the in-process target has a ledger file to read.
    ledger ??= import("../server/analytics/payments/ledger/sqlite-ledger.js").then((m) => m.openSqliteLedger(file));
    const rows = (await (await ledger).rows()).filter((r) => r.requestId === requestId);
    const settled = rows.filter((r) => r.status === "settled").length;
    f.equal(
      "ledger: settled rows of this request",
      settled,
      answer.delivered ? 1 : 0,
      answer.delivered ? " (it carries a receipt)" : ` (a ${answer.status})`,
    );
    if (rows.some((r) => r.status === "verified" || r.status === "settling"))
      f.add("ledger", "a payment stayed reserved after its answer");
  };
}
