// Paid A2A skills survive a crash as paid HTTP requests and MCP tool calls do: tasks are started on `npm start`'s
// process, then paid at once, each with its own x402 v2 payment in its payment message; the process is killed with
// SIGKILL while payments are in progress and restarted on the same SQLite ledger, and every caller whose answer was
// lost sends the same payment message on the same task again, waiting as a working task says. Every task ends
// completed with its envelope, every payment is charged exactly once (recorded as an A2A call), and no caller whose
// payment was in flight is asked to pay again (a task asking for payment, which an agent reads as "pay again").
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import { openSqliteLedger } from "../../server/analytics/payments/ledger/sqlite-ledger.js";
import { envelopeOf, getTask, metadataOf, paymentRequiredOf, payOnBase, startTask } from "../support/a2a-calls.js";
import { startSlowModel } from "../support/fake-model.js";
import {
  type Answer,
  delivered,
  heldPaymentsEnv,
  killedUnderLoad,
  type PaidCall,
  retryAsTold,
  send,
} from "../support/paid-load.js";
import type { ServiceProcess } from "../support/processes.js";

const CALLS = 36;
const model = await startSlowModel({ delayMs: 400 });
const services: ServiceProcess[] = [];
afterAll(async () => {
  for (const service of services) await service.kill("SIGKILL");
  await model.close();
});

/** The payment message a started task is paid with: on the task's own PaymentRequired, by a payer of its own. */
async function paymentOn(baseUrl: string, i: number): Promise<PaidCall & { task: NonNullable<PaidCall["task"]> }> {
  const task = await startTask(baseUrl, "defiTvl", { limit: 1 + (i % 20) });
  const payment = await payOnBase(privateKeyToAccount(generatePrivateKey()), paymentRequiredOf(task));
  const { network, amount } = payment.accepted;
  return { method: "POST", path: "/a2a", header: "", network, amount: BigInt(amount), task: { id: task.id, payment } };
}

/** Every task started first, then each one's payment signed: the payment messages are what the load sends. */
const startAndSign = (baseUrl: string) => Promise.all(Array.from({ length: CALLS }, (_, i) => paymentOn(baseUrl, i)));

/** The payer's address, as the ledger records whom it charged. */
const payerOf = (call: PaidCall) =>
  (
    call.task?.payment as { payload: { authorization: { from: string } } } | undefined
  )?.payload.authorization.from.toLowerCase();

describe("SIGKILL under paid A2A payment messages", () => {
  it("keeps every interrupted payment's task, tells its caller when to send it again, and charges each once", async () => {
    const env = heldPaymentsEnv(mkdtempSync(join(tmpdir(), "a2a-crash-")), model.url);
    const { calls, answers, killed, restarted } = await killedUnderLoad(env, startAndSign, (started) => {
      services.push(started);
    });
    expect(killed.signal).toBe("SIGKILL");
    const url = restarted.url;
    const lost = calls.filter((_, i) => !delivered(answers[i]));
    expect(lost.length).toBeGreaterThan(0);
    const now = await Promise.all(lost.map((call) => send(url, call, { retry: true })));
    for (const answer of now) {
      if (answer?.status === 503) {
        expect(JSON.parse(answer.text)).toMatchObject({ error: "payment_in_progress" });
        expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      } else expect(delivered(answer), answer?.text).toBe(true);
    }
    // the crash caught payments in progress (otherwise this test proved nothing)
    expect(now.filter((answer) => answer?.status === 503).length).toBeGreaterThan(0);

    const later = await Promise.all(lost.map(async (call, i) => (await retryAsTold(url, call, now[i])).answer));
    for (const answer of later) expect(delivered(answer), answer?.text).toBe(true);
    // no caller was ever asked to pay again (402: the task back in TASK_STATE_INPUT_REQUIRED, payment-failed)
    expect([...answers, ...now, ...later].filter((answer) => answer?.status === 402)).toEqual([]);

    const given = new Map<string, Answer>();
    for (const [i, call] of calls.entries()) given.set(call.task?.id as string, answers[i] as Answer);
    for (const [i, call] of lost.entries()) given.set(call.task?.id as string, later[i] as Answer);
    await everyTaskCompleted(url, given);
    await restarted.kill("SIGTERM");
    await chargedOnceEach(env.LEDGER_DB, calls, given);
  }, 150_000);
});

/** Each task, as any reader finds it: completed, its artifact the envelope and its receipt those its payer was given. */
async function everyTaskCompleted(url: string, given: Map<string, Answer>) {
  for (const [id, answer] of given) {
    const task = await getTask(url, id);
    expect(task.status.state).toBe("TASK_STATE_COMPLETED");
    expect(envelopeOf(task)).toMatchObject({ data: expect.anything(), signal: expect.any(String) });
    expect(JSON.stringify(envelopeOf(task))).toBe(answer.text);
    expect(metadataOf(task)["x402.payment.receipts"]).toEqual([answer.receipt]);
  }
}

/** The ledger, read from its file once the service stopped: one settled row per payment, each an A2A call. */
async function chargedOnceEach(file: string, calls: PaidCall[], given: Map<string, Answer>) {
  const ledger = openSqliteLedger(file);
  try {
    const settled = (await ledger.rows()).filter((row) => row.status === "settled");
    expect(settled.map((row) => row.payer.toLowerCase()).sort()).toEqual(calls.map(payerOf).sort());
    const receipts = [...given.values()].map((answer) => answer.receipt?.transaction);
    expect(settled.map((row) => row.transaction).sort()).toEqual(receipts.sort());
    expect(new Set(settled.map((row) => row.transport))).toEqual(new Set(["a2a"]));
  } finally {
    await ledger.close();
  }
}
