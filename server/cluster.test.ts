// WORKERS=2 as a process: two workers serve both services, a worker killed with SIGKILL is replaced,
// SIGTERM to the primary stops every worker gracefully, and a worker that cannot start at the first
// start stops them all; once the service has served, replacements that die starting are replaced again.
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { freePort, runUntilExit, startService, until } from "../test/support/processes.js";

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

/**
 * The status of a GET on a fresh connection, bounded: a kept-alive connection the test's fetch reused
 * could belong to the worker it killed (in one full-suite run such a request waited, unanswered,
 * until the test's timeout).
 */
function statusOf(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent: false, timeout: 15_000 }, (response) => {
      response.resume().on("end", () => resolve(response.statusCode ?? 0));
    });
    request.on("timeout", () => request.destroy(new Error(`GET ${url}: no answer in 15 s`))).on("error", reject);
  });
}

/**
 * The service with WORKERS=2 once both workers serve (killed before that, a worker would stop them
 * all, as a start-up failure does): the service, the primary's pid and the workers'.
 */
async function twoServingWorkers() {
  const dir = mkdtempSync(join(tmpdir(), "cluster-"));
  const service = await startService(
    { WORKERS: "2", LOG_LEVEL: "info", LEDGER_DB: join(dir, "ledger.db"), REGISTRY_DB: join(dir, "registry.db") },
    120_000,
  );
  const primary = service.child.pid as number;
  const workers = await until(async () => {
    const pids = children(primary);
    if (pids.length !== 2 || !pids.every((pid) => serving(service.stdout()).includes(pid))) {
      throw new Error(`${pids.length} workers, serving: ${serving(service.stdout())}`);
    }
    return pids as [number, number];
  }, 60_000).catch((error) => {
    service.child.kill("SIGKILL");
    throw error;
  });
  return { service, primary, workers };
}

describe.skipIf(process.platform !== "linux")("WORKERS", () => {
  it("runs two workers of both services, replaces one that dies, and stops them all on SIGTERM", async () => {
    const { service, primary, workers } = await twoServingWorkers();
    try {
      const [first, second] = workers;
      expect(await statusOf(`${service.registryUrl}/api/agents?limit=1`)).toBe(200);

      process.kill(first, "SIGKILL");
      const replaced = await until(async () => {
        const workers = children(primary);
        if (workers.length !== 2 || workers.includes(first)) throw new Error(`workers: ${workers}`);
        return workers;
      }, 60_000);
      expect(replaced).toContain(second);
      expect(await statusOf(`${service.url}/`)).toBe(200);

      expect(await service.kill("SIGTERM")).toEqual({ code: 0, signal: null });
      expect(replaced.filter(alive)).toEqual([]);
    } finally {
      service.child.kill("SIGKILL");
    }
  }, 180_000);

  it("keeps serving once it has served: a replacement that dies while it starts is replaced again, later", async () => {
    const { service, primary, workers } = await twoServingWorkers();
    try {
      const [first, second] = workers;
      process.kill(first, "SIGKILL");

      // each replacement is killed as soon as it is forked, long before it could serve (the same failure
      // as one that cannot reach a database still away): before, that stopped the healthy worker too
      const gone = [first];
      const replacement = () => {
        const fresh = children(primary).find((pid) => pid !== second && !gone.includes(pid));
        if (!fresh) throw new Error(`no replacement yet; workers: ${children(primary)}`);
        return fresh;
      };
      for (let i = 0; i < 2; i++) {
        const starting = await until(async () => replacement(), 60_000, 10);
        process.kill(starting, "SIGKILL");
        gone.push(starting);
        expect(await statusOf(`${service.url}/`)).toBe(200);
        expect(await statusOf(`${service.registryUrl}/api/agents?limit=1`)).toBe(200);
      }

      const later = await until(async () => {
        const pid = replacement();
        if (!serving(service.stdout()).includes(pid)) throw new Error(`replacement ${pid} does not serve yet`);
        return pid;
      }, 120_000);
      expect(alive(second)).toBe(true);
      expect(serving(service.stdout()).filter((pid) => gone.slice(1).includes(pid))).toEqual([]);
      const failures = service
        .stdout()
        .split("\n")
        .filter((line) => line.includes("starting a replacement"))
        .map((line) => JSON.parse(line) as { level: number; worker: number; signal: string; msg: string });
      expect(failures).toEqual(
        gone.map((worker, i) =>
          expect.objectContaining({
            level: 50,
            worker,
            signal: "SIGKILL",
            msg:
              i === 0
                ? "a worker died; starting a replacement"
                : "a worker exited before it served; starting a replacement",
          }),
        ),
      );

      expect(await service.kill("SIGTERM")).toEqual({ code: 0, signal: null });
      expect([second, later].filter(alive)).toEqual([]);
    } finally {
      service.child.kill("SIGKILL");
    }
  }, 240_000);

  it("stops at the first start when no worker can start: exit 1 and the workers' line", async () => {
    const nothing = await freePort();
    const { code, stderr } = await runUntilExit({
      WORKERS: "2",
      DATABASE_URL: `postgres://postgres@127.0.0.1:${nothing}/nothing`,
      PORT: String(await freePort()),
      REGISTRY_PORT: String(await freePort()),
    });
    // each worker that got as far as saying why says the same
    expect([...new Set(stderr.trimEnd().split("\n"))]).toEqual([
      `failed to start: DATABASE_URL: the database cannot be reached (connect ECONNREFUSED 127.0.0.1:${nothing})`,
    ]);
    expect(code).toBe(1);
  }, 90_000);

  it("refuses a configuration that cannot work before it starts any worker: exit 2, one line", async () => {
    const service = startService({ WORKERS: "2", X402_PROFILE: "moon" }, 60_000);
    await expect(service).rejects.toThrow(
      /exited before it was ready \(\{"code":2,"signal":null\}\): X402_PROFILE must be testnet, mainnet; got "moon"\n$/,
    );
  });
});
