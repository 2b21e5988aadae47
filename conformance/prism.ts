/**
 * Prism mock processes: Prism's own command (`prism mock`) started by this Node directly (never through npx, whose
 * wrapper PID does not own the server), ready when it answers any request, stopped by its own PID. The command is
 * found by resolving the package, so that it is found wherever it is installed (here, or beside the mock package).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const PRISM_PACKAGE = createRequire(import.meta.url).resolve("@stoplight/prism-cli/package.json");
const PRISM = join(dirname(PRISM_PACKAGE), "dist/index.js");
const STOP_GRACE_MS = 5_000;

export interface PrismProcess {
  url: string;
  pid: number;
  /** Settles when the process exits, with its exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/** A port nobody listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() =>
        address && typeof address === "object" ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

/** Fails when something already listens on the port: its answers would pass for Prism's. */
function assertPortFree(port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (error) =>
      reject(new Error(`cannot start Prism on ${host}:${port}: ${(error as NodeJS.ErrnoException).code}`)),
    );
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

/** Polls `url` until anything answers; fails early if the process exits (e.g. EADDRINUSE). */
async function waitUntilAnswering(
  url: string,
  child: ChildProcess,
  output: () => string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`Prism exited before answering on ${url}:\n${output()}`);
    try {
      await fetch(`${url}/__conformance_ready__`, { signal: AbortSignal.timeout(1_000) });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`Prism did not answer on ${url} within ${timeoutMs} ms:\n${output()}`);
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), STOP_GRACE_MS);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** Starts `prism mock` on one document; `echo` streams its log to this process's stderr. */
export async function startPrism(
  document: string,
  port: number,
  { host = "127.0.0.1", timeoutMs = 120_000, echo = false }: { host?: string; timeoutMs?: number; echo?: boolean } = {},
): Promise<PrismProcess> {
  await assertPortFree(port, host);
  const child = spawn(process.execPath, [PRISM, "mock", "-h", host, "-p", String(port), document], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (child.pid === undefined) throw new Error(`could not start ${PRISM}`);
  let log = "";
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4_000);
    if (echo) process.stderr.write(chunk);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const url = `http://${host}:${port}`;
  const pid = child.pid;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  try {
    await waitUntilAnswering(url, child, () => log, timeoutMs);
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  return { url, pid, exited, stop: () => stopProcess(child) };
}

export const documentPath = (service: "analytics" | "registry") =>
  fileURLToPath(new URL(`../generated/openapi/3.1/${service}.json`, import.meta.url));
