// WORKERS=2 as a process: two workers serve both services, a worker killed with SIGKILL is replaced,
// SIGTERM to the primary stops every worker gracefully, and a worker that cannot start stops them all.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startService, until } from "../test/support/processes.js";

/** The live child processes of `pid` (Linux). */
function children(pid: number): number[] {
  const file = `/proc/${pid}/task/${pid}/children`;
  return existsSync(file) ? readFileSync(file, "utf8").trim().split(/\s+/).filter(Boolean).map(Number) : [];
}
const alive = (pid: number) => existsSync(`/proc/${pid}`);

/** The workers that logged that both their services listen (and so have told the primary they serve). */
function serving(log: string): number[] {
  const lines = log.split("\n").filter((line) => line.includes('"registry listening"'));
  return lines.map((line) => (JSON.parse(line) as { pid: number }).pid);
}

describe.skipIf(process.platform !== "linux")("WORKERS", () => {
  it("runs two workers of both services, replaces one that dies, and stops them all on SIGTERM", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cluster-"));
    const service = await startService(
      { WORKERS: "2", LOG_LEVEL: "info", LEDGER_DB: join(dir, "ledger.db"), REGISTRY_DB: join(dir, "registry.db") },
      120_000,
    );
    const primary = service.child.pid as number;
    try {
      // killed before it served, a worker would stop them all, as a start-up failure does
      const [first, second] = await until(async () => {
        const workers = children(primary);
        if (workers.length !== 2 || !workers.every((pid) => serving(service.stdout()).includes(pid))) {
          throw new Error(`${workers.length} workers, serving: ${serving(service.stdout())}`);
        }
        return workers as [number, number];
      }, 60_000);
      expect((await fetch(`${service.registryUrl}/api/agents?limit=1`)).status).toBe(200);

      process.kill(first, "SIGKILL");
      const replaced = await until(async () => {
        const workers = children(primary);
        if (workers.length !== 2 || workers.includes(first)) throw new Error(`workers: ${workers}`);
        return workers;
      }, 60_000);
      expect(replaced).toContain(second);
      expect((await fetch(`${service.url}/`)).status).toBe(200);

      expect(await service.kill("SIGTERM")).toEqual({ code: 0, signal: null });
      expect(replaced.filter(alive)).toEqual([]);
    } finally {
      service.child.kill("SIGKILL");
    }
  }, 180_000);

  it("refuses a configuration that cannot work before it starts any worker: exit 2, one line", async () => {
    const service = startService({ WORKERS: "2", X402_PROFILE: "moon" }, 60_000);
    await expect(service).rejects.toThrow(
      /exited before it was ready \(\{"code":2,"signal":null\}\): X402_PROFILE must be testnet, mainnet; got "moon"\n$/,
    );
  });
});
