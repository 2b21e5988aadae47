import { describe, expect, it } from "vitest";
import { a2aScenario, a2aTargets, mcpScenario, mcpTargets, ratioOf, summarize, targetResults } from "./report.js";

const load = (requestsPerSecond: number) => ({
  requestsPerSecond,
  p50Ms: 1,
  p99Ms: 2,
  errors: 0,
  requests: requestsPerSecond,
});
const row = (scenario: string, perRound: number[], measurement: number) =>
  summarize(scenario, perRound.map(load), 100, measurement);

describe("ratioOf", () => {
  // The machine ran at full speed in rounds 1 and 3 and at half speed in round 2, the path always at 0.4×.
  const bare = row("bare Express", [10_000, 5_000, 10_000], 1);
  const paid = row("paid", [4_000, 2_000, 4_000], 1);

  it("compares rows that took turns round by round", () => {
    expect(ratioOf(paid, [bare, paid], "bare Express")).toEqual({ ratio: 0.4, low: 0.4, high: 0.4 });
  });

  it("is the median of the rounds' ratios, with their range", () => {
    // the medians taken apart would give 2,000 / 10,000
    const noisy = row("paid", [5_000, 2_000, 2_000], 1);
    expect(ratioOf(noisy, [bare, noisy], "bare Express")).toEqual({ ratio: 0.4, low: 0.2, high: 0.5 });
  });

  it("compares the medians of rows measured apart", () => {
    // paired with bare's rounds these would give 0.2, 0.8 and 0.4
    const apart = row("paid", [2_000, 4_000, 4_000], 2);
    expect(ratioOf(apart, [bare, apart], "bare Express")).toEqual({ ratio: 0.4, low: 0.4, high: 0.4 });
  });

  it("takes a row's own baseline before its table's", () => {
    const own = row("bare Express", [5_000, 5_000, 5_000], 3);
    const deployed = { ...row("paid, deployed", [2_000, 2_500, 1_500], 3), baseline: own };
    expect(ratioOf(deployed, [bare, deployed], "bare Express")).toEqual({ ratio: 0.4, low: 0.3, high: 0.5 });
  });

  it("is NaN without a baseline", () => {
    expect(ratioOf(paid, [paid], "bare Express").ratio).toBeNaN();
  });
});

describe("targetResults", () => {
  it("states each measured target against its floor, leaving out rows not measured", () => {
    const bare = row("bare Express", [10_000, 8_000], 1);
    const paid = row("paid", [3_900, 3_100], 1);
    const [result, ...rest] = targetResults([
      { rows: [bare, paid], baseline: "bare Express", scenario: "paid", atLeast: 0.4 },
      { rows: [bare, paid], baseline: "bare Express", scenario: "not measured", atLeast: 0.4 },
    ]);
    expect(rest).toEqual([]);
    expect(result?.met).toBe(false);
    expect(result?.held).toBe(true);
    expect(result?.ratio).toBeCloseTo((0.39 + 0.3875) / 2);
    expect(result?.low).toBeCloseTo(0.3875);
    expect(result?.high).toBeCloseTo(0.39);
  });

  it("reports a target it is not held to (the PostgreSQL rows), still saying whether the ratio reached it", () => {
    const bare = row("bare Express", [10_000, 10_000], 1);
    const paid = row("paid", [3_000, 3_000], 1);
    const [result] = targetResults([
      { rows: [bare, paid], baseline: "bare Express", scenario: "paid", atLeast: 0.4, held: false },
    ]);
    expect(result).toMatchObject({ held: false, met: false, ratio: 0.3 });
  });

  it("states the cores the target's rate would take at the run's CPU per request, the database's and the load generator's included", () => {
    const bare = row("bare Express", [10_000, 10_000], 1);
    const withCpu = (database?: number) => ({
      ...row("paid", [3_000, 3_000], 1),
      cpuMicrosPerRequest: 300,
      loadCpuMicrosPerRequest: 100,
      ...(database === undefined ? {} : { databaseCpuMicrosPerRequest: database }),
    });
    const cores = (paid: ReturnType<typeof withCpu>) =>
      targetResults([{ rows: [bare, paid], baseline: "bare Express", scenario: "paid", atLeast: 0.4 }])[0]
        ?.coresAtTarget;
    // 4,000 req/s × (300 + 100) µs
    expect(cores(withCpu())).toBeCloseTo(1.6);
    // and the database's 200 µs: more than a 2-core machine has
    expect(cores(withCpu(200))).toBeCloseTo(2.4);
    // unknown without the service's CPU (WORKERS)
    const { cpuMicrosPerRequest: _, ...workers } = withCpu();
    expect(cores(workers as ReturnType<typeof withCpu>)).toBeUndefined();
  });
});

describe("mcpTargets", () => {
  it("holds each era's tool call on each network to 0.80× of the v2 POST on that network, the v1 ratio reported", () => {
    const posts = [
      row("paid EVM /base/defi/tvl, x402 v2", [1_000], 1),
      row("paid Solana /defi/tvl, x402 v2", [800], 1),
      row("paid EVM /base/defi/tvl", [1_200], 1),
      row("paid Solana /defi/tvl", [1_000], 1),
    ];
    const calls = [
      row(mcpScenario("2025", "base"), [900], 1),
      row(mcpScenario("2025", "solana"), [700], 1),
      row(mcpScenario("2026-07-28", "base"), [700], 1),
      row(mcpScenario("2026-07-28", "solana"), [640], 1),
    ];
    const results = targetResults(mcpTargets([...posts, ...calls]));
    const held = results
      .filter((r) => r.held)
      .map(({ scenario, baseline, ratio, met }) => ({ scenario, baseline, ratio, met }));
    expect(held).toEqual([
      { scenario: "paid MCP EVM defiTvl (Base)", baseline: "paid EVM /base/defi/tvl, x402 v2", ratio: 0.9, met: true },
      { scenario: "paid MCP Solana defiTvl", baseline: "paid Solana /defi/tvl, x402 v2", ratio: 0.875, met: true },
      {
        scenario: "paid MCP 2026-07-28 EVM defiTvl (Base)",
        baseline: "paid EVM /base/defi/tvl, x402 v2",
        ratio: 0.7,
        met: false,
      },
      {
        scenario: "paid MCP 2026-07-28 Solana defiTvl",
        baseline: "paid Solana /defi/tvl, x402 v2",
        ratio: 0.8,
        met: true,
      },
    ]);
    const reported = results.filter((r) => !r.held);
    expect(reported.map((r) => r.baseline).sort()).toEqual(
      ["paid EVM /base/defi/tvl", "paid Solana /defi/tvl"].flatMap((b) => [b, b]),
    );
    expect(reported.every((r) => r.atLeast === 0.8)).toBe(true);
  });
});

describe("a2aTargets", () => {
  it("holds the skill's payment message on each network to 0.70× of the v2 POST on that network", () => {
    const posts = [
      row("paid EVM /base/defi/tvl, x402 v2", [1_000], 1),
      row("paid Solana /defi/tvl, x402 v2", [800], 1),
    ];
    const calls = [row(a2aScenario("base"), [700], 1), row(a2aScenario("solana"), [520], 1)];
    const results = targetResults(a2aTargets([...posts, ...calls]));
    expect(
      results.map(({ scenario, baseline, ratio, met, held }) => ({ scenario, baseline, ratio, met, held })),
    ).toEqual([
      {
        scenario: "paid A2A EVM defiTvl (Base)",
        baseline: "paid EVM /base/defi/tvl, x402 v2",
        ratio: 0.7,
        met: true,
        held: true,
      },
      {
        scenario: "paid A2A Solana defiTvl",
        baseline: "paid Solana /defi/tvl, x402 v2",
        ratio: 0.65,
        met: false,
        held: true,
      },
    ]);
  });
});

describe("summarize", () => {
  it("takes the median of each CPU figure over the rounds", () => {
    const rounds = [100, 300, 200].map((cpu, i) => ({
      ...load(1_000),
      cpuMicrosPerRequest: cpu,
      loadCpuMicrosPerRequest: 50 + i,
    }));
    const summary = summarize("paid", rounds, 100, 1);
    expect(summary.cpuMicrosPerRequest).toBe(200);
    expect(summary.loadCpuMicrosPerRequest).toBe(51);
    expect(summary.databaseCpuMicrosPerRequest).toBeUndefined();
  });
});
