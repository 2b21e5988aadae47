import { describe, expect, it } from "vitest";
import { ilRiskLevel, tvlSignal, yieldsSignal } from "./defi.js";

describe("ilRiskLevel", () => {
  it("grades pools by how far their sides can diverge", () => {
    expect(ilRiskLevel({ symbol: "USDC", exposure: "single", stablecoin: true })).toBe("none");
    expect(ilRiskLevel({ symbol: "STETH", exposure: "single", stablecoin: false })).toBe("none");
    expect(ilRiskLevel({ symbol: "USDC-USDT", exposure: "multi", stablecoin: true })).toBe("none");
    expect(ilRiskLevel({ symbol: "JITOSOL-SOL", exposure: "multi", stablecoin: false })).toBe("low");
    expect(ilRiskLevel({ symbol: "SOL-USDC", exposure: "multi", stablecoin: false })).toBe("medium");
    expect(ilRiskLevel({ symbol: "BONK-SOL", exposure: "multi", stablecoin: false })).toBe("high");
  });
});

describe("yieldsSignal", () => {
  const pool = (apy_pct: number, tvl_usd = 50e6) => ({ apy_pct, tvl_usd });

  it("calls a list risky when half of its top 5 pay above 100%", () => {
    expect(yieldsSignal([pool(150), pool(120), pool(101), pool(9), pool(8)]).signal).toBe("risky");
    expect(yieldsSignal([pool(150), pool(120), pool(100), pool(9), pool(8)]).signal).toBe("high_yield");
  });

  it("grades by the median APY of the top 5 at 20 and 8 percent", () => {
    expect(yieldsSignal([pool(30), pool(25), pool(20), pool(5), pool(4)]).signal).toBe("high_yield");
    expect(yieldsSignal([pool(30), pool(25), pool(19.99), pool(5), pool(4)]).signal).toBe("medium_yield");
    expect(yieldsSignal([pool(9), pool(8)]).signal).toBe("medium_yield");
    expect(yieldsSignal([pool(9), pool(6.9)]).signal).toBe("low_yield");
    expect(yieldsSignal([]).signal).toBe("low_yield");
  });

  it("trusts deep pools more than thin ones", () => {
    expect(yieldsSignal([pool(10, 100e6)]).confidence).toBeGreaterThan(yieldsSignal([pool(10, 1e6)]).confidence);
  });
});

describe("tvlSignal", () => {
  it("reads total TVL as market depth", () => {
    expect(tvlSignal(49e6, 1).signal).toBe("risky");
    expect(tvlSignal(50e6, 1).signal).toBe("high_yield");
    expect(tvlSignal(1e9, 1).signal).toBe("medium_yield");
    expect(tvlSignal(20e9, 1).signal).toBe("low_yield");
    expect(tvlSignal(1e9, 5).confidence).toBeGreaterThan(tvlSignal(1e9, 1).confidence);
  });
});
