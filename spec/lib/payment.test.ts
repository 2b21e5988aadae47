import { describe, expect, it } from "vitest";
import { usdToMicroUsdc } from "./payment.js";

describe("usdToMicroUsdc", () => {
  it("converts with integer arithmetic, never through floats", () => {
    expect(usdToMicroUsdc("0.001")).toBe("1000");
    expect(usdToMicroUsdc("0.025")).toBe("25000");
    expect(usdToMicroUsdc("0.010")).toBe("10000");
    expect(usdToMicroUsdc("1.005")).toBe("1005000");
    expect(usdToMicroUsdc("0.000123")).toBe("123");
    expect(usdToMicroUsdc("12")).toBe("12000000");
  });

  it("rejects what is not a positive price with at most 6 decimals", () => {
    for (const bad of ["0", "0.000000", "0.0000001", "-1", "1e-3", ".5", "1.", "abc", ""])
      expect(usdToMicroUsdc(bad), bad).toBeUndefined();
  });
});
