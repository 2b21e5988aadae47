// Readiness: every check within one bound, the failing ones named, no credential in what is said,
// and concurrent probes sharing one round of checks.
import { describe, expect, it } from "vitest";
import { checkReadiness, pingChecks, type ReadinessCheck, readinessProbe } from "./readiness.js";

const passing = (name: string): ReadinessCheck => ({ name, check: async () => {} });
const failing = (name: string, message: string): ReadinessCheck => ({
  name,
  check: async () => {
    throw new Error(message);
  },
});

describe("checkReadiness", () => {
  it("is ready when every check passes, and lists each", async () => {
    const report = await checkReadiness([passing("ledger"), passing("cache")], 1000);
    expect(report.status).toBe("ready");
    expect(report.checks.map(({ name, ok }) => ({ name, ok }))).toEqual([
      { name: "ledger", ok: true },
      { name: "cache", ok: true },
    ]);
    for (const check of report.checks) expect(check.error).toBeUndefined();
  });

  it("names the check that failed and why, and still runs the others", async () => {
    const report = await checkReadiness([passing("ledger"), failing("settlement:facilitator", "answered 500")], 1000);
    expect(report.status).toBe("not_ready");
    expect(report.checks).toEqual([
      expect.objectContaining({ name: "ledger", ok: true }),
      expect.objectContaining({ name: "settlement:facilitator", ok: false, error: "answered 500" }),
    ]);
  });

  it("gives up on a check that does not answer within the bound, and aborts its signal", async () => {
    let aborted: AbortSignal | undefined;
    const hanging: ReadinessCheck = {
      name: "cache",
      check: (signal) => {
        aborted = signal;
        return new Promise(() => {});
      },
    };
    const report = await checkReadiness([hanging], 20);
    expect(report.status).toBe("not_ready");
    expect(report.checks[0]).toMatchObject({ name: "cache", ok: false, error: "no answer within 20 ms" });
    expect(aborted?.aborted).toBe(true);
  });

  it("says no credential the failure quoted", async () => {
    const report = await checkReadiness([failing("ledger", "could not reach postgres://app:hunter2@db/ledger")], 1000);
    expect(report.checks[0]?.error).toContain("could not reach postgres://");
    expect(report.checks[0]?.error).not.toContain("hunter2");
  });

  it("is ready with nothing to check", async () => {
    expect(await checkReadiness([], 1000)).toEqual({ status: "ready", checks: [] });
  });
});

describe("readinessProbe", () => {
  it("asks each part once for probes that arrive together, and again for the next probe", async () => {
    let asked = 0;
    const probe = readinessProbe([{ name: "ledger", check: async () => void asked++ }], 1000);
    await Promise.all([probe(), probe(), probe()]);
    expect(asked).toBe(1);
    await probe();
    expect(asked).toBe(2);
  });
});

describe("pingChecks", () => {
  it("makes one named check per part with a ping, and none for a part without", async () => {
    const pinged: string[] = [];
    const store = {
      label: "store",
      async ping() {
        pinged.push(this.label);
      },
    };
    const checks = pingChecks({ "registry-store": store, "settlement:ledger": {} });
    expect(checks.map((c) => c.name)).toEqual(["registry-store"]);
    await checks[0]?.check(new AbortController().signal);
    expect(pinged).toEqual(["store"]);
  });
});
