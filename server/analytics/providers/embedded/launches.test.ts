import { describe, expect, it } from "vitest";
import { manualClock } from "../../clock.js";
import { createEmbeddedChainRpc } from "./chain-rpc.js";
import { createEmbeddedLaunches } from "./launches.js";

const NOW = Date.UTC(2026, 10, 21, 12);
const MINUTE = 60_000;
const K = 30 * 1_073_000_000;

const feed = (seed = "feed-seed", now = NOW) => {
  const clock = manualClock(now);
  return { clock, launches: createEmbeddedLaunches({ seed, clock }), chain: createEmbeddedChainRpc({ seed, clock }) };
};

describe("embedded launch feed", () => {
  it("sends create frames whose numbers follow pump.fun's curve", async () => {
    const creates = await feed().launches.recentCreates(20);
    expect(creates).toHaveLength(20);
    for (const c of creates) {
      expect(c.mint).toMatch(/^[1-9A-HJ-NP-Za-km-z]{40}pump$/);
      expect(c.vSolInBondingCurve).toBeCloseTo(30 + c.solAmount, 6);
      expect(c.vTokensInBondingCurve).toBeCloseTo(1_073_000_000 - c.initialBuy, 3);
      expect(c.vSolInBondingCurve * c.vTokensInBondingCurve).toBeCloseTo(K, -3);
      expect(c.marketCapSol).toBeCloseTo((c.vSolInBondingCurve / c.vTokensInBondingCurve) * 1e9, 3);
      expect(c.receivedAt).toBeLessThanOrEqual(NOW);
    }
    expect(creates.map((c) => c.receivedAt)).toEqual(creates.map((c) => c.receivedAt).sort((a, b) => b - a));
  });

  it("launches a pump.fun token every 3 minutes as the clock moves", async () => {
    const { clock, launches } = feed();
    const before = await launches.recentCreates(100);
    clock.advance(60 * MINUTE);
    const after = await launches.recentCreates(100);
    const known = new Set(before.map((c) => c.mint));
    const fresh = after.filter((c) => !known.has(c.mint));
    expect(fresh.length).toBeGreaterThanOrEqual(19);
    expect(fresh.length).toBeLessThanOrEqual(21);
    expect(fresh.every((c) => c.receivedAt > NOW)).toBe(true);
  });

  it("is reproducible from the seed and the clock", async () => {
    const a = await feed("s1").launches.recentCreates(5);
    expect(await feed("s1").launches.recentCreates(5)).toEqual(a);
    expect((await feed("s2").launches.recentCreates(5)).map((c) => c.mint)).not.toEqual(a.map((c) => c.mint));
  });

  it("tracks curves that move with time: some complete and migrate, all keep the constant product", async () => {
    const { clock, launches } = feed();
    const now = await launches.trackedCurves();
    expect(now.length).toBeGreaterThan(1000);
    for (const c of now) {
      expect(c.vSolInBondingCurve * c.vTokensInBondingCurve).toBeCloseTo(K, -3);
      expect(c.vTokensInBondingCurve).toBeGreaterThanOrEqual(279_900_000 - 1);
    }
    const migrated = now.filter((c) => c.migratedAt !== null);
    expect(migrated.length).toBeGreaterThan(0);
    for (const c of migrated) expect(c.vTokensInBondingCurve).toBeCloseTo(279_900_000, -3);
    clock.advance(60 * MINUTE);
    const later = new Map((await launches.trackedCurves()).map((c) => [c.mint, c]));
    const moved = now.filter(
      (c) => later.get(c.mint) && later.get(c.mint)?.vSolInBondingCurve !== c.vSolInBondingCurve,
    );
    expect(moved.length).toBeGreaterThan(100);
  });

  it("reads LaunchLab launches with progress as SOL raised over the target", async () => {
    const pools = await feed().launches.recentLaunchLabLaunches(10);
    expect(pools).toHaveLength(10);
    for (const p of pools) {
      expect(p.mint).toMatch(/bonk$/);
      expect((p.virtualA - p.realA) * (p.virtualB + p.realB)).toBeCloseTo(p.virtualA * p.virtualB, -3);
      expect(p.realB).toBeGreaterThanOrEqual(0);
      expect(p.realB).toBeLessThanOrEqual(p.totalFundRaisingB);
    }
    expect(pools.map((p) => p.createdAt)).toEqual(pools.map((p) => p.createdAt).sort((a, b) => b - a));
  });

  it("agrees with the chain on every token: the same curve, the same creator, the same LaunchLab pool", async () => {
    const { launches, chain } = feed();
    const [create] = await launches.recentCreates(1);
    const tracked = (await launches.trackedCurves()).find((c) => c.mint === create?.mint);
    const account = await chain.curveAccount(create?.bondingCurveKey ?? "");
    expect(chain.curveAddresses(create?.mint ?? "").pump).toBe(create?.bondingCurveKey);
    expect(account).toMatchObject({
      kind: "pump",
      creator: create?.traderPublicKey,
      virtualSolReserves: tracked?.vSolInBondingCurve,
    });
    expect((await chain.mintCreation(create?.mint ?? ""))?.signature).toBe(create?.signature);
    const [pool] = await launches.recentLaunchLabLaunches(1);
    expect(chain.curveAddresses(pool?.mint ?? "").launchLab).toBe(pool?.address);
    expect(await chain.curveAccount(pool?.address ?? "")).toMatchObject({
      kind: "launchlab",
      realB: pool?.realB,
      mint: pool?.mint,
    });
  });
});
