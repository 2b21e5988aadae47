// Two instances of the service as separate processes over one PostgreSQL schema and one Redis
// prefix, as behind a load balancer: one payment sent 50 times at once across both is served and
// charged once; an answer given by one is returned by the other to a retry with the same payment, or
// with a fresh payment under the same x402 payment identifier (recorded, not charged);
// identical cache misses on both make one upstream call; and when one instance is killed with
// SIGKILL under load, the other's recovery leaves nothing locked and serves every lost answer.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaymentRequirements } from "../../client/x402/types.js";
import { createPayer, type Pay, paymentHeader } from "../../conformance/payer.js";
import { decodeHeader } from "../../lib/x402-headers.js";
import type { PaymentRequiredV2 } from "../../server/analytics/payments/x402/types.js";
import { startSlowModel } from "../support/fake-model.js";
import { ledgerRows, nothingLocked, sharedStoresEnv, spread, startInstances } from "../support/instances.js";
import { type Answer, challenge, delivered, type PaidCall, send } from "../support/paid-load.js";
import type { ServiceProcess } from "../support/processes.js";
import { dropKeys, dropSchema, hasPostgres, hasRedis, TEST_DATABASE_URL, uniqueName } from "../support/services.js";
import { fixture, type LocalServer, reply, startServer } from "../support/upstreams.js";

const enabled = hasPostgres() && hasRedis();
const schema = uniqueName("instances");
const prefix = `${uniqueName("instances")}:`;
let instances: ServiceProcess[] = [];
let model: Awaited<ReturnType<typeof startSlowModel>>;
let upstream: LocalServer;
let pay: Pay;

const call = async (base: string, method: "GET" | "POST", path: string, body?: unknown): Promise<PaidCall> => {
  const requirement: PaymentRequirements = await challenge(base, method, path);
  return {
    method,
    path,
    body,
    header: await pay(requirement),
    network: requirement.network,
    amount: BigInt(requirement.maxAmountRequired),
  };
};

describe.skipIf(!enabled)("two instances over one PostgreSQL and one Redis", () => {
  beforeAll(async () => {
    model = await startSlowModel({ delayMs: 300, failEvery: 1_000_000 });
    // DefiLlama's chain list, slow enough that both instances miss it at once.
    upstream = await startServer(async (req, res) => {
      if (!req.url.startsWith("/v2/chains")) return reply(res, 404, {});
      await new Promise((resolve) => setTimeout(resolve, 300));
      reply(res, 200, fixture("defillama-chains.json"));
    });
    pay = await createPayer();
    instances = await startInstances(2, {
      ...sharedStoresEnv(TEST_DATABASE_URL, schema, prefix),
      TVL_PROVIDER: "live",
      DEFILLAMA_API_URL: upstream.url,
      INSIGHT_BASE_URL: model.url,
      INSIGHT_ATTEMPTS: "1",
    });
  }, 180_000);

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.kill("SIGKILL")));
    await Promise.all([model?.close(), upstream?.close()]);
    await dropSchema(schema);
    await dropKeys(prefix);
  });

  const urls = () => instances.map((instance) => instance.url);

  it("makes one upstream call for identical cache misses on both instances", async () => {
    const info = (await (await fetch(`${urls()[0]}/`)).json()) as { cache: unknown };
    expect(info.cache).toEqual({ store: "redis", status: "ok" });
    const calls = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call(urls()[i % 2] as string, "POST", i % 2 ? "/base/defi/tvl" : "/skale/defi/tvl", {}),
      ),
    );
    const answers = await spread(urls(), calls);
    expect(answers.every(delivered)).toBe(true);
    expect(upstream.seen.filter((r) => r.url.startsWith("/v2/chains"))).toHaveLength(1);
  });

  it("serves and charges one payment once when 50 copies of it arrive at once across both instances", async () => {
    const before = (await ledgerRows(schema)).length;
    const one = await call(urls()[0] as string, "POST", "/skale/lp/pools", { limit: 5 });
    const answers = await spread(urls(), Array(50).fill(one));
    const served = answers.filter(delivered) as Answer[];
    expect(served.length).toBeGreaterThanOrEqual(1);
    // a copy arriving after the answer is settled gets it again (same bytes, same receipt); the others, arriving while it
    // was in progress, are held (503 payment_in_progress, told when to come back), without a receipt
    expect(new Set(served.map((a) => `${a.receipt?.transaction} ${a.text}`)).size).toBe(1);
    expect(answers.filter((a) => !delivered(a)).every((a) => a?.status === 503 && !a.receipt)).toBe(true);
    const rows = (await ledgerRows(schema)).slice(before);
    expect(rows.map((r) => r.status)).toEqual(["settled"]);
    expect(rows[0]?.transaction).toBe(served[0]?.receipt?.transaction);
  });

  it("returns an answer given by one instance to a retry of the same payment on the other", async () => {
    const [a, b] = urls() as [string, string];
    const paid = await call(a, "POST", "/base/lp/pools", { limit: 3 });
    const first = await send(a, paid);
    const again = await send(b, paid);
    expect(delivered(first)).toBe(true);
    expect(again).toEqual(first);
    const settled = (await ledgerRows(schema)).filter((r) => r.transaction === first?.receipt?.transaction);
    expect(settled.map((r) => r.status)).toEqual(["settled"]);
  });

  it("gives a retry with a fresh payment under the same payment identifier, on the other instance, the first answer, charging once", async () => {
    const [a, b] = urls() as [string, string];
    const path = "/base/lp/pools";
    const body = JSON.stringify({ limit: 4 });
    const offered = await fetch(`${a}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    const v2 = decodeHeader(offered.headers.get("PAYMENT-REQUIRED") as string) as PaymentRequiredV2;
    const requirement = ((await offered.json()) as { accepts: PaymentRequirements[] })
      .accepts[0] as PaymentRequirements;
    const id = `pay_${randomUUID().replaceAll("-", "")}`;
    const named = { ...v2, extensions: { ...v2.extensions, "payment-identifier": { info: { required: false, id } } } };
    const paid = async (base: string) => {
      const headers = {
        "content-type": "application/json",
        ...(await paymentHeader(pay, 2, requirement, named as never)),
      };
      const res = await fetch(`${base}${path}`, { method: "POST", headers, body });
      return { status: res.status, text: await res.text(), receipt: res.headers.get("PAYMENT-RESPONSE") };
    };
    // the first answer is "lost": the client kept nothing of it but what this test compares
    const first = await paid(a);
    const retry = await paid(b);
    expect(first.status, first.text).toBe(200);
    expect(retry.text).toBe(first.text);
    // the same settlement and the same signed receipt but for the URL it names, which is each instance's own
    const settled = (header: string | null) => {
      const { extensions, ...response } = decodeHeader(header as string) as { extensions: unknown };
      const [, payload] = JSON.stringify(extensions).match(/"signature":"[^.]+\.([^.]+)\./) ?? [];
      const { resourceUrl: _url, ...receipt } = JSON.parse(
        Buffer.from(payload as string, "base64url").toString("utf8"),
      );
      return { response, receipt };
    };
    expect(settled(retry.receipt)).toEqual(settled(first.receipt));
    const rows = (await ledgerRows(schema)).filter((r) => r.identifier === id);
    expect(rows.map((r) => r.status)).toEqual(["settled", "not_charged"]);
    expect(rows[0]?.transaction).toBe((decodeHeader(first.receipt as string) as { transaction: string }).transaction);
  });

  it("leaves nothing locked when one instance is killed under load: the other recovers and serves every lost answer", async () => {
    const [a, b] = instances as [ServiceProcess, ServiceProcess];
    const routes = ["/base/lp/pools", "/skale/lp/pools", "/lp/pools"];
    const calls = await Promise.all(
      Array.from({ length: 40 }, (_, i) => call(a.url, "POST", routes[i % 3] as string, { limit: 1 + (i % 10) })),
    );
    // A's half and B's first six answered, then B's other fourteen sent at once, and B killed the moment the first
    // of them is waiting for the model: at least that one was admitted and never answered, whatever the timing.
    const first = calls.map((_, i) => i).filter((i) => i % 2 === 0 || i < 12);
    const rest = calls.map((_, i) => i).filter((i) => !first.includes(i));
    const answers: (Answer | undefined)[] = [];
    await Promise.all(
      first.map(async (i) => {
        answers[i] = await send(i % 2 ? b.url : a.url, calls[i] as PaidCall);
      }),
    );
    model.onCall = () => {
      model.onCall = undefined;
      b.child.kill("SIGKILL");
    };
    await Promise.all(
      rest.map(async (i) => {
        answers[i] = await send(b.url, calls[i] as PaidCall);
      }),
    );
    expect((await b.exited).signal).toBe("SIGKILL");
    // recovery on the surviving instance releases what the killed one left verified
    await nothingLocked(schema);
    const lost = calls.filter((_, i) => !delivered(answers[i]));
    expect(lost.length).toBeGreaterThan(0);
    const retried = await spread([a.url], lost, { retry: true });
    expect(retried.map((r) => (delivered(r) ? 200 : `${r?.status} ${r?.text}`))).toEqual(retried.map(() => 200));

    // every payment ends with one receipt, and each receipt has its one settled row
    const receipts = [...answers.filter(delivered), ...retried].map((x) => x?.receipt?.transaction as string);
    expect(new Set(receipts).size).toBe(calls.length);
    const settled = (await ledgerRows(schema)).filter(
      (r) => r.status === "settled" && receipts.includes(r.transaction ?? ""),
    );
    expect(settled).toHaveLength(calls.length);

    // the killed instance, restarted, serves again over the same stores
    const [restarted] = await startInstances(1, sharedStoresEnv(TEST_DATABASE_URL, schema, prefix));
    instances[1] = restarted as ServiceProcess;
    const fresh = await call(restarted?.url as string, "POST", "/base/lp/pools", { limit: 2 });
    expect(delivered(await send(restarted?.url as string, fresh))).toBe(true);
  });
});
