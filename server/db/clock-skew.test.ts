import { describe, expect, it } from "vitest";
import { capturedLogger } from "../../test/support/logs.js";
import { adminQuery, hasPostgres } from "../../test/support/services.js";
import { measureClockSkew, surelyAheadMs, TOLERATED_SKEW_MS, warnOfClockSkew } from "./clock-skew.js";
import type { Query } from "./database.js";

describe("the database's clock skew", () => {
  it("matters only when the database surely runs ahead by more than the tolerance", () => {
    expect(surelyAheadMs({ aheadMs: 4_010, withinMs: 10 })).toBe(4_000);
    expect(surelyAheadMs({ aheadMs: TOLERATED_SKEW_MS, withinMs: 0 })).toBeUndefined();
    // a slow round trip cannot tell it from synchronized clocks
    expect(surelyAheadMs({ aheadMs: 1_500, withinMs: 600 })).toBeUndefined();
    // a database clock behind changes nothing: the ledger checks deadlines against the later of the two
    expect(surelyAheadMs({ aheadMs: -60_000, withinMs: 1 })).toBeUndefined();
  });

  it("is told to the operator in one warning naming it, and not at all when the clocks agree", async () => {
    const databaseAhead =
      (ms: number): Query =>
      async () => [{ at: String(Date.now() + ms) }];
    const { logger, lines } = capturedLogger();
    await warnOfClockSkew(databaseAhead(5_000), logger);
    const [warning] = lines() as { level: number; databaseAheadMs: number; msg: string }[];
    expect(warning).toMatchObject({
      level: 40,
      msg: expect.stringMatching(
        /^the database's clock runs at least [45]\.\d s ahead of this machine's: .*synchronize both clocks/,
      ),
    });
    // the figure logged is the one the message states
    expect(warning?.msg).toContain(`at least ${((warning?.databaseAheadMs ?? 0) / 1000).toFixed(1)} s ahead`);
    await warnOfClockSkew(databaseAhead(0), logger);
    expect(lines()).toHaveLength(1);
  });

  it.skipIf(!hasPostgres())("is measured on PostgreSQL against this process's clock", async () => {
    const query = async (sql: string) => (await adminQuery(sql)).rows;
    const synchronized = await measureClockSkew(query);
    expect(Math.abs(synchronized.aheadMs)).toBeLessThan(TOLERATED_SKEW_MS + synchronized.withinMs);
    // this process's clock 5 s behind: the database's reads 5 s ahead
    const behind = await measureClockSkew(query, () => Date.now() - 5_000);
    expect(Math.abs(behind.aheadMs - 5_000)).toBeLessThan(TOLERATED_SKEW_MS + behind.withinMs);
  });
});
