/**
 * The contract's request examples against the embedded dataset: every paid POST operation of the
 * root prefix, called with its request example (the contract's defaults filling absent fields),
 * answers a contract-valid 200 now and as the market moves on, so integrators, the Prism mock and
 * the conformance suite can send the examples to the offline server.
 */
import { describe, expect, it } from "vitest";
import { expectValidOutcome, TEST_NOW, testContext } from "../../../test/support/segments.js";
import { loadAnalyticsContract } from "../contract/analytics-contract.js";
import type { OperationName, RequestOf } from "../contract/operation-types.js";
import { CONTRACT_EXAMPLES } from "../providers/embedded/contract-examples.js";
import { handlers } from "./index.js";
import { lpHandlers as LP } from "./lp.js";
import { tradersHandlers as TR } from "./traders.js";
import { trenchesHandlers as T } from "./trenches.js";
import type { Handler } from "./types.js";

const DAY = 86_400_000;
const LATER = [
  ["at the test clock", 0],
  ["a day later", DAY],
  ["30 days later", 30 * DAY],
] as const;

const contract = loadAnalyticsContract();
type JsonOperation = { requestBody?: { content: Record<string, { example?: Record<string, unknown> }> } };
const paths = contract.document.paths as unknown as Record<string, Record<string, JsonOperation>>;

const cases = contract.paid
  .filter((r) => r.method === "post" && r.payment.network.prefix === "")
  .map((r) => {
    const example = paths[r.path]?.post?.requestBody?.content["application/json"]?.example;
    return { name: r.name, path: r.path, example, request: { ...r.bodyDefaults, ...example } };
  });

async function answer(name: OperationName, request: Record<string, unknown>, now: number) {
  const handler = handlers[name] as Handler<OperationName> | undefined;
  if (!handler) throw new Error(`no handler for ${name}`);
  return handler(request as RequestOf<OperationName>, testContext("test-seed", now));
}

describe("contract request examples on the embedded dataset", () => {
  it("covers every paid operation, each with a request example", () => {
    expect(cases.map((c) => c.name).sort()).toEqual([...contract.operations].sort());
    for (const c of cases) expect(c.example, `${c.path} has no request example`).toBeDefined();
  });

  for (const [label, offset] of LATER) {
    describe(label, () => {
      it.each(cases)("$path answers its example", async ({ name, request }) => {
        expectValidOutcome(name, await answer(name, request, TEST_NOW + offset));
      });
    });
  }
});

describe("the entities the examples name, as members of the market", () => {
  const { pool, position, wallet, launch } = CONTRACT_EXAMPLES;

  it.each(LATER)("the flagship pool and the example wallet's held position, %s", async (_, offset) => {
    const ctx = () => testContext("test-seed", TEST_NOW + offset);
    expect((await LP.lpPoolDetail({ address: pool }, ctx())).data.pool).toMatchObject({
      name: "SOL-USDC",
      bin_step: 4,
    });
    const held = {
      position_address: position.address,
      pool_address: pool,
      created_at: new Date(position.openedAt).toISOString(),
    };
    expect((await LP.lpWalletPositions({ wallet }, ctx())).data.positions).toContainEqual(
      expect.objectContaining(held),
    );
    const rebalance = await LP.lpPositionRebalance(
      { position: position.address, strategy: "spot", range_pct: 5 },
      ctx(),
    );
    expect(rebalance.data.position).toMatchObject(held);
  });

  it.each(LATER)("ORCAT, a long-lived pump.fun token near the end of its curve, %s", async (_, offset) => {
    const ctx = () => testContext("test-seed", TEST_NOW + offset);
    const { token } = (await T.trenchesToken({ mint: launch.mint }, ctx())).data;
    expect(token).toMatchObject({
      name: launch.name,
      symbol: launch.symbol,
      dev_wallet: launch.dev,
      mint_authority: null,
      freeze_authority: null,
    });
    expect(token.dev_holds_pct).toBeGreaterThan(1);
    expect(token.dev_holds_pct).toBeLessThan(4);
    expect(token.holders).toBeGreaterThan(500);
    const curve = (await T.trenchesCurve({ mint: launch.mint, curve_key: launch.curve }, ctx())).data;
    expect(curve).toMatchObject({ curve_key: launch.curve, complete: false });
    expect(curve.curve.progress_pct).toBeGreaterThan(90);
    expect(curve.curve.progress_pct).toBeLessThan(96);
    expect((await T.trenchesTokenSnipers({ mint: launch.mint }, ctx())).data.snipers).toMatchObject({
      count: 3,
      risk_level: "low",
    });
    const { graduating } = (await T.trenchesGraduating({ limit: 100 }, ctx())).data;
    expect(graduating).toContainEqual(
      expect.objectContaining({ mint: launch.mint, symbol: launch.symbol, urgency: "high" }),
    );
    expect((await TR.tradersTokenWhales({ mint: launch.mint, limit: 5 }, ctx())).data.symbol).toBe(launch.symbol);
  });
});
