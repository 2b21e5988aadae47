import { describe, expect, it } from "vitest";
import { expectValidOutcome, testContext } from "../../../test/support/segments.js";
import { askHandlers } from "./ask.js";

describe("ask", () => {
  it("answers with chain and pool context, the relevant endpoints and an echo of the question", async () => {
    const query = "Where can I earn the best yield on SOL right now?";
    const out = expectValidOutcome("ask", await askHandlers.ask({ query }, testContext()));
    expect(out.data.query).toBe(query);
    expect(out.data.context.top_chains_by_tvl).toHaveLength(5);
    expect(out.data.context.top_meteora_pools_by_apr.length).toBeGreaterThan(0);
    const aprs = out.data.context.top_meteora_pools_by_apr.map((p) => p.apr_pct);
    expect(aprs).toEqual([...aprs].sort((a, b) => b - a));
    expect(out.data.available_endpoints[0]).toBe("/defi/yields");
    expect(out.sources).toEqual(expect.arrayContaining(["embedded-tvl", "embedded-pools"]));
    expect(out.brief).toMatch(/leads TVL/);
  });

  it("routes other questions elsewhere with the same context", async () => {
    const out = await askHandlers.ask({ query: "Which whales are accumulating right now?" }, testContext());
    expect(out.data.available_endpoints[0]).toBe("/smartmoney/flow-intel");
  });

  it("names the endpoints, in the data and the brief, under the prefix it is served under", async () => {
    const out = await askHandlers.ask(
      { query: "Which whales are accumulating right now?" },
      { ...testContext(), prefix: "/skale" },
    );
    expect(out.data.available_endpoints.length).toBeGreaterThan(0);
    for (const path of out.data.available_endpoints) expect(path).toMatch(/^\/skale\/[a-z]/);
    expect(out.brief).toContain("/skale/smartmoney/flow-intel");
  });
});
