// The database restarted under paid load: two instances over a throwaway PostgreSQL cluster of this
// test's own (never the machine's), which is stopped while payments keep coming and started again.
// While it is down every paid request that cannot reach it is a 503 `service_unavailable` without a
// receipt; once it is back the instances serve again without a restart, recovery leaves nothing
// locked, every payment whose answer was refused is served by a retry, and the ledger holds exactly
// one settled row per receipt a client holds.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaymentRequirements } from "../../client/x402/types.js";
import { createPayer, type Pay } from "../../conformance/payer.js";
import { openPostgresLedger } from "../../server/analytics/payments/ledger/postgres-ledger.js";
import { openDatabase } from "../../server/db/database.js";
import { reconcileWith } from "../contracts/reconcile.js";
import { ledgerRows, nothingLocked, sharedStoresEnv, spread, startInstances } from "../support/instances.js";
import { type Answer, challenge, delivered, type PaidCall } from "../support/paid-load.js";
import { type PostgresCluster, postgresBin, startPostgresCluster } from "../support/postgres-cluster.js";
import { type ServiceProcess, until } from "../support/processes.js";
import { databaseSettings, dropKeys, hasPostgres, hasRedis, uniqueName } from "../support/services.js";

const bin = postgresBin();
const prefix = `${uniqueName("restart")}:`;
let cluster: PostgresCluster;
let instances: ServiceProcess[] = [];
let pay: Pay;
const ROUTES = ["/base/lp/pools", "/skale/lp/pools", "/lp/pools"];

describe.skipIf(!hasPostgres() || !hasRedis() || !bin)("the database restarted under load", () => {
  beforeAll(async () => {
    cluster = await startPostgresCluster(bin as string);
    pay = await createPayer();
    instances = await startInstances(2, {
      ...sharedStoresEnv(cluster.url, "public", prefix),
      // fail fast while the database is away
      DATABASE_CONNECT_TIMEOUT_MS: "1000",
    });
  }, 180_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.kill("SIGKILL")));
    await cluster?.close();
    await dropKeys(prefix);
  });

  /** `count` calls with fresh payments, spread over the routes. */
  async function calls(count: number, round: number): Promise<PaidCall[]> {
    const base = instances[0]?.url as string;
    const requirements: PaymentRequirements[] = await Promise.all(ROUTES.map((path) => challenge(base, "POST", path)));
    return Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const requirement = requirements[i % ROUTES.length] as PaymentRequirements;
        return {
          method: "POST" as const,
          path: ROUTES[i % ROUTES.length] as string,
          body: { limit: 1 + ((i + round) % 20) },
          header: await pay(requirement),
          network: requirement.network,
          amount: BigInt(requirement.maxAmountRequired),
        };
      }),
    );
  }

  it("answers 503 without charge while it is down and serves normally once it is back", async () => {
    const urls = instances.map((instance) => instance.url);
    const sent: { call: PaidCall; answer: Answer | undefined }[] = [];
    const round = async (n: number, r: number) => {
      const batch = await calls(n, r);
      const answers = await spread(urls, batch);
      sent.push(...batch.map((call, i) => ({ call, answer: answers[i] })));
      return answers;
    };

    expect((await round(20, 0)).every(delivered)).toBe(true);
    // stopped while a round is in flight, and kept down for two more rounds
    const inFlight = round(30, 1);
    await cluster.stop();
    await inFlight;
    const whileDown = [...(await round(20, 2)), ...(await round(20, 3))];
    expect(whileDown.length).toBe(40);
    for (const answer of whileDown) {
      expect(answer?.status, answer?.text).toBe(503);
      expect(JSON.parse(answer?.text ?? "{}").error).toBe("service_unavailable");
      expect(answer?.receipt).toBeUndefined();
    }
    // no answer of any round carries a receipt without being a delivered paid answer
    for (const { answer } of sent) if (answer?.receipt) expect(delivered(answer)).toBe(true);

    await cluster.start();
    // the instances reconnect by themselves: a new payment is served on each
    await until(async () => {
      const answers = await round(2, 4);
      if (!answers.every(delivered)) throw new Error(`not serving yet: ${answers.map((a) => a?.status)}`);
    }, 60_000);
    await nothingLocked("public", cluster.url);

    // every payment not answered is served by its retry (anew: nothing was charged), or returns its stored answer
    const unanswered = sent.filter(({ answer }) => !delivered(answer));
    expect(unanswered.length).toBeGreaterThanOrEqual(40);
    const retried = await spread(
      urls,
      unanswered.map(({ call }) => call),
      { retry: true },
    );
    expect(retried.map((a) => (delivered(a) ? 200 : `${a?.status} ${a?.text}`))).toEqual(retried.map(() => 200));

    const receipts = [...sent.map(({ answer }) => answer).filter(delivered), ...retried].map(
      (a) => a?.receipt?.transaction as string,
    );
    expect(new Set(receipts).size).toBe(sent.length);
    const rows = await ledgerRows("public", cluster.url);
    expect(
      rows
        .filter((r) => r.status === "settled")
        .map((r) => r.transaction as string)
        .sort(),
    ).toEqual([...receipts].sort());
    expect(rows.filter((r) => r.status === "verified" || r.status === "settling")).toEqual([]);

    // the operator's reconciliation, configured as the instances are (the embedded ledger settlement), agrees
    const database = openDatabase(databaseSettings("public", { poolSize: 1, url: cluster.url }));
    try {
      const reconciled = await reconcileWith(await openPostgresLedger(database), {});
      expect(reconciled.findings).toEqual([]);
      expect(reconciled.counts.settled).toBe(sent.length);
    } finally {
      await database.close();
    }
  });
});
