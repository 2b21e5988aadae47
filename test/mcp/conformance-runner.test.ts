// The MCP project's own conformance runner (`@modelcontextprotocol/conformance server` 0.2.0-alpha.12, which needs Node
// 22 or later: it runs on the Node that scripts/with-node.sh installs) against both services' `/mcp`, at MCP's current
// revision (2026-07-28) and at the 2025 era's last (2025-11-25), every scenario of the revision (`--suite all`), each
// with its committed baseline of what tests the reference server's own fixtures (conformance-baseline-<revision>.yml
// says which and why). Exit 0: every scenario and check that applies passes, and none of the baseline's has started
// passing; the scenarios the project promises are also read from the runner's own results.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
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

const REVISIONS = ["2026-07-28", "2025-11-25"] as const;
type Revision = (typeof REVISIONS)[number];

/** The scenarios that must pass whole, at each revision (every other one passes too, but for the baseline's). */
const PROMISED: Record<Revision, string[]> = {
  "2026-07-28": ["tools-list", "dns-rebinding-protection", "http-header-validation", "sep-2164-resource-not-found"],
  "2025-11-25": ["server-initialize", "ping", "tools-list", "dns-rebinding-protection"],
};

function conformance(url: string, revision: Revision): Promise<{ code: number | null; output: string; out: string }> {
  const out = mkdtempSync(join(tmpdir(), "mcp-conformance-"));
  const args = [
    NODE,
    "node",
    RUNNER,
    "server",
    "--url",
    url,
    "--suite",
    "all",
    "--spec-version",
    revision,
    "--expected-failures",
    `test/mcp/conformance-baseline-${revision}.yml`,
    "-o",
    out,
  ];
  const child = spawn("scripts/with-node.sh", args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, output, out })));
}

/** The status of each check of `scenario` in the runner's results. */
function checksOf(out: string, scenario: string): Map<string, string> {
  const dir = readdirSync(out).find((name) => name.startsWith(`server-${scenario}-`));
  if (!dir) throw new Error(`the runner wrote no results for ${scenario}`);
  const checks = JSON.parse(readFileSync(join(out, dir, "checks.json"), "utf8")) as { id: string; status: string }[];
  return new Map(checks.map((check) => [check.id, check.status]));
}

describe("@modelcontextprotocol/conformance server", () => {
  for (const service of ["analytics", "registry"] as const)
    for (const revision of REVISIONS)
      it(`passes every scenario that applies to the ${service} service's /mcp at ${revision}`, async () => {
        const origin = service === "analytics" ? analytics.origin : registry.origin;
        // as a client names a local server: the endpoint answers its loopback names only
        const { code, output, out } = await conformance(`${origin.replace("127.0.0.1", "localhost")}/mcp`, revision);
        expect(code, output.slice(-4000)).toBe(0);
        for (const scenario of PROMISED[revision])
          expect(output).toMatch(new RegExp(`${scenario}: [1-9]\\d* passed, 0 failed`));
        if (revision !== "2026-07-28") return;
        // the current revision's statelessness and caching: every check but the baseline's few passes
        const stateless = checksOf(out, "server-stateless");
        for (const id of ["sep-2575-server-implements-discover", "sep-2575-http-server-header-mismatch-400"])
          expect(stateless.get(id), id).toBe("SUCCESS");
        const caching = checksOf(out, "caching");
        for (const id of [
          "sep-2549-tools-list-caching-hints",
          "sep-2549-ttl-non-negative",
          "sep-2549-cache-scope-valid",
        ])
          expect(caching.get(id), id).toBe("SUCCESS");
      }, 240_000);
});
