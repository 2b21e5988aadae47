import { describe, expect, it } from "vitest";
import { registryConfig } from "./registry.js";

describe("registryConfig", () => {
  it("defaults to port 4022, data/registry.db and validated responses", () => {
    expect(registryConfig({})).toEqual({
      port: 4022,
      dbPath: "data/registry.db",
      validateResponses: true,
      trustProxy: false,
    });
  });

  it("reads REGISTRY_PORT, REGISTRY_DB and NODE_ENV", () => {
    expect(
      registryConfig({ REGISTRY_PORT: "5000", REGISTRY_DB: "/var/lib/registry.db", NODE_ENV: "production" }),
    ).toEqual({
      port: 5000,
      dbPath: "/var/lib/registry.db",
      validateResponses: false,
      trustProxy: false,
    });
  });

  it("reads the public origin and the trusted proxies", () => {
    expect(
      registryConfig({ REGISTRY_PUBLIC_BASE_URL: "https://registry.example.com/", TRUST_PROXY: "loopback" }),
    ).toMatchObject({
      publicBaseUrl: "https://registry.example.com",
      trustProxy: "loopback",
    });
    expect(() => registryConfig({ REGISTRY_PUBLIC_BASE_URL: "registry.example.com" })).toThrow(
      /REGISTRY_PUBLIC_BASE_URL/,
    );
  });

  it.each(["http", "70000", "-1", "40.5"])("refuses REGISTRY_PORT=%s", (port) => {
    expect(() => registryConfig({ REGISTRY_PORT: port })).toThrow(/REGISTRY_PORT must be a port number/);
  });
});
