import { describe, expect, it } from "vitest";
import { registryConfig } from "./config.js";

describe("registryConfig", () => {
  it("defaults to port 4022, data/registry.db and validated responses", () => {
    expect(registryConfig({})).toEqual({ port: 4022, dbPath: "data/registry.db", validateResponses: true });
  });

  it("reads REGISTRY_PORT, REGISTRY_DB and NODE_ENV", () => {
    expect(registryConfig({ REGISTRY_PORT: "5000", REGISTRY_DB: "/var/lib/registry.db", NODE_ENV: "production" })).toEqual({
      port: 5000,
      dbPath: "/var/lib/registry.db",
      validateResponses: false,
    });
  });

  it.each(["http", "70000", "-1", "40.5"])("refuses REGISTRY_PORT=%s", (port) => {
    expect(() => registryConfig({ REGISTRY_PORT: port })).toThrow(/REGISTRY_PORT must be a port number/);
  });
});
