/**
 * The services as real processes (`node --import tsx server/main.ts`, what `npm start` runs), for
 * tests that start them, stop them, or kill them.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Retries `probe` until it resolves or `timeoutMs` passes (then its last error is thrown). */
export async function until<T>(probe: () => Promise<T>, timeoutMs = 45_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await probe();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  }
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/** The first port of the kernel's ephemeral range (what outgoing connections and `listen(0)` use). */
function ephemeralStart(): number {
  try {
    return Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
}

const LOWEST = 10_000;

/**
 * A port nothing listens on, for a process started later to listen on. Picked below the ephemeral
 * range: a port that `listen(0)` handed out is free only until the next outgoing connection takes
 * it, and the other test files open thousands while a child process starts.
 */
export async function freePort(): Promise<number> {
  const below = ephemeralStart();
  for (let tries = 0; below > LOWEST + 1_000 && tries < 50; tries += 1) {
    const port = LOWEST + Math.floor(Math.random() * (below - LOWEST));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port found between ${LOWEST} and ${below}`);
}

/** `path` (absolute, or a `file:` URL) as a quoted specifier, for an import in `runModule`'s source. */
export const specifier = (path: string | URL) =>
  JSON.stringify(pathToFileURL(path instanceof URL ? fileURLToPath(path) : path).href);

/**
 * Runs `source`, an ES module, in a Node process of its own, from this repository (where `--import tsx` resolves
 * TypeScript), killed after 30 s: its exit status, its output trimmed, and its error output.
 */
export function runModule(source: string): { status: number | null; stdout: string; stderr: string } {
  const script = join(mkdtempSync(join(tmpdir(), "module-")), "script.mjs");
  writeFileSync(script, source);
  const child = spawnSync(process.execPath, ["--import", "tsx", script], {
    encoding: "utf8",
    timeout: 30_000,
    cwd: ROOT,
  });
  return { status: child.status, stdout: child.stdout.trim(), stderr: child.stderr };
}

/** Runs `server/main.ts` with `env` until it exits (it is killed after `timeoutMs`): its exit code and stderr. */
export async function runUntilExit(
  env: Record<string, string | undefined>,
  timeoutMs = 60_000,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once("exit", (exitCode) => resolve(exitCode)));
  clearTimeout(timer);
  return { code, stderr };
}

export interface ServiceProcess {
  /** The analytics service's base URL. */
  url: string;
  registryUrl: string;
  child: ChildProcess;
  /** Resolves with the exit code (null after a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What the process wrote to stdout (its log lines) and stderr so far. */
  stdout(): string;
  stderr(): string;
  kill(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `server/main.ts` with `env` on free ports and waits until the analytics service answers
 * `GET /` and the registry `GET /livez`; started again on other ports when another test's process
 * took one of them first.
 */
export async function startService(env: Record<string, string | undefined>, readyMs = 60_000): Promise<ServiceProcess> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await launch(env, readyMs);
    } catch (error) {
      if (attempt === 3 || !String(error).includes("is already in use")) throw error;
    }
  }
}

async function launch(env: Record<string, string | undefined>, readyMs: number): Promise<ServiceProcess> {
  const [port, registryPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "warn", ...env, PORT: String(port), REGISTRY_PORT: String(registryPort) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk) => {
    stdout += String(chunk);
  });
  child.stderr?.on("data", (chunk) => {
    stderr += String(chunk);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  const running: ServiceProcess = {
    url,
    registryUrl: `http://127.0.0.1:${registryPort}`,
    child,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    kill: (signal = "SIGTERM") => {
      child.kill(signal);
      return exited;
    },
  };
  const died = exited.then((e) => {
    throw new Error(`the service exited before it was ready (${JSON.stringify(e)}): ${stderr}`);
  });
  const ready = until(async () => {
    for (const probe of [`${url}/`, `${running.registryUrl}/livez`]) {
      const res = await fetch(probe);
      if (!res.ok) throw new Error(`GET ${probe} answered ${res.status}`);
    }
  }, readyMs);
  await Promise.race([ready, died]).catch((error) => {
    child.kill("SIGKILL");
    throw error;
  });
  died.catch(() => {});
  return running;
}
