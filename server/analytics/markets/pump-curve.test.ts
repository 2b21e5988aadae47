import { describe, expect, it } from "vitest";
import {
  curvePriceSol,
  EMPTY_CURVE_CAP_SOL,
  PUMP_COMPLETE_SOL,
  pumpProgressAtSol,
  pumpProgressPct,
  virtualTokensAtSol,
} from "./pump-curve.js";

describe("pump.fun curve arithmetic", () => {
  it("reads progress from virtual token reserves (PumpPortal's create sample is 12.16%)", () => {
    expect(pumpProgressPct(1_073_000_000)).toBe(0);
    expect(pumpProgressPct(976_550_561.855907)).toBeCloseTo(12.16, 2);
    expect(pumpProgressPct(279_900_000)).toBeCloseTo(100, 9);
  });

  it("turns SOL in the curve into progress through the constant product; completion is at about 85.005 SOL", () => {
    expect(pumpProgressAtSol(0)).toBe(0);
    expect(pumpProgressAtSol(2.962962961)).toBeCloseTo(12.16, 2);
    expect(pumpProgressAtSol(85.005)).toBeCloseTo(100, 2);
    expect(pumpProgressAtSol(50)).toBeLessThan(85);
    expect(pumpProgressAtSol(51)).toBeGreaterThan(85);
  });

  it("keeps the constant product: completion leaves the 279.9M tokens never for sale, at a 410.9 SOL cap", () => {
    expect(PUMP_COMPLETE_SOL).toBeCloseTo(85.005, 3);
    expect(virtualTokensAtSol(PUMP_COMPLETE_SOL)).toBeCloseTo(279_900_000, 0);
    expect(curvePriceSol(PUMP_COMPLETE_SOL) * 1e9).toBeCloseTo(410.9, 1);
    expect(EMPTY_CURVE_CAP_SOL).toBeCloseTo(27.96, 2);
    expect(curvePriceSol(0) * 1e9).toBeCloseTo(EMPTY_CURVE_CAP_SOL, 9);
  });
});
