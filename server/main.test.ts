// `npm start` as a process: both services come up on embedded defaults and SIGTERM stops them cleanly.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

async function until<T>(probe: () => Promise<T>, timeoutMs = 45_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await probe();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

describe("server/main.ts", () => {
  it("serves both services on embedded defaults and exits 0 on SIGTERM", async () => {
    const dir = mkdtempSync(join(tmpdir(), "main-"));
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
      env: {
        ...process.env,
        PORT: String(port),
        REGISTRY_PORT: String(port + 1),
        LEDGER_DB: join(dir, "ledger.db"),
        REGISTRY_DB: join(dir, "registry.db"),
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "ignore", "pipe"],
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    try {
      const info = await until(async () => (await fetch(`http://127.0.0.1:${port}/`)).json());
      expect(info).toMatchObject({ service: "defi-intel", endpoints: 28, settlement: "ledger", profile: "testnet" });
      const challenge = await fetch(`http://127.0.0.1:${port}/base/defi/tvl`, { method: "POST" });
      expect(challenge.status).toBe(402);
      const agents = (await until(async () => (await fetch(`http://127.0.0.1:${port + 1}/api/agents?limit=2`)).json())) as {
        agents: unknown[];
      };
      expect(agents.agents).toHaveLength(2);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  });
});
