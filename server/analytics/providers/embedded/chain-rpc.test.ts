import { describe, expect, it } from "vitest";
import { manualClock } from "../../clock.js";
import { PUMP_CURVE } from "../../markets/pump-curve.js";
import { ledger } from "../../markets/wallet-ledger.js";
import { WSOL_MINT } from "../chain-rpc.js";
import { createEmbeddedChainRpc } from "./chain-rpc.js";
import { createEmbeddedLaunches } from "./launches.js";

const NOW = Date.UTC(2026, 10, 21, 12);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const JUP = "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN";
const QUIET = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";

const chainAt = (now = NOW, seed = "chain-seed") => {
  const clock = manualClock(now);
  return { clock, chain: createEmbeddedChainRpc({ seed, clock }), launches: createEmbeddedLaunches({ seed, clock }) };
};

/** A pump.fun token of the feed, `back` launches before the newest. */
async function launched(back: number, now = NOW) {
  const { launches } = chainAt(now);
  const creates = await launches.recentCreates(back + 1);
  return creates[back]?.mint as string;
}

describe("embedded chain: launch tokens", () => {
  it("reads bonding-curve accounts whose reserves agree with pump.fun's arithmetic", async () => {
    const { chain, launches } = chainAt();
    for (const c of (await launches.trackedCurves()).slice(0, 300)) {
      const account = await chain.curveAccount(c.bondingCurveKey);
      if (account?.kind !== "pump") throw new Error("expected a pump.fun curve");
      expect(account.virtualSolReserves - account.realSolReserves).toBeCloseTo(PUMP_CURVE.initialVirtualSolReserves, 6);
      expect(account.virtualTokenReserves - account.realTokenReserves).toBeCloseTo(279_900_000, 0);
      expect(account.complete).toBe(account.realTokenReserves === 0);
      expect(1 - account.realTokenReserves / PUMP_CURVE.initialRealTokenReserves).toBeGreaterThanOrEqual(0);
    }
  });

  it("knows a mint from its creation on, and no other mint", async () => {
    const { clock, chain, launches } = chainAt();
    clock.advance(30 * MINUTE);
    const future = (await launches.recentCreates(1))[0]?.mint as string;
    const { chain: earlier } = chainAt();
    expect(await earlier.mintAccount(future)).toBeUndefined();
    expect(await chain.mintAccount(future)).toMatchObject({ supply: 1e9, decimals: 6 });
    expect(await chain.mintAccount("7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hx")).toBeUndefined();
    expect(await chain.mintCreation(JUP)).toBeUndefined();
    expect((await chain.mintAccount(JUP))?.supply).toBeGreaterThan(0);
  });

  it("lists the largest holders with the curve as a program account, within the supply", async () => {
    const { chain } = chainAt();
    const mint = await launched(40);
    const holders = await chain.largestHolders(mint);
    const curve = chain.curveAddresses(mint).pump;
    expect(holders.length).toBeGreaterThan(3);
    expect(holders.map((h) => h.amount)).toEqual(holders.map((h) => h.amount).sort((a, b) => b - a));
    expect(holders.find((h) => h.owner === curve)?.ownerKind).toBe("program");
    expect(holders.reduce((sum, h) => sum + h.amount, 0)).toBeLessThanOrEqual(1e9);
    expect(await chain.holderCount(mint)).toBeGreaterThanOrEqual(holders.length);
  });

  it("records snipers in the first 3 blocks whose balances agree with the largest holders", async () => {
    const { chain, launches } = chainAt();
    const creates = await launches.recentCreates(100);
    let seen = 0;
    for (const c of creates) {
      const created = await chain.mintCreation(c.mint);
      if (!created) throw new Error("a feed token has a creation record");
      const early = await chain.tokenTrades(c.mint, { fromSlot: created.slot, toSlot: created.slot + 2 });
      expect(early.find((t) => t.wallet === c.traderPublicKey)).toMatchObject({
        side: "buy",
        slot: created.slot,
        solAmount: c.solAmount,
      });
      const holders = await chain.largestHolders(c.mint);
      for (const buy of early.filter((t) => t.wallet !== c.traderPublicKey)) {
        expect(buy.slot - created.slot).toBeLessThanOrEqual(2);
        seen++;
        const held = (await chain.tokenAccounts(buy.wallet, c.mint))[0]?.amount ?? 0;
        const listed = holders.find((h) => h.owner === buy.wallet)?.amount;
        if (listed !== undefined) expect(held).toBeCloseTo(listed, 3);
        expect(held === 0 || Math.abs(held - buy.tokenAmount) < 1e-3).toBe(true);
      }
    }
    expect(seen).toBeGreaterThan(10);
  });

  it("keeps a trade tape whose net SOL over the last hour follows the curve", async () => {
    const { chain, clock } = chainAt();
    const mint = await launched(30);
    const key = chain.curveAddresses(mint).pump;
    const before = await chain.curveAccount(key);
    clock.advance(HOUR);
    const after = await chain.curveAccount(key);
    const trades = await chain.tokenTrades(mint, { since: NOW });
    const net = trades.reduce((sum, t) => sum + (t.side === "buy" ? t.solAmount : -t.solAmount), 0);
    const moved =
      (after?.kind === "pump" ? after.realSolReserves : 0) - (before?.kind === "pump" ? before.realSolReserves : 0);
    expect(trades.length).toBeGreaterThan(10);
    expect(trades.map((t) => t.blockTime)).toEqual(trades.map((t) => t.blockTime).sort((a, b) => a - b));
    expect(net).toBeCloseTo(moved, 0);
  });

  it("serves candles oldest first, within their high and low, from the token's creation on", async () => {
    const { chain } = chainAt();
    const mint = await launched(5);
    const candles = await chain.candles(mint, "1m", 500);
    expect(candles.length).toBeGreaterThan(5);
    expect(candles.length).toBeLessThan(30);
    for (const c of candles) {
      expect(c.high).toBeGreaterThanOrEqual(Math.max(c.open, c.close));
      expect(c.low).toBeLessThanOrEqual(Math.min(c.open, c.close));
      expect(c.volumeUsd).toBeGreaterThanOrEqual(0);
    }
    const hourly = await chain.candles(JUP, "1h", 24);
    expect(hourly).toHaveLength(24);
    expect(hourly.map((c) => c.time)).toEqual(hourly.map((c) => c.time).sort((a, b) => a - b));
    const price = (await chain.prices([WSOL_MINT])).get(WSOL_MINT) as number;
    expect(price).toBeGreaterThan(100);
    expect(price).toBeLessThan(300);
  });
});

describe("embedded chain: wallets", () => {
  it("gives population wallets a history whose still-open buys are their token balances", async () => {
    const { chain } = chainAt();
    const traders = await chain.activeTraders(NOW - 30 * DAY, 200);
    expect(traders.length).toBe(80);
    for (const address of traders.filter((_, i) => i % 4 === 0)) {
      const trades = await chain.walletTrades(address, NOW - 60 * DAY);
      const { open } = ledger(trades);
      const held = (mint: string) => (open.get(mint) ?? []).reduce((sum, lot) => sum + lot.amount, 0);
      for (const b of await chain.tokenAccounts(address)) expect(held(b.mint)).toBeCloseTo(b.amount, 2);
      expect(trades.every((t) => t.blockTime >= NOW - 60 * DAY && t.blockTime <= NOW)).toBe(true);
    }
  });

  it("keeps the past when the clock moves on, and is reproducible", async () => {
    const [address] = await chainAt().chain.activeTraders(NOW, 1);
    const now = await chainAt().chain.walletTrades(address as string, NOW - 7 * DAY);
    const later = await chainAt(NOW + DAY).chain.walletTrades(address as string, NOW - 7 * DAY);
    expect(later.filter((t) => t.blockTime <= NOW)).toEqual(now);
    expect(await chainAt(NOW, "other-seed").chain.walletTrades(address as string, NOW - 7 * DAY)).not.toEqual(now);
  });

  it("answers any other address as a quiet wallet with a few trades at most", async () => {
    const { chain } = chainAt();
    expect((await chain.walletTrades(QUIET, NOW - 30 * DAY)).length).toBeLessThanOrEqual(12);
    expect(await chain.solBalance(QUIET)).toBeGreaterThanOrEqual(0);
  });
});
