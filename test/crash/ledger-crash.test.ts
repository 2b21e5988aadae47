// Crash test on the embedded ledger: `npm start`'s process is killed with SIGKILL in the middle of
// paid load, several times, and restarted on the same ledger file. The insight model is a slow local
// one (so requests are caught between admission and settlement) and some clients drop their
// connection before the answer arrives (so some answers are settled but never received). After each
// restart: every receipt a client holds has its settled row, recovery leaves nothing verified or
// settling, and every payment whose answer was lost gets an answer by repeating the request with
// the same payment (its stored answer when it had been settled, a fresh one when it had been
// released), charged once.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createPayer } from "../../conformance/payer.js";
import { openSqliteLedger } from "../../server/analytics/payments/ledger/sqlite-ledger.js";
import { startSlowModel } from "../support/fake-model.js";
import { type Answer, challenge, delivered, type PaidCall, send, sendAll } from "../support/paid-load.js";
import { type ServiceProcess, startService, until } from "../support/processes.js";

const ROUNDS = [6, 20, 40]; // answers received before the kill, one round each
const CALLS_PER_ROUND = 60;
const ROUTES = [
  { method: "POST", path: "/base/defi/tvl", body: (i: number) => ({ limit: 1 + (i % 20) }) },
  { method: "POST", path: "/skale/lp/pools", body: (i: number) => ({ limit: 1 + (i % 30) }) },
  { method: "POST", path: "/defi/yields", body: (i: number) => ({ limit: 1 + (i % 20) }) },
  { method: "GET", path: "/skale/defi/tvl", query: (i: number) => `?limit=${1 + (i % 20)}` },
] as const;

const dir = mkdtempSync(join(tmpdir(), "crash-"));
const model = await startSlowModel({ delayMs: 200, failEvery: 4 });
const env = {
  LEDGER_DB: join(dir, "ledger.db"),
  REGISTRY_DB: join(dir, "registry.db"),
  INSIGHT_BASE_URL: model.url,
  INSIGHT_ATTEMPTS: "1",
  // short enough that recovery releases a crashed process's unanswered payments within the test
  PAID_ANSWER_TIMEOUT_MS: "3000",
  // payments stay valid long enough for their retries, however slow the machine
  X402_MAX_TIMEOUT_SECONDS: "300",
  RECOVERY_INTERVAL_MS: "250",
  LOG_LEVEL: "silent",
};
let service: ServiceProcess | undefined;
afterAll(async () => {
  await service?.kill("SIGKILL");
  await model.close();
});

async function signCalls(baseUrl: string, round: number): Promise<PaidCall[]> {
  const pay = await createPayer();
  const requirements = await Promise.all(ROUTES.map((r) => challenge(baseUrl, r.method, r.path)));
  return Promise.all(
    Array.from({ length: CALLS_PER_ROUND }, async (_, i) => {
      const route = ROUTES[i % ROUTES.length] as (typeof ROUTES)[number];
      const requirement = requirements[i % ROUTES.length] as (typeof requirements)[number];
      const n = i + round * CALLS_PER_ROUND;
      return {
        method: route.method,
        path: "query" in route ? `${route.path}${route.query(n)}` : route.path,
        body: "body" in route ? route.body(n) : undefined,
        header: await pay(requirement),
        // every fifth client drops its connection before the (slow) answer comes
        ...(i % 5 === 0 ? { dropAfterMs: 60 } : {}),
        network: requirement.network,
        amount: BigInt(requirement.maxAmountRequired),
      };
    }),
  );
}

describe("SIGKILL under paid load, on the embedded SQLite ledger", () => {
  it(`keeps every promise over ${ROUNDS.length} crashes: receipts settled, nothing locked, lost answers served to their retry, charged once`, async () => {
    const receipts = new Map<string, Answer>(); // transaction → the answer that carried it
    let paid = 0n;
    let storedServed = 0;
    let servedAnew = 0;
    service = await startService(env);
    for (const [round, killAfter] of ROUNDS.entries()) {
      const calls = await signCalls(service.url, round);
      const running = service;
      const answers = await sendAll(running.url, calls, 12, {
        onAnswer: (answered) => {
          if (answered === killAfter) running.child.kill("SIGKILL");
        },
      });
      expect((await running.exited).signal).toBe("SIGKILL");

      service = await startService(env);
      const ledger = openSqliteLedger(env.LEDGER_DB);
      try {
        // recovery runs at start-up and then every 250 ms; payments of the killed process are past their deadline within 2 s
        await until(async () => {
          const stuck = (await ledger.rows()).filter((r) => r.status === "verified" || r.status === "settling");
          if (stuck.length) throw new Error(`${stuck.length} payments still verified or settling`);
        }, 20_000);

        const settledBefore = new Set(
          (await ledger.rows()).filter((r) => r.status === "settled").map((r) => r.transaction),
        );
        // every answer that came back is a delivered one whose receipt has its settled row
        for (const answer of answers.filter((a) => a !== undefined)) {
          expect(delivered(answer), answer.text).toBe(true);
          expect(settledBefore.has(answer.receipt?.transaction ?? "")).toBe(true);
        }
        // every lost answer: the same request with the same payment is answered now, stored or served anew
        const lost = calls.filter((_, i) => !answers[i]);
        const retried = await sendAll(service.url, lost, 12, { retry: true });
        for (const [i, answer] of retried.entries()) {
          const call = lost[i] as PaidCall;
          expect(delivered(answer), `${call.method} ${call.path}: ${answer?.status} ${answer?.text}`).toBe(true);
          // settled before the crash (its answer was stored), or released by recovery (or never received) and served now
          if (settledBefore.has(answer?.receipt?.transaction ?? "")) storedServed++;
          else servedAnew++;
        }
        for (const answer of [...answers, ...retried].filter((a) => a !== undefined))
          receipts.set(answer.receipt?.transaction as string, answer);
        paid += calls.reduce((sum, call) => sum + call.amount, 0n);
        // asking once more gives the same bytes, for no second charge
        for (const call of calls.filter((_, i) => i % 10 === 0)) {
          const again = await send(service.url, call, { retry: true });
          expect(again?.receipt && receipts.get(again.receipt.transaction)?.text).toBe(again?.text);
        }

        // the ledger agrees with what clients hold: one settled row per receipt, the amounts they paid, nothing else
        const rows = await ledger.rows();
        const settled = rows.filter((r) => r.status === "settled");
        expect(settled.map((r) => r.transaction).sort()).toEqual([...receipts.keys()].sort());
        expect(settled.reduce((sum, r) => sum + r.amount, 0n)).toBe(paid);
        expect(rows.filter((r) => r.status === "verified" || r.status === "settling")).toEqual([]);
      } finally {
        await ledger.close();
      }
    }
    // both kinds of lost answer happened (otherwise this test proved nothing), and every payment ended answered
    expect(storedServed).toBeGreaterThan(0);
    expect(servedAnew).toBeGreaterThan(0);
    expect(receipts.size).toBe(ROUNDS.length * CALLS_PER_ROUND);
  }, 240_000);
});
