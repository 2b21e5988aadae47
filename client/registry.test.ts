// The typed registry client against the real registry service (in-process, seeded store).
import { describe, expect, expectTypeOf, it } from "vitest";
import type { components } from "../generated/types/registry.js";
import { useLocalServices } from "../test/support/local-services.js";
import { HttpError } from "./errors.js";
import { createRegistryClient } from "./registry.js";

const services = useLocalServices();

describe("registry client", () => {
  it("lists agents and reads one agent's manifest, existence and aliases, typed", async () => {
    const registry = createRegistryClient({ baseUrl: services().registryUrl });
    const { agents } = await registry.get("/api/agents", { query: { limit: 2 } });
    expect(agents).toHaveLength(2);
    const name = agents[0]?.name as string;
    const manifest = await registry.get("/manifest/{name}", { path: { name } });
    expectTypeOf(manifest).toEqualTypeOf<components["schemas"]["Manifest"]>();
    expect(manifest.capabilities.length).toBeGreaterThan(0);
    expect(await registry.get("/api/agents/{name}/exists", { path: { name } })).toMatchObject({
      exists: true,
      available: false,
    });
    expect((await registry.get("/api/agent/primary-alias/{name}", { path: { name } })).passportHandle).toBe(`@${name}`);
  });

  it("throws HttpError with the JSON body for an unknown agent (404) and an invalid name (400)", async () => {
    const registry = createRegistryClient({ baseUrl: services().registryUrl });
    const missing = await registry.get("/manifest/{name}", { path: { name: "no-such-agent" } }).catch((e) => e);
    expect(missing).toBeInstanceOf(HttpError);
    expect(missing).toMatchObject({ status: 404, body: { error: "not_found" } });
    const invalid = await registry.get("/api/agents/{name}/exists", { path: { name: "a" } }).catch((e) => e);
    expect(invalid).toMatchObject({
      status: 400,
      body: { error: "invalid_request", errors: [{ location: "path", field: "name" }] },
    });
  });

  it("types paths and parameters from the generated registry contract", () => {
    const compileOnly = async () => {
      const registry = createRegistryClient({ baseUrl: services().registryUrl });
      // @ts-expect-error the name path parameter is required
      await registry.get("/manifest/{name}");
      // @ts-expect-error an unknown path
      await registry.get("/api/agent");
      // @ts-expect-error limit is an integer
      await registry.get("/api/agents", { query: { limit: "5" } });
    };
    expect(typeof compileOnly).toBe("function");
  });
});
