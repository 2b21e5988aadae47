// `npm start` as a process: both services come up on embedded defaults, with their operators' endpoints, and
// SIGTERM stops them cleanly.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startService, until } from "../test/support/processes.js";

describe("server/main.ts", () => {
  it("serves both services on embedded defaults and exits 0 on SIGTERM", async () => {
    const dir = mkdtempSync(join(tmpdir(), "main-"));
    const service = await startService({
      LEDGER_DB: join(dir, "ledger.db"),
      REGISTRY_DB: join(dir, "registry.db"),
      METRICS_TOKEN: "scrape-token",
    });
    try {
      const info = await (await fetch(`${service.url}/`)).json();
      expect(info).toMatchObject({ service: "defi-intel", endpoints: 28, settlement: "ledger", profile: "testnet" });
      const challenge = await fetch(`${service.url}/base/defi/tvl`, { method: "POST" });
      expect(challenge.status).toBe(402);
      const agents = (await until(async () => (await fetch(`${service.registryUrl}/api/agents?limit=2`)).json())) as {
        agents: unknown[];
      };
      expect(agents.agents).toHaveLength(2);
      // the operators' endpoints on both services: probes open, metrics behind the token
      for (const url of [service.url, service.registryUrl]) {
        const live = await fetch(`${url}/livez`);
        expect(live.status, url).toBe(200);
        // idle connections outlive undici's and a load balancer's idle timeouts, so that the client closes them first
        expect(live.headers.get("keep-alive"), url).toBe("timeout=65");
        expect(await (await fetch(`${url}/readyz`)).json(), url).toMatchObject({ status: "ready" });
        expect((await fetch(`${url}/metrics`)).status, url).toBe(401);
        const metrics = await fetch(`${url}/metrics`, { headers: { Authorization: "Bearer scrape-token" } });
        expect(await metrics.text(), url).toContain("# TYPE http_requests_total counter");
      }
    } finally {
      expect(await service.kill("SIGTERM")).toEqual({ code: 0, signal: null });
    }
  });

  it("names DATABASE_URL when the database is out of reach at start (exit 1: it may start once it is back)", async () => {
    await expect(startService({ DATABASE_URL: "postgres://postgres@127.0.0.1:1/test" })).rejects.toThrow(
      /\(\{"code":1,"signal":null\}\): failed to start: DATABASE_URL: the database cannot be reached \(.*ECONNREFUSED.*\)\n$/,
    );
  });
});
