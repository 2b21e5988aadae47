import request from "supertest";
import { describe, expect, it } from "vitest";
import type { Operation } from "../../conformance/openapi-doc.js";
import { getChecked, pathOf, testApp } from "../../test/support/registry.js";
import { StoreUnavailable } from "../db/unavailable.js";
import { createLogger } from "../http/logger.js";
import { createRegistryApp } from "./app.js";
import { registryDocument } from "./document.js";
import { MAX_AGE } from "./handlers.js";
import type { RegistryStore } from "./store.js";

const { app, store } = await testApp();
const documented = Object.entries(registryDocument.paths).map(([path, item]) => ({ path, op: item.get as Operation }));
/** The reads, cacheable (a documented 304); the operators' endpoints are tested in server/ops. */
const operations = documented.filter(({ op }) => "304" in op.responses);

/** The operation's documented example parameters, e.g. `{name: "orbit-scout"}`. */
function exampleParams(op: Operation): Record<string, string> {
  return Object.fromEntries(
    (op.parameters ?? []).filter((p) => p.in === "path").map((p) => [p.name as string, String(p.example)]),
  );
}

describe("every documented operation", () => {
  it("answers its documented example with a contract-valid 200", async () => {
    expect(operations.map(({ op }) => op.operationId).sort()).toEqual([
      "Agents_agentExists",
      "Agents_getManifest",
      "Agents_identityCard",
      "Agents_listAgents",
      "Agents_listSkills",
      "Agents_primaryAlias",
      "Service_docsPage",
      "Service_openApiDocument",
      "Service_serviceInfo",
    ]);
    for (const { path, op } of operations) {
      const response = await getChecked(app, path, exampleParams(op));
      expect(response.status, path).toBe(200);
    }
  });

  it("serves the seeded orbit-scout exactly as the contract's examples show it", async () => {
    for (const { path, op } of operations.filter(({ path }) => path.includes("{name}"))) {
      const response = await getChecked(app, path, exampleParams(op));
      expect(response.body, path).toEqual(op.responses["200"]?.content?.["application/json"]?.example);
    }
  });

  it("caches lists and existence 30 s, documents 300 s and the catalog 3600 s", async () => {
    const maxAge = async (path: string) =>
      (await getChecked(app, path, { name: "orbit-scout" })).headers["cache-control"];
    expect(await maxAge("/api/agents")).toBe(`public, max-age=${MAX_AGE.list}`);
    expect(await maxAge("/api/agents/{name}/exists")).toBe("public, max-age=30");
    expect(await maxAge("/manifest/{name}")).toBe("public, max-age=300");
    expect(await maxAge("/api/agent/primary-alias/{name}")).toBe("public, max-age=300");
    expect(await maxAge("/api/said-card/{name}")).toBe("public, max-age=300");
    expect(await maxAge("/api/skills")).toBe("public, max-age=3600");
  });
});

describe("the service's description of itself", () => {
  it("lists every operation of its document at GET /", async () => {
    const { body } = await getChecked(app, "/");
    expect(body.operations.map((o: { method: string; path: string }) => `${o.method} ${o.path}`).sort()).toEqual(
      documented.map(({ path }) => `GET ${path}`).sort(),
    );
    expect(body.documents).toEqual({ openapi: "/openapi.json", docs: "/docs" });
  });

  it("serves its document with the caller's origin as the server", async () => {
    const response = await request(app).get("/openapi.json").set("Host", "registry.example.test");
    expect(response.status).toBe(200);
    expect(response.body.paths).toEqual(registryDocument.paths);
    expect(response.body.servers).toEqual([{ url: "http://registry.example.test", description: "This deployment" }]);
  });

  it("refuses a Host that is not a host name, ignores X-Forwarded-* from an untrusted peer, and prefers its configured origin", async () => {
    const bad = await request(app).get("/openapi.json").set("Host", "evil.example/x?y=");
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ location: "header", field: "Host" });
    const forwarded = await request(app)
      .get("/openapi.json")
      .set("Host", "registry.example.test")
      .set("X-Forwarded-Proto", "javascript");
    expect(forwarded.body.servers[0].url).toBe("http://registry.example.test");
    const configured = createRegistryApp({
      store,
      logger: createLogger("silent"),
      validateResponses: true,
      publicBaseUrl: "https://registry.example.com",
    });
    const res = await request(configured).get("/openapi.json").set("Host", "evil.example");
    expect(res.body.servers[0].url).toBe("https://registry.example.com");
  });

  it("serves its API reference page and the page's script from the installed package", async () => {
    const page = await getChecked(app, "/docs");
    expect(page.text).toContain('<script src="/docs/assets/standalone.js"></script>');
    expect(page.text).toContain('"url":"/openapi.json"');
    const script = await request(app).get("/docs/assets/standalone.js");
    expect(script.status).toBe(200);
    expect(script.headers["content-type"]).toMatch(/javascript/);
    expect((await request(app).get("/docs/assets/no-such-file.js")).status).toBe(404);
  });
});

describe("GET /api/agents", () => {
  it("lists every seeded passport newest first, 20 at most by default", async () => {
    const { body } = await getChecked(app, "/api/agents");
    const createdAt = body.agents.map((agent: { createdAt: number }) => agent.createdAt);
    expect(body.agents).toHaveLength(12);
    expect(createdAt).toEqual([...createdAt].sort((a, b) => b - a));
  });

  it("honours limit, and shows kind and original casing on bring-your-own-agent passports only", async () => {
    const { body } = await getChecked(app, "/api/agents?limit=4");
    expect(body.agents.map((agent: { name: string }) => agent.name)).toEqual([
      "stable-harbor",
      "meme-oracle",
      "copycat-alpha",
      "sentinel-7",
    ]);
    expect(body.agents[0]).toMatchObject({ kind: "byoa", displayName: "Stable Harbor" });
    expect(body.agents[1]).not.toHaveProperty("kind");
    expect(body.agents[1]).not.toHaveProperty("displayName");
  });

  it.each(["0", "101", "abc", "2.5", "0x10", "0b11", "%2010"])(
    "refuses limit=%s with a 400 naming the query parameter",
    async (limit) => {
      const { status, body } = await getChecked(app, `/api/agents?limit=${limit}`);
      expect(status).toBe(400);
      expect(body.error).toBe("invalid_request");
      expect(body.errors[0]).toMatchObject({ location: "query", field: "limit" });
    },
  );

  it("refuses an undocumented query parameter", async () => {
    expect((await getChecked(app, "/api/agents?offset=20")).status).toBe(400);
  });

  for (const [query, message] of [
    ["limit", "must have a value"],
    ["limit=", "must have a value"],
    ["limit=Infinity", "must be a finite number"],
    ["limit=1e309", "must be a finite number"],
    ["limit=2&limit=3", "must be given once"],
  ]) {
    it(`answers ?${query} with a 400 naming limit, not a 500`, async () => {
      const response = await getChecked(app, `/api/agents?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.errors).toContainEqual({ location: "query", field: "limit", message });
    });
  }
});

describe("GET /api/agents/{name}/exists", () => {
  const exists = async (name: string) => (await getChecked(app, "/api/agents/{name}/exists", { name })).body;

  it.each([
    [
      "a native name in any spelling",
      "ORBIT_SCOUT",
      {
        normalized: "orbit-scout",
        exists: true,
        available: false,
        source: "native",
        record: { name: "orbit-scout", ownerWallet: "8J4JqXWkYkZq6dhYyYxBzkhJbRyg3QTXyQxK2eqPN3Fv" },
      },
    ],
    [
      "a bring-your-own-agent slug in the same namespace",
      "Stable Harbor",
      {
        normalized: "stable-harbor",
        exists: true,
        available: false,
        source: "byoa",
        record: { name: "stable-harbor", ownerWallet: "3fC99tAzDdoMFrTWEun4tbdAg8nggXu2zncnqi5Uukx5" },
      },
    ],
    [
      "a free valid name as available",
      "Fresh.Agent",
      { normalized: "fresh-agent", exists: false, available: true, source: "none", record: null },
    ],
    [
      "a reserved name as unavailable",
      "Admin",
      { normalized: "admin", exists: false, available: false, source: "reserved", record: null },
    ],
  ])("answers %s", async (_case, name, expected) => {
    expect(await exists(name)).toEqual({ name, ...expected });
  });

  it.each([
    ["ab", "must be 3 to 32 characters"],
    ["x".repeat(33), "must be 3 to 32 characters"],
    ["-orbit", "must not start or end with a separator"],
    ["orbit__scout", "must not contain two separators in a row"],
    ["\u043erbit-scout", 'must use only a-z, 0-9 and the separators - _ . or space; "о" (U+043E) is not allowed'],
  ])("refuses %s with a 400 naming the rule", async (name, message) => {
    const { status, body } = await getChecked(app, "/api/agents/{name}/exists", { name });
    expect(status).toBe(400);
    expect(body).toMatchObject({ error: "invalid_request", errors: [{ location: "path", field: "name", message }] });
  });

  it("refuses a name longer than the path allows before normalizing it", async () => {
    const { status, body } = await getChecked(app, "/api/agents/{name}/exists", { name: "a".repeat(129) });
    expect(status).toBe(400);
    expect(body.errors[0]).toMatchObject({ location: "path", field: "name" });
  });
});

describe("GET /api/agent/primary-alias/{name}", () => {
  it("gives a bring-your-own-agent passport its display casing and no .sol alias until one is locked in", async () => {
    const { body } = await getChecked(app, "/api/agent/primary-alias/{name}", { name: "yield-hound" });
    expect(body).toEqual({
      name: "yield-hound",
      displayName: "Yield-Hound",
      passportHandle: "@yield-hound",
      displayHandle: "@Yield-Hound",
      primarySol: null,
      source: "byoa",
    });
  });

  it("resolves any spelling of the name", async () => {
    const { body } = await getChecked(app, "/api/agent/primary-alias/{name}", { name: "DeepTide_Research" });
    expect(body).toMatchObject({ name: "deeptide-research", displayName: "DeepTide_Research", primarySol: null });
  });
});

describe("unknown, reserved and invalid names", () => {
  const named = operations.filter(({ path }) => path.includes("{name}") && !path.endsWith("/exists"));

  it.each(["nobody-here", "admin"])("answer %s with the JSON 404 on every endpoint naming an agent", async (name) => {
    for (const { path } of named) {
      const { status, body } = await getChecked(app, path, { name });
      expect(status, path).toBe(404);
      expect(body.error).toBe("not_found");
      expect(body.message).toContain(name);
    }
  });

  it("answer a malformed name with a 400 on every endpoint naming an agent", async () => {
    for (const { path } of named) {
      const { status, body } = await getChecked(app, path, { name: "a/b" });
      expect(status, path).toBe(400);
      expect(body.errors[0]).toMatchObject({ location: "path", field: "name" });
    }
  });

  it("404 a passport that has no identity card yet", async () => {
    expect((await getChecked(app, "/api/said-card/{name}", { name: "deeptide-research" })).status).toBe(404);
    expect((await getChecked(app, "/manifest/{name}", { name: "deeptide-research" })).status).toBe(200);
  });
});

describe("manifests and the skill catalog", () => {
  it("resolve every capability of every seeded manifest in /api/skills", async () => {
    const { body: catalog } = await getChecked(app, "/api/skills");
    const known = new Set(
      catalog.families.flatMap((family: { id: string; options: { id: string }[] }) =>
        family.options.map((o) => `${family.id}:${o.id}`),
      ),
    );
    const { body: list } = await getChecked(app, "/api/agents?limit=100");
    let checked = 0;
    for (const { name } of list.agents) {
      const { body: manifest } = await getChecked(app, "/manifest/{name}", { name });
      expect(manifest.capabilities.length, name).toBeGreaterThan(0);
      for (const id of manifest.capabilities) expect(known.has(id), `${name}: ${id}`).toBe(true);
      checked += manifest.capabilities.length;
    }
    expect(checked).toBeGreaterThanOrEqual(24);
  });
});

describe("conditional requests", () => {
  it("answer a matching If-None-Match with a bodiless 304 carrying the same ETag", async () => {
    // one Host for both calls: /openapi.json names the caller's origin, and supertest listens on a new port per request
    const host = { Host: "registry.example.test" };
    for (const { path, op } of operations) {
      const first = await getChecked(app, path, exampleParams(op), host);
      const again = await getChecked(app, path, exampleParams(op), {
        ...host,
        "If-None-Match": String(first.headers.etag),
      });
      expect(again.status, path).toBe(304);
      expect(again.headers.etag).toBe(first.headers.etag);
    }
  });

  it("answer a stale ETag with the new body once the store changes", async () => {
    const own = await testApp();
    const before = await getChecked(own.app, "/api/agents");
    await own.store.write({ agents: [fresh("late-comer", 1795000000000)] });
    const after = await getChecked(own.app, "/api/agents", {}, { "If-None-Match": String(before.headers.etag) });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.body.agents[0].name).toBe("late-comer");
  });

  it("give different bodies different ETags", async () => {
    const a = await getChecked(app, "/manifest/{name}", { name: "orbit-scout" });
    const b = await getChecked(app, "/manifest/{name}", { name: "rug-radar" });
    expect(a.headers.etag).not.toBe(b.headers.etag);
  });
});

describe("methods", () => {
  it("answer HEAD like GET, without a body", async () => {
    const get = await getChecked(app, "/api/skills");
    const head = await request(app).head("/api/skills");
    expect(head.status).toBe(200);
    expect(head.text ?? "").toBe("");
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.headers["content-length"]).toBe(get.headers["content-length"]);
    const conditional = await request(app).head("/api/skills").set("If-None-Match", String(get.headers.etag));
    expect(conditional.status).toBe(304);
    expect((await request(app).head(pathOf("/manifest/{name}", { name: "nobody-here" }))).status).toBe(404);
  });

  it.each(["post", "put", "patch", "delete"] as const)(
    "answer %s on a known path with a JSON 405 and Allow",
    async (method) => {
      const response = await request(app)[method]("/manifest/orbit-scout");
      expect(response.status).toBe(405);
      expect(response.body.error).toBe("method_not_allowed");
      expect(response.headers.allow?.split(/,\s*/).sort()).toEqual(["GET", "HEAD"]);
    },
  );

  it("answer an unknown path with the JSON 404", async () => {
    for (const path of ["/nope", "/manifest", "/api/agents/orbit-scout"]) {
      const response = await request(app).get(path);
      expect(response.status, path).toBe(404);
      expect(response.body.error, path).toBe("not_found");
    }
  });
});

describe("CORS", () => {
  it("lets any origin read, and see the ETag", async () => {
    const response = await request(app).get("/api/skills").set("Origin", "https://wallet.example.com");
    expect(response.headers["access-control-allow-origin"]).toBe("*");
    expect(response.headers["access-control-expose-headers"]).toContain("ETag");
  });

  it("answers a preflight with the read methods and the conditional header", async () => {
    const response = await request(app)
      .options("/manifest/orbit-scout")
      .set("Origin", "https://wallet.example.com")
      .set("Access-Control-Request-Method", "GET")
      .set("Access-Control-Request-Headers", "if-none-match");
    expect(response.status).toBe(204);
    expect(response.headers["access-control-allow-origin"]).toBe("*");
    expect(response.headers["access-control-allow-methods"]).toBe("GET, HEAD, OPTIONS");
    expect(response.headers["access-control-allow-headers"]).toContain("If-None-Match");
  });
});

describe("response validation", () => {
  it("turns an answer that breaks the contract into a 500 without internals", async () => {
    const broken: RegistryStore = { ...store, manifest: async () => ({ name: "orbit-scout" }) as never };
    const response = await request((await testApp(broken)).app).get("/manifest/orbit-scout");
    expect(response.status).toBe(500);
    expect(response.body).toMatchObject({
      error: "internal_error",
      message: "The service failed to produce a valid answer.",
    });
  });
});

describe("a store out of reach", () => {
  it("answers 503 service_unavailable with Retry-After, and serves again once it is back", async () => {
    let reachable = false;
    const flaky: RegistryStore = {
      ...store,
      listAgents: (limit) => (reachable ? store.listAgents(limit) : Promise.reject(new StoreUnavailable("database"))),
    };
    const { app: served } = await testApp(flaky);
    const down = await getChecked(served, "/api/agents");
    expect(down.status).toBe(503);
    expect(down.body.error).toBe("service_unavailable");
    expect(down.headers["retry-after"]).toBeDefined();
    reachable = true;
    expect((await getChecked(served, "/api/agents")).status).toBe(200);
  });
});

function fresh(name: string, createdAt: number) {
  return {
    name,
    assetAddress: "Gm8ZBzyKYoy8NaEp6D8WBHmu7i7HGeBGtZYNDmU8KZu5",
    ownerWallet: "GThUX1Atko4tqhN2NaiTazWSeFWMuiUvfFnyJyUghFMJ",
    description: "A passport minted after the seed.",
    createdAt,
  };
}
