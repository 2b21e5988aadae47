import { describe, expect, it } from "vitest";
import { adminQuery, hasPostgres } from "../../test/support/services.js";
import { clockSkewWarning, measureClockSkew, TOLERATED_SKEW_MS } from "./clock-skew.js";

describe("the database's clock skew", () => {
  it("is worth a warning only when the database surely runs ahead by more than the tolerance", () => {
    expect(clockSkewWarning({ aheadMs: 4_010, withinMs: 10 })).toBe(
      "the database's clock runs at least 4.0 s ahead of this machine's: an answer ready within 4.0 s of its payment's deadline is refused as late (503, not charged); synchronize both clocks (NTP)",
    );
    expect(clockSkewWarning({ aheadMs: TOLERATED_SKEW_MS, withinMs: 0 })).toBeUndefined();
    // a slow round trip cannot tell it from synchronized clocks
    expect(clockSkewWarning({ aheadMs: 1_500, withinMs: 600 })).toBeUndefined();
    // a database clock behind changes nothing: the ledger checks deadlines against the later of the two
    expect(clockSkewWarning({ aheadMs: -60_000, withinMs: 1 })).toBeUndefined();
  });

  it.skipIf(!hasPostgres())("is measured on PostgreSQL against this process's clock", async () => {
    const query = async (sql: string) => (await adminQuery(sql)).rows;
    const synchronized = await measureClockSkew(query);
    expect(Math.abs(synchronized.aheadMs)).toBeLessThan(TOLERATED_SKEW_MS);
    // this process's clock 5 s behind: the database's reads 5 s ahead
    const behind = await measureClockSkew(query, () => Date.now() - 5_000);
    expect(behind.aheadMs).toBeGreaterThan(5_000 - TOLERATED_SKEW_MS);
    expect(behind.aheadMs).toBeLessThan(5_000 + TOLERATED_SKEW_MS);
    expect(clockSkewWarning(behind)).toMatch(/^the database's clock runs at least \d\.\d s ahead/);
  });
});
