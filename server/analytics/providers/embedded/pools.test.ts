import { describe, expect, it } from "vitest";
import { TEST_NOW } from "../../../../test/support/segments.js";
import { manualClock } from "../../clock.js";
import { binPrice, inRange } from "../../markets/dlmm.js";
import type { PoolProvider, PoolRecord } from "../pools.js";
import { CONTRACT_EXAMPLES } from "./contract-examples.js";
import { createEmbeddedPools, embeddedLpWallets } from "./pools.js";

const DAY = 86_400_000;
const SOL = "So11111111111111111111111111111111111111112";
const USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";

function venue(seed = "test-seed", now = TEST_NOW) {
  const clock = manualClock(now);
  return { clock, pools: createEmbeddedPools({ seed, clock }) };
}

/** Equal to the cent, allowing for rounding to cents. */
const toTheCent = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThan(0.006);

async function allPools(pools: PoolProvider): Promise<PoolRecord[]> {
  return (await pools.listPools({ sortBy: "tvl", pageSize: 1000 })).pools;
}

async function allPositions(pools: PoolProvider, seed = "test-seed") {
  return (await Promise.all(embeddedLpWallets(seed).map((w) => pools.positionsByOwner(w)))).flat();
}

describe("embedded pools", () => {
  it("lists about thirty believable pools, SOL-USDC at several bin steps, with real mints", async () => {
    const list = await allPools(venue().pools);
    expect(list.length).toBeGreaterThanOrEqual(25);
    expect(list.length).toBeLessThanOrEqual(40);
    const solUsdc = list.filter((p) => p.name === "SOL-USDC");
    expect(new Set(solUsdc.map((p) => p.binStep)).size).toBeGreaterThanOrEqual(3);
    expect(solUsdc.every((p) => p.tokenX.mint === SOL && p.tokenY.mint === USDC)).toBe(true);
    expect(list.map((p) => p.name)).toEqual(
      expect.arrayContaining(["JUP-SOL", "BONK-SOL", "JitoSOL-SOL", "USDC-USDT"]),
    );
    expect(new Set(list.map((p) => p.address)).size).toBe(list.length);
    expect(list.every((p) => /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(p.address))).toBe(true);
  });

  it("keeps every pool's numbers consistent: bin price, TVL from reserves, fees from volume", async () => {
    for (const p of await allPools(venue().pools)) {
      expect(p.currentPrice).toBeCloseTo(binPrice(p, p.activeBinId), 12);
      expect(p.tokenX.priceUsd / p.tokenY.priceUsd).toBeCloseTo(p.currentPrice, 10);
      toTheCent(p.tvlUsd, p.reserveX * p.tokenX.priceUsd + p.reserveY * p.tokenY.priceUsd);
      toTheCent(p.fees24hUsd, (p.volume24hUsd * p.baseFeePct) / 100);
      expect(p.openPositions).toBeGreaterThan(0);
    }
  });

  it("gives seven daily buckets ending with today, the newest being the pool's 24 h", async () => {
    const { pools } = venue();
    for (const p of await allPools(pools)) {
      const history = await pools.volumeHistory(p.address, 7);
      expect(history.map((b) => b.timestamp)).toEqual(
        Array.from({ length: 7 }, (_, i) => (Math.floor(TEST_NOW / DAY) - 6 + i) * 86_400),
      );
      expect(history.at(-1)).toEqual({
        timestamp: expect.any(Number),
        volumeUsd: p.volume24hUsd,
        feesUsd: p.fees24hUsd,
      });
      for (const b of history) toTheCent(b.feesUsd, (b.volumeUsd * p.baseFeePct) / 100);
    }
    expect(await pools.volumeHistory("11111111111111111111111111111111", 7)).toEqual([]);
  });

  it("filters by query, sorts best first and counts every match", async () => {
    const { pools } = venue();
    const byMint = await pools.listPools({ query: USDC, sortBy: "volume", pageSize: 3 });
    expect(byMint.pools).toHaveLength(3);
    expect(byMint.total).toBeGreaterThan(3);
    expect(byMint.pools.every((p) => p.tokenX.mint === USDC || p.tokenY.mint === USDC)).toBe(true);
    const volumes = byMint.pools.map((p) => p.volume24hUsd);
    expect(volumes).toEqual([...volumes].sort((a, b) => b - a));
    const byName = await pools.listPools({ query: "bonk-sol", sortBy: "tvl", pageSize: 10 });
    expect(byName.pools.map((p) => p.name)).toEqual(["BONK-SOL", "BONK-SOL"]);
    const one = byName.pools[0] as PoolRecord;
    expect(await pools.pool(one.address)).toEqual(one);
    expect(await pools.pool("11111111111111111111111111111111")).toBeUndefined();
  });

  it("is reproducible from the seed and the clock", async () => {
    expect(await allPools(venue("s1").pools)).toEqual(await allPools(venue("s1").pools));
    expect((await allPools(venue("s1").pools))[0]?.address).not.toBe((await allPools(venue("s2").pools))[0]?.address);
  });

  it("drifts with the UTC day: prices and volumes move, yesterday's buckets stay put", async () => {
    const { pools, clock } = venue();
    const [today] = (await pools.listPools({ query: "SOL-USDC", sortBy: "tvl", pageSize: 1 })).pools as [PoolRecord];
    const history = await pools.volumeHistory(today.address, 7);
    clock.advance(DAY / 4);
    expect(await pools.pool(today.address)).toEqual(today);
    clock.advance(DAY);
    const tomorrow = (await pools.pool(today.address)) as PoolRecord;
    expect(tomorrow.activeBinId).not.toBe(today.activeBinId);
    expect(tomorrow.volume24hUsd).not.toBe(today.volume24hUsd);
    expect((await pools.volumeHistory(today.address, 7)).slice(0, 6)).toEqual(history.slice(1));
  });
});

describe("embedded positions", () => {
  it("belong to the LP wallets, some in range and some out, each findable by address", async () => {
    const { pools } = venue();
    const positions = await allPositions(pools);
    expect(positions.length).toBeGreaterThanOrEqual(10);
    const byPool = new Map((await allPools(pools)).map((p) => [p.address, p]));
    const states = positions.map((p) => inRange(p, (byPool.get(p.pool) as PoolRecord).activeBinId));
    expect(states).toContain(true);
    expect(states).toContain(false);
    for (const p of positions) {
      expect(embeddedLpWallets("test-seed")).toContain(p.owner);
      expect(await pools.position(p.address)).toEqual(p);
      expect(p.createdAt * 1000).toBeLessThanOrEqual(TEST_NOW);
      expect(p.upperBinId - p.lowerBinId + 1).toBeLessThanOrEqual(70);
    }
    expect(await pools.position("11111111111111111111111111111111")).toBeUndefined();
    expect(await pools.positionsByOwner("11111111111111111111111111111111")).toEqual([]);
  });

  it("hold only X below their range and only Y above it, as DLMM bins do", async () => {
    const { pools } = venue();
    const byPool = new Map((await allPools(pools)).map((p) => [p.address, p]));
    for (const p of await allPositions(pools)) {
      const active = (byPool.get(p.pool) as PoolRecord).activeBinId;
      if (active < p.lowerBinId) expect(p.amountY).toBe(0);
      if (active > p.upperBinId) expect(p.amountX).toBe(0);
      if (inRange(p, active)) expect(p.amountX + p.amountY).toBeGreaterThan(0);
    }
  });

  it("are closed and reopened around the new price as their cycles turn", async () => {
    const { pools, clock } = venue();
    const before = await allPositions(pools);
    clock.advance(30 * DAY);
    const after = await allPositions(pools);
    const kept = after.filter((p) => before.some((b) => b.address === p.address));
    expect(kept.length).toBeLessThan(after.length);
    // A cycle lasts at most 28 days and a position opens within 12 hours of its start; held positions stay.
    const cycled = after.filter((p) => p.address !== CONTRACT_EXAMPLES.position.address);
    expect(cycled.every((p) => clock.now() - p.createdAt * 1000 < 28.5 * DAY)).toBe(true);
  });

  it("include the contract's example: the example wallet's held position in the flagship SOL-USDC pool", async () => {
    const { pools, clock } = venue();
    const flagship = (await pools.pool(CONTRACT_EXAMPLES.pool)) as PoolRecord;
    expect(flagship).toMatchObject({ name: "SOL-USDC", binStep: 4, baseFeePct: 0.04 });
    const { address, openedAt } = CONTRACT_EXAMPLES.position;
    for (const later of [0, DAY, 30 * DAY, 200 * DAY]) {
      clock.set(TEST_NOW + later);
      const held = await pools.position(address);
      expect(held).toMatchObject({
        pool: CONTRACT_EXAMPLES.pool,
        owner: CONTRACT_EXAMPLES.wallet,
        createdAt: openedAt / 1000,
      });
      expect(await pools.positionsByOwner(CONTRACT_EXAMPLES.wallet)).toContainEqual(held);
    }
    clock.set(openedAt - 1);
    expect(await pools.position(address)).toBeUndefined();
  });
});
