/**
 * The benchmark's servers, each in its own process so that the load generator (this process) and
 * the server under test do not share a core: the analytics service on embedded defaults, bare
 * node:http and bare Express answering a fixed body, and the Prism mock.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { BareKind } from "./bare-process.js";
import { processCpuSeconds } from "./process-cpu.js";

export interface ServerProcess {
  url: string;
  pid: number;
  /** Peak resident set size so far, in MiB (VmHWM). */
  peakRssMiB(): number;
  /**
   * CPU seconds the process has used: the service's own `process.cpuUsage` (read from its /metrics), the other
   * servers' from /proc; none for the service's `WORKERS`, several processes.
   */
  cpuSeconds?(): Promise<number | undefined>;
  stop(): Promise<void>;
}

const root = fileURLToPath(new URL("..", import.meta.url));

async function waitFor(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited with ${child.exitCode}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`${url} did not come up in ${timeoutMs} ms`);
}

function start(args: string[], env: Record<string, string>, port: number, probePath = "/"): Promise<ServerProcess> {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  return waitFor(`${url}${probePath}`, child).then(() => ({
    url,
    pid: child.pid as number,
    peakRssMiB: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
      return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
    },
    cpuSeconds: async () => processCpuSeconds(child.pid as number),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  }));
}

/** The analytics service; with `profileDir`, a V8 CPU profile of its whole run is written there when it stops. */
export function startService(port: number, env: Record<string, string>, profileDir?: string): Promise<ServerProcess> {
  const profile = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  return start(
    [...profile, "--import", "tsx", "bench/service-process.ts"],
    { PORT: String(port), NODE_ENV: "production", LOG_LEVEL: "info", ...env },
    port,
  ).then((service) => ({
    ...service,
    // its own count (every thread of it); for WORKERS, /proc's would be the primary's alone, not its workers'
    cpuSeconds: env.WORKERS ? undefined : () => cpuSecondsOf(service.url),
  }));
}

/** prom-client's `process_cpu_seconds_total` (user + system, from `process.cpuUsage`) in the service's /metrics. */
async function cpuSecondsOf(url: string): Promise<number> {
  // once more on failure: a pooled connection idle past the server's keep-alive timeout can be closed as it is reused
  const text = await fetch(`${url}/metrics`)
    .catch(() => fetch(`${url}/metrics`))
    .then((res) => res.text());
  const sample = /^process_cpu_seconds_total (\S+)$/m.exec(text);
  if (!sample) throw new Error(`${url}/metrics has no process_cpu_seconds_total`);
  return Number(sample[1]);
}

/** A bare server answering `bodyFile`; "validated" serves it at `path` only, behind the contract's validator (a GET there is a 405). */
export function startBare(kind: BareKind, port: number, bodyFile: string, path = "/"): Promise<ServerProcess> {
  return start(
    ["--import", "tsx", "bench/bare-process.ts"],
    { PORT: String(port), BARE_KIND: kind, BODY_FILE: bodyFile, VALIDATED_PATH: path },
    port,
    path,
  );
}

export function startPrism(port: number): Promise<ServerProcess> {
  return start(
    [
      `${root}node_modules/@stoplight/prism-cli/dist/index.js`,
      "mock",
      "-h",
      "127.0.0.1",
      "-p",
      String(port),
      "--errors",
      "false",
      "generated/openapi/3.1/analytics.json",
    ],
    {},
    port,
    "/",
  );
}
