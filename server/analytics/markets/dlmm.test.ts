import { describe, expect, it } from "vitest";
import { aprPct, binIdAt, binPrice, inRange } from "./dlmm.js";

/** SOL (9 decimals) against USDC (6 decimals), bin step 4. */
const solUsdc = { binStep: 4, tokenX: { decimals: 9 }, tokenY: { decimals: 6 } };

describe("bin math", () => {
  it("prices a bin as (1 + binStep/10000)^binId scaled by the decimals, and finds the bin of a price", () => {
    expect(binPrice(solUsdc, 0)).toBeCloseTo(1000, 9);
    expect(binPrice(solUsdc, -4731)).toBeCloseTo(150.77, 1);
    expect(binIdAt(solUsdc, 150.77)).toBe(-4731);
    for (const bin of [-20_000, -1, 0, 1, 4_321]) expect(binIdAt(solUsdc, binPrice(solUsdc, bin))).toBe(bin);
  });
});

describe("positions", () => {
  const range = { lowerBinId: -4760, upperBinId: -4700 };

  it("is in range from its lowest to its highest bin", () => {
    expect(inRange(range, -4760)).toBe(true);
    expect(inRange(range, -4700)).toBe(true);
    expect(inRange(range, -4761)).toBe(false);
    expect(inRange(range, -4699)).toBe(false);
  });
});

describe("aprPct", () => {
  it("annualizes fees over TVL, per day of the window", () => {
    expect(aprPct(16_492.22, 8_412_330.55)).toBeCloseTo(71.56, 2);
    expect(aprPct(110_524, 8_412_330.55, 7)).toBeCloseTo(68.51, 2);
    expect(aprPct(100, 0)).toBe(0);
  });
});
