// The MCP project's own conformance runner (`@modelcontextprotocol/conformance server`, which needs Node 22 or later:
// it runs on the Node that scripts/with-node.sh installs) against both services' `/mcp`, with the committed baseline
// of the scenarios that do not apply (conformance-baseline.yml says which and why). Exit 0: every scenario that
// applies passes, DNS-rebinding protection included, and none of the baseline's has started passing.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAnalyticsService } from "../../server/analytics/service.js";
import { loadAnalyticsConfig } from "../../server/config/analytics.js";
import { createLogger } from "../../server/http/logger.js";
import { testApp } from "../support/registry.js";
import { listen, type Running } from "../support/x402-clients.js";

const NODE = "24.21.0";
const RUNNER = "node_modules/@modelcontextprotocol/conformance/dist/index.js";
let analytics: Running;
let registry: { origin: string; close(): Promise<void> };

beforeAll(async () => {
  const started = await createAnalyticsService(loadAnalyticsConfig({ LEDGER_DB: ":memory:" }), {
    logger: createLogger("silent"),
  });
  analytics = await listen(started.app, started.ledger, started.close);
  const { app, store } = await testApp();
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  registry = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await store.close();
    },
  };
});
afterAll(async () => {
  await analytics?.close();
  await registry?.close();
});

function conformance(url: string): Promise<{ code: number | null; output: string }> {
  const out = mkdtempSync(join(tmpdir(), "mcp-conformance-"));
  const args = [
    NODE,
    "node",
    RUNNER,
    "server",
    "--url",
    url,
    "--expected-failures",
    "test/mcp/conformance-baseline.yml",
    "-o",
    out,
  ];
  const child = spawn("scripts/with-node.sh", args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, output })));
}

describe("@modelcontextprotocol/conformance server", () => {
  for (const service of ["analytics", "registry"] as const)
    it(`passes every scenario that applies to the ${service} service's /mcp`, async () => {
      const origin = service === "analytics" ? analytics.origin : registry.origin;
      // as a client names a local server: the endpoint answers its loopback names only
      const { code, output } = await conformance(`${origin.replace("127.0.0.1", "localhost")}/mcp`);
      expect(code, output.slice(-4000)).toBe(0);
      expect(output).toMatch(/dns-rebinding-protection: [1-9]\d* passed, 0 failed/);
      for (const scenario of ["server-initialize", "ping", "tools-list"])
        expect(output).toMatch(new RegExp(`${scenario}: 1 passed, 0 failed`));
    }, 180_000);
});
