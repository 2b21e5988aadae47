// Paid MCP tool calls survive a crash as paid HTTP requests do: `npm start`'s process is killed with SIGKILL under
// paid tool calls (each with its own x402 v2 payment in `_meta["x402/payment"]`) and restarted at once; every caller
// whose result was lost calls again with the same payment. Each is answered, or told when to call again (a held
// payment, never a PaymentRequired, which an agent reads as "pay again"), and served once it comes back as told:
// every payment charged exactly once, each settled row recorded as an MCP call. Both eras of MCP, each in its own
// service: the 2025-era call, and the 2026-07-28 one (stateless, `_meta` and headers naming the revision) from a
// client advertising x402's extension `org.x402/payment`, whose challenge is `resultType: "payment_required"`.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, it } from "vitest";
import { evmExactPayload } from "../../client/x402/evm.js";
import { type PaymentRequiredV2, termsOf } from "../../client/x402/types.js";
import { openSqliteLedger } from "../../server/analytics/payments/ledger/sqlite-ledger.js";
import { startSlowModel } from "../support/fake-model.js";
import { delivered, heldPaymentsEnv, killedUnderLoad, type PaidCall, retryAsTold, send } from "../support/paid-load.js";
import type { ServiceProcess } from "../support/processes.js";

const CALLS = 40;
const model = await startSlowModel({ delayMs: 400 });
const services: ServiceProcess[] = [];
afterAll(async () => {
  for (const service of services) await service.kill("SIGKILL");
  await model.close();
});

/** How a call is sent: the era's wire (undefined: 2025), as `PaidCall["tool"]` names it. */
type Wire = NonNullable<PaidCall["tool"]>["current"];

/** The tool's PaymentRequired, from an unpaid call. */
async function paymentRequired(baseUrl: string, current: Wire): Promise<PaymentRequiredV2> {
  const unpaid = await send(baseUrl, {
    method: "POST",
    path: "/mcp",
    header: "",
    network: "",
    amount: 0n,
    tool: { name: "defiTvl", payment: undefined, current },
  });
  if (unpaid?.status !== 402) throw new Error(`expected the tool's PaymentRequired, got ${unpaid?.text}`);
  return JSON.parse(unpaid.text) as PaymentRequiredV2;
}

async function signCalls(baseUrl: string, current: Wire): Promise<PaidCall[]> {
  const account = privateKeyToAccount(generatePrivateKey());
  const required = await paymentRequired(baseUrl, current);
  const accepted = required.accepts.find((r) => r.network === "eip155:84532");
  if (!accepted) throw new Error("the tool is not offered on Base Sepolia");
  return Promise.all(
    Array.from({ length: CALLS }, async (_, i) => {
      const payload = await evmExactPayload(account, termsOf(accepted));
      return {
        method: "POST" as const,
        path: "/mcp",
        body: { limit: 1 + (i % 20) },
        header: "",
        network: accepted.network,
        amount: BigInt(accepted.amount),
        tool: {
          name: "defiTvl",
          payment: { x402Version: 2, resource: required.resource, accepted, payload },
          current,
        },
      };
    }),
  );
}

const ERAS: [string, Wire][] = [
  ["2025 era", undefined],
  ["2026-07-28, x402's extension binding", { advertise: true }],
];

// The eras at the same time, each with its own service and files: most of a scenario is waiting (for the restart, the
// slow model, the Retry-After), which the other era's fills. The model's calls are counted across both; every
// assertion accepts a partial (206) answer as delivered, so which calls it fails does not matter.
describe.concurrent.each(ERAS)("SIGKILL under paid MCP tool calls (%s)", (_era, current) => {
  it("holds every interrupted payment, tells the caller when to call again, and charges each payment once", async ({
    expect,
  }) => {
    const env = heldPaymentsEnv(mkdtempSync(join(tmpdir(), "mcp-crash-")), model.url);
    const sign = (url: string) => signCalls(url, current);
    const { calls, answers, killed, restarted } = await killedUnderLoad(env, sign, (started) => {
      services.push(started);
    });
    expect(killed.signal).toBe("SIGKILL");
    const url = restarted.url;
    const lost = calls.filter((_, i) => !answers[i]);
    expect(lost.length).toBeGreaterThan(0);
    const now = await Promise.all(lost.map((call) => send(url, call, { retry: true })));
    for (const answer of now) {
      expect(answer?.status, answer?.text).not.toBe(402);
      if (answer?.status === 503) expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      else expect(delivered(answer), answer?.text).toBe(true);
    }

    // the crash caught payments in progress (otherwise this test proved nothing)
    expect(now.filter((answer) => answer?.status === 503).length).toBeGreaterThan(0);

    const later = (await Promise.all(lost.map((call, i) => retryAsTold(url, call, now[i])))).map(
      ({ answer }) => answer,
    );
    for (const answer of later) expect(delivered(answer), answer?.text).toBe(true);

    const receipts = new Set([...answers, ...later].filter(delivered).map((a) => a?.receipt?.transaction));
    const ledger = openSqliteLedger(env.LEDGER_DB);
    try {
      const settled = (await ledger.rows()).filter((r) => r.status === "settled");
      expect(settled.map((r) => r.transaction).sort()).toEqual([...receipts].sort());
      expect(receipts.size).toBe(CALLS);
      expect(new Set(settled.map((r) => r.transport))).toEqual(new Set(["mcp"]));
    } finally {
      await ledger.close();
    }
  }, 120_000);
});
