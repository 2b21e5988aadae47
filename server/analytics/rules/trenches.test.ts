import { describe, expect, it } from "vitest";
import { EMPTY_CURVE_CAP_SOL } from "../markets/pump-curve.js";
import type { LaunchLabPoolAccount, PumpCurveAccount } from "../markets/records.js";
import {
  curveFacts,
  estimateGraduationHours,
  graduationSignal,
  isGraduating,
  launchListSignal,
  sniperRisk,
  tokenSignalFromRisk,
  tokenVerdict,
  urgency,
} from "./trenches.js";

const pump = (over: Partial<PumpCurveAccount> = {}): PumpCurveAccount => ({
  kind: "pump",
  address: "53eum63MmmmKaHkohpDzpGHGWi4C5FkTUNuCCMgXTsAD",
  virtualTokenReserves: 332_168_800,
  virtualSolReserves: 96.91,
  realTokenReserves: 52_268_800,
  realSolReserves: 66.91,
  tokenTotalSupply: 1e9,
  complete: false,
  creator: "8J4JqXWkYkZq6dhYyYxBzkhJbRyg3QTXyQxK2eqPN3Fv",
  ...over,
});

const pool = (over: Partial<LaunchLabPoolAccount> = {}): LaunchLabPoolAccount => ({
  kind: "launchlab",
  address: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
  mint: "4k3Dyjzvzp8eMZWUXbBCjEvwSkkk59S5iCNLY3QrkX6R",
  creator: "GThUX1Atko4tqhN2NaiTazWSeFWMuiUvfFnyJyUghFMJ",
  status: "trading",
  supply: 1e9,
  totalSellA: 793_100_000,
  virtualA: 1_073_000_000,
  virtualB: 30,
  realA: 400_000_000,
  realB: 42.5,
  totalFundRaisingB: 85,
  ...over,
});

describe("curve facts", () => {
  it("maps a bonding-curve account into the contract: the interface's 93.4% example and its 291.75 SOL cap", () => {
    const facts = curveFacts(pump());
    expect(facts.progressPct).toBeCloseTo(93.41, 2);
    expect(facts.solInCurve).toBe(66.91);
    expect(facts.marketCapSol).toBe(291.75);
    expect(facts.reserves).toEqual({
      virtual_token_reserves: 332_168_800,
      virtual_sol_reserves: 96.91,
      real_token_reserves: 52_268_800,
      real_sol_reserves: 66.91,
      token_total_supply: 1e9,
    });
    expect(facts.progressAt(66.91)).toBeCloseTo(facts.progressPct, 1);
    expect(curveFacts(pump({ complete: true, realTokenReserves: 0 })).progressPct).toBe(100);
  });

  it("maps a LaunchLab pool: progress is SOL raised over the target, reserves in pump.fun's terms", () => {
    const facts = curveFacts(pool());
    expect(facts.progressPct).toBe(50);
    expect(facts.reserves.virtual_token_reserves).toBe(673_000_000);
    expect(facts.reserves.virtual_sol_reserves).toBe(72.5);
    expect(facts.reserves.real_token_reserves).toBe(393_100_000);
    expect(facts.marketCapSol).toBeCloseTo((72.5 / 673_000_000) * 1e9, 2);
    expect(facts.progressAt(21.25)).toBe(25);
    expect(curveFacts(pool({ status: "migrated" })).complete).toBe(true);
  });
});

describe("graduation", () => {
  it("lists strictly above 85% and below 100%", () => {
    expect(isGraduating(85)).toBe(false);
    expect(isGraduating(85.01)).toBe(true);
    expect(isGraduating(99.99)).toBe(true);
    expect(isGraduating(100)).toBe(false);
  });

  it("is urgent strictly above 90%; 85 to 90 included is medium", () => {
    expect(urgency(85.01)).toBe("medium");
    expect(urgency(90)).toBe("medium");
    expect(urgency(90.01)).toBe("high");
  });

  it("estimates hours from the recent velocity, 0 once complete, 720 when stalled or slower", () => {
    expect(estimateGraduationHours(90, 5, false)).toBe(2);
    expect(estimateGraduationHours(100, 5, false)).toBe(0);
    expect(estimateGraduationHours(60, 5, true)).toBe(0);
    expect(estimateGraduationHours(90, 0, false)).toBe(720);
    expect(estimateGraduationHours(90, -3, false)).toBe(720);
    expect(estimateGraduationHours(10, 0.125, false)).toBe(720);
    expect(estimateGraduationHours(10, 0.126, false)).toBeLessThan(720);
  });

  it("signals graduate_soon for a listed curve expected within 24 hours", () => {
    expect(graduationSignal({ progressPct: 93.4, hours: 1.6, complete: false }).signal).toBe("graduate_soon");
    expect(graduationSignal({ progressPct: 85.01, hours: 24, complete: false }).signal).toBe("graduate_soon");
    expect(graduationSignal({ progressPct: 85.01, hours: 24.01, complete: false }).signal).toBe("watch");
    expect(graduationSignal({ progressPct: 85, hours: 1, complete: false }).signal).toBe("watch");
    expect(graduationSignal({ progressPct: 100, hours: 0, complete: true }).signal).toBe("watch");
    const near = graduationSignal({ progressPct: 99, hours: 0.5, complete: false });
    const far = graduationSignal({ progressPct: 86, hours: 20, complete: false });
    expect(near.confidence).toBeGreaterThan(far.confidence);
  });
});

describe("sniperRisk", () => {
  it("grades the snipers' share of supply at 5 and 15 percent", () => {
    expect(sniperRisk(0, 0)).toBe("none");
    expect(sniperRisk(1, 4.99)).toBe("low");
    expect(sniperRisk(2, 5)).toBe("medium");
    expect(sniperRisk(3, 15)).toBe("medium");
    expect(sniperRisk(4, 15.01)).toBe("high");
  });
});

describe("token verdict", () => {
  const clean = { freeze_authority: null, mint_authority: null, dev_holds_pct: 1, top_holders_pct: 12, holders: 800 };

  it("draws its thresholds at 0.3 and 0.55 of weighted risk, and only the full view calls a snipe", () => {
    expect(tokenSignalFromRisk(0.299, true).signal).toBe("snipe");
    expect(tokenSignalFromRisk(0.299, false).signal).toBe("watch");
    expect(tokenSignalFromRisk(0.3, true).signal).toBe("watch");
    expect(tokenSignalFromRisk(0.55, true).signal).toBe("watch");
    expect(tokenSignalFromRisk(0.5501, false).signal).toBe("avoid");
    expect(tokenSignalFromRisk(0.9, true).confidence).toBeGreaterThan(tokenSignalFromRisk(0.6, true).confidence);
  });

  it("avoids a token with a live authority whatever else it shows", () => {
    const frozen = tokenVerdict({
      token: { ...clean, freeze_authority: "8J4JqXWkYkZq6dhYyYxBzkhJbRyg3QTXyQxK2eqPN3Fv" },
    });
    expect(frozen).toMatchObject({ signal: "avoid", confidence: 0.9 });
    const both = tokenVerdict({
      token: { ...clean, freeze_authority: "a", mint_authority: "b" },
      snipers: { risk_level: "none" },
      curve: { progress_pct: 95 },
    });
    expect(both).toMatchObject({ signal: "avoid", confidence: 0.95 });
  });

  it("weighs snipers and dev holdings above concentration and progress, and those above holder count", () => {
    const base = { token: clean, snipers: { risk_level: "none" as const }, curve: { progress_pct: 93.4 } };
    expect(tokenVerdict(base)).toMatchObject({ signal: "snipe", risk: 0 });
    const sniped = tokenVerdict({ ...base, snipers: { risk_level: "high" } }).risk;
    const devHeavy = tokenVerdict({ ...base, token: { ...clean, dev_holds_pct: 15 } }).risk;
    const concentrated = tokenVerdict({ ...base, token: { ...clean, top_holders_pct: 50 } }).risk;
    const early = tokenVerdict({ ...base, curve: { progress_pct: 0 } }).risk;
    const fewHolders = tokenVerdict({ ...base, token: { ...clean, holders: 25 } }).risk;
    expect(sniped).toBeCloseTo(3 / 11, 3);
    expect(devHeavy).toBeCloseTo(3 / 11, 3);
    expect(concentrated).toBeCloseTo(2 / 11, 3);
    expect(early).toBeCloseTo(2 / 11, 3);
    expect(fewHolders).toBeCloseTo(1 / 11, 3);
    expect(
      tokenVerdict({
        token: { ...clean, dev_holds_pct: 30, top_holders_pct: 60 },
        snipers: { risk_level: "high" },
        curve: { progress_pct: 5 },
      }).signal,
    ).toBe("avoid");
  });

  it("judges a partial view on the factors it has", () => {
    expect(tokenVerdict({ snipers: { risk_level: "high" } }).signal).toBe("avoid");
    expect(tokenVerdict({ snipers: { risk_level: "none" } }).signal).toBe("watch");
    expect(tokenVerdict({ token: clean }).signal).toBe("watch");
  });
});

describe("launchListSignal", () => {
  const token = (initial_buy_sol: number, market_cap_sol: number) => ({ initial_buy_sol, market_cap_sol });
  const traction = 2 * EMPTY_CURVE_CAP_SOL;

  it("avoids a list where half or more opened with a heavy dev buy (3 SOL or more)", () => {
    expect(launchListSignal([token(3, 30), token(0.5, 30)]).signal).toBe("avoid");
    expect(launchListSignal([token(2.99, 30), token(0.5, 30)]).signal).toBe("watch");
  });

  it("snipes when 30% of the list doubled the empty-curve cap and under 30% is dev-heavy", () => {
    const quiet = Array.from({ length: 7 }, () => token(0.5, 30));
    expect(launchListSignal([token(0.5, traction), token(0.5, traction), token(0.5, traction), ...quiet]).signal).toBe(
      "snipe",
    );
    expect(
      launchListSignal([token(0.5, traction), token(0.5, traction), token(0.5, traction - 0.01), ...quiet]).signal,
    ).toBe("watch");
    expect(launchListSignal([]).signal).toBe("watch");
  });
});
