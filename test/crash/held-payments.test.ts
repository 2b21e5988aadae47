// A payment caught mid-request by a crash is held, not refused: `npm start`'s process is killed with SIGKILL under
// paid load and restarted at once, and every client whose answer was lost retries with the same payment right away.
// Each retry is answered, or told with `Retry-After` when to come back (503 payment_in_progress); none is refused with
// a 402, which an x402 client reads as "pay again". A client that waits as told is served then, charged once.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createPayer } from "../../conformance/payer.js";
import { openSqliteLedger } from "../../server/analytics/payments/ledger/sqlite-ledger.js";
import { startSlowModel } from "../support/fake-model.js";
import {
  type Answer,
  challenge,
  delivered,
  heldPaymentsEnv,
  killedUnderLoad,
  type PaidCall,
  retryAsTold,
  send,
} from "../support/paid-load.js";
import type { ServiceProcess } from "../support/processes.js";

const CALLS = 48;
const dir = mkdtempSync(join(tmpdir(), "held-"));
const model = await startSlowModel({ delayMs: 400 });
const env = heldPaymentsEnv(dir, model.url);
let service: ServiceProcess | undefined;
afterAll(async () => {
  await service?.kill("SIGKILL");
  await model.close();
});

async function signCalls(baseUrl: string): Promise<PaidCall[]> {
  const pay = await createPayer();
  const requirement = await challenge(baseUrl, "POST", "/base/defi/tvl");
  return Promise.all(
    Array.from({ length: CALLS }, async (_, i) => ({
      method: "POST" as const,
      path: "/base/defi/tvl",
      body: { limit: 1 + (i % 20) },
      header: await pay(requirement),
      network: requirement.network,
      amount: BigInt(requirement.maxAmountRequired),
    })),
  );
}

describe("SIGKILL under paid load, retried at once", () => {
  it("holds every payment a crash interrupted, with Retry-After, and serves it when the client comes back as told", async () => {
    const { calls, answers, killed, restarted } = await killedUnderLoad(env, signCalls, (started) => {
      service = started;
    });
    expect(killed.signal).toBe("SIGKILL");
    const lost = calls.filter((_, i) => !answers[i]);
    const now = await Promise.all(lost.map((call) => send(restarted.url, call, { retry: true })));

    // at once: answered, or held with the time to come back; never a 402
    const held = now.filter((answer) => answer?.status === 503);
    for (const [i, answer] of now.entries()) {
      expect(answer?.status, `${lost[i]?.path}: ${answer?.text}`).not.toBe(402);
      if (answer?.status === 503) {
        expect(JSON.parse(answer.text)).toMatchObject({ error: "payment_in_progress" });
        expect(Number(answer.retryAfter)).toBeGreaterThan(0);
        expect(answer.receipt).toBeUndefined();
      } else expect(delivered(answer), answer?.text).toBe(true);
    }
    // the crash caught payments in progress (otherwise this test proved nothing)
    expect(held.length).toBeGreaterThan(0);

    // waiting as told, each is served, at the first retry after the wait
    const later = await Promise.all(lost.map((call, i) => retryAsTold(restarted.url, call, now[i] as Answer)));
    for (const { answer, waits } of later) {
      expect(delivered(answer), answer?.text).toBe(true);
      expect(waits).toBeLessThanOrEqual(1);
    }

    // charged once: one settled row per receipt a client holds
    const receipts = new Set(
      [...answers, ...later.map((l) => l.answer)].filter(delivered).map((a) => a?.receipt?.transaction),
    );
    const ledger = openSqliteLedger(env.LEDGER_DB);
    try {
      const settled = (await ledger.rows()).filter((r) => r.status === "settled");
      expect(settled.map((r) => r.transaction).sort()).toEqual([...receipts].sort());
      expect(receipts.size).toBe(CALLS);
    } finally {
      await ledger.close();
    }
  }, 120_000);
});
