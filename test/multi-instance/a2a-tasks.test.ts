// A2A tasks shared by two instances of the service, separate processes over one PostgreSQL schema, as behind a load
// balancer: a task started on one is read, paid and completed on the other, the first then answers it completed with
// the same artifact, and the same payment sent to the first gets the same task, charged once. Two different payments
// sent at once to the two instances on one task: one is charged, the other's caller is told the task is another
// payment's (working, come back) or over, and is never charged, whatever it does as told.
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type A2aTask,
  envelopeOf,
  getTask,
  metadataOf,
  paymentAnswer,
  paymentRequiredOf,
  payOnBase,
  payTask,
  type RpcReply,
  startTask,
} from "../support/a2a-calls.js";
import { startSlowModel } from "../support/fake-model.js";
import { ledgerRows, sharedStoresEnv, startInstances } from "../support/instances.js";
import { delivered } from "../support/paid-load.js";
import type { ServiceProcess } from "../support/processes.js";
import { dropSchema, hasPostgres, TEST_DATABASE_URL, uniqueName } from "../support/services.js";

const schema = uniqueName("a2a_tasks");
let a: ServiceProcess;
let b: ServiceProcess;
let model: Awaited<ReturnType<typeof startSlowModel>>;

/** A fresh payer's payment on the task's PaymentRequired, and the payer's address as the ledger records it. */
async function paymentFor(task: A2aTask) {
  const account = privateKeyToAccount(generatePrivateKey());
  return { payment: await payOnBase(account, paymentRequiredOf(task)), payer: account.address.toLowerCase() };
}

const rowsOf = async (payer: string) => (await ledgerRows(schema)).filter((row) => row.payer.toLowerCase() === payer);

/** The JSON-RPC error a payment on a task completed by another payment is answered with. */
const over = (reply: RpcReply<unknown>) =>
  reply.error?.code === -32004 && (reply.error.data as { state?: string }).state === "TASK_STATE_COMPLETED";

describe.skipIf(!hasPostgres())("A2A tasks on two instances over one PostgreSQL", () => {
  beforeAll(async () => {
    // slow enough that a payment is still in progress when another arrives on its task
    model = await startSlowModel({ delayMs: 500, failEvery: 1_000_000 });
    const env = { ...sharedStoresEnv(TEST_DATABASE_URL, schema), INSIGHT_BASE_URL: model.url, INSIGHT_ATTEMPTS: "1" };
    [a, b] = (await startInstances(2, env)) as [ServiceProcess, ServiceProcess];
  }, 180_000);

  afterAll(async () => {
    await Promise.all([a, b].map((instance) => instance?.kill("SIGKILL")));
    await model?.close();
    await dropSchema(schema);
  });

  it("completes on one instance a task started on the other, and answers it the same on both", async () => {
    const task = await startTask(a.url, "defiTvl", { limit: 3 });
    expect(metadataOf(task)["x402.payment.status"]).toBe("payment-required");
    // the other instance finds it waiting for the same offer (its status message written when read)
    const waiting = await getTask(b.url, task.id);
    expect({ ...waiting, status: { state: waiting.status.state } }).toEqual({
      ...task,
      status: { state: task.status.state },
    });
    expect(metadataOf(waiting)["x402.payment.required"]).toMatchObject({
      accepts: (metadataOf(task)["x402.payment.required"] as { accepts: unknown[] }).accepts,
    });

    const { payment, payer } = await paymentFor(task);
    const done = (await payTask(b.url, task.id, payment)).result?.task as A2aTask;
    expect(done.id).toBe(task.id);
    expect(done.status.state, JSON.stringify(done.status)).toBe("TASK_STATE_COMPLETED");
    expect(envelopeOf(done)).toMatchObject({ data: expect.anything(), signal: expect.any(String) });
    expect(await getTask(a.url, task.id)).toEqual(done);

    // the same payment again, on the instance that started the task: the same task, not charged again
    expect((await payTask(a.url, task.id, payment)).result?.task).toEqual(done);
    const rows = await rowsOf(payer);
    expect(rows.map((row) => [row.status, row.transport])).toEqual([["settled", "a2a"]]);
    const [receipt] = metadataOf(done)["x402.payment.receipts"] as { transaction: string }[];
    expect(rows[0]?.transaction).toBe(receipt?.transaction);
  });

  it("charges one of two payments sent at once to the two instances on one task, never the other", async () => {
    const task = await startTask(a.url, "defiTvl", { limit: 4 });
    const payments = [await paymentFor(task), await paymentFor(task)];
    const replies = await Promise.all([a, b].map((at, i) => payTask(at.url, task.id, payments[i]?.payment)));
    const won = replies.findIndex((reply) => delivered(paymentAnswer(reply)));
    expect(won, JSON.stringify(replies)).toBeGreaterThanOrEqual(0);
    const lost = 1 - won;
    const loser = replies[lost] as RpcReply<{ task: A2aTask }>;
    const told = paymentAnswer(loser);
    // the loser is told the task is another payment's: working, come back (then it is over), or over already
    if (!over(loser)) {
      expect(told.status, told.text).toBe(503);
      expect(JSON.parse(told.text)).toMatchObject({ error: "payment_in_progress" });
      await new Promise((resolve) => setTimeout(resolve, Number(told.retryAfter) * 1000));
      expect(over(await payTask(b.url, task.id, payments[lost]?.payment))).toBe(true);
    }
    expect((await getTask(a.url, task.id)).artifacts).toEqual(replies[won]?.result?.task.artifacts);
    expect((await rowsOf(payments[won]?.payer as string)).map((row) => row.status)).toEqual(["settled"]);
    expect(await rowsOf(payments[lost]?.payer as string)).toEqual([]);
  });
});
