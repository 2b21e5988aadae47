// The checks across both services' settings, made before anything starts.
import { describe, expect, it } from "vitest";
import { drainMs, loadServiceConfig } from "./index.js";

describe("loadServiceConfig", () => {
  it("refuses the two services on one port", () => {
    expect(() => loadServiceConfig({ PORT: "30120", REGISTRY_PORT: "30120" })).toThrow(
      "PORT and REGISTRY_PORT must differ; both are 30120",
    );
    expect(() => loadServiceConfig({ REGISTRY_PORT: "4021" })).toThrow(/must differ/);
    expect(loadServiceConfig({ PORT: "30120", REGISTRY_PORT: "30121" }).registry.port).toBe(30121);
  });

  it("refuses worker processes over an in-memory ledger, where each would accept the others' payments again", () => {
    expect(() => loadServiceConfig({ WORKERS: "2", LEDGER_DB: ":memory:" })).toThrow(
      "WORKERS=2 needs a ledger the workers share; LEDGER_DB=:memory: gives each its own",
    );
    expect(
      loadServiceConfig({ WORKERS: "2", LEDGER_DB: ":memory:", DATABASE_URL: "postgres://127.0.0.1/test" }).stores
        .workers,
    ).toBe(2);
    expect(loadServiceConfig({ LEDGER_DB: ":memory:" }).stores.workers).toBe(1);
  });

  it("reads REGISTRY_PORT as strictly as PORT, and a blank REGISTRY_DB as unset", () => {
    for (const bad of ["0x10", "1e3", "0", "abc"])
      expect(() => loadServiceConfig({ REGISTRY_PORT: bad }), bad).toThrow(
        `REGISTRY_PORT must be a port number from 1 to 65535, got "${bad}"`,
      );
    expect(loadServiceConfig({ REGISTRY_PORT: "  " }).registry.port).toBe(4022);
    expect(loadServiceConfig({ REGISTRY_DB: "  " }).registry.dbPath).toBe("data/registry.db");
  });

  it("refuses a METRICS_TOKEN of blanks, which would leave /metrics open", () => {
    expect(() => loadServiceConfig({ METRICS_TOKEN: "   " })).toThrow(/METRICS_TOKEN is only blanks/);
    expect(loadServiceConfig({ METRICS_TOKEN: "" }).operations.metricsToken).toBeUndefined();
    expect(loadServiceConfig({ METRICS_TOKEN: " scrape " }).operations.metricsToken).toBe("scrape");
  });

  it("waits at shutdown as long as a paid request may take: its answer's deadline, then the facilitator's timeout", () => {
    expect(drainMs(loadServiceConfig({}))).toBe(35_000);
    const facilitator = {
      SETTLEMENT: "facilitator",
      FACILITATOR_URL: "https://facilitator.example.com",
      FACILITATOR_TIMEOUT_MS: "20000",
    };
    expect(drainMs(loadServiceConfig(facilitator))).toBe(55_000);
  });
});
