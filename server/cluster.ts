/**
 * `WORKERS=N` (or `auto`, one per core): N worker processes of both services on one machine, with
 * node:cluster (the workers share the listening ports; the primary hands out connections). Until a
 * worker has served, one that exits (a configuration or start-up error) stops them all, as a single
 * process would. Once one has served, a worker that dies or a replacement that cannot start (a
 * database briefly away) is replaced again, each attempt waiting longer than the last, so that a
 * crash loop does not spin, while the others keep serving. SIGTERM or SIGINT to the primary stops
 * every worker the way a single process stops (in-flight requests finish, stores close), then the
 * primary.
 */
import cluster, { type Worker } from "node:cluster";
import type { Logger } from "pino";

/** What a worker sends the primary once both services listen. */
const READY = "defi-intel:serving";

/** The wait before a replacement: doubled after each one until one serves, to at most the longest. */
const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 30_000;

/** Tells the primary, if any, that this worker serves. */
export function announceServing(): void {
  process.send?.(READY);
}

export const isPrimaryOfCluster = (workers: number) => workers > 1 && cluster.isPrimary;

export function runWorkers(count: number, logger: Logger, { stopTimeoutMs = 15_000 } = {}): void {
  const alive = new Set<Worker>();
  const serving = new WeakSet<Worker>();
  let served = false;
  let retryMs = FIRST_RETRY_MS;
  let stopping = false;
  let exitCode = 0;

  const fork = () => {
    const worker = cluster.fork();
    alive.add(worker);
    worker.on("message", (message) => {
      if (message !== READY) return;
      serving.add(worker);
      served = true;
      retryMs = FIRST_RETRY_MS;
    });
  };

  const stop = (why: string, code: number) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    logger.info({ why, workers: alive.size }, "stopping every worker");
    for (const worker of alive) worker.process.kill("SIGTERM");
    setTimeout(() => {
      logger.error("workers did not stop in time");
      process.exit(1);
    }, stopTimeoutMs).unref();
    if (!alive.size) process.exit(exitCode);
  };

  cluster.on("exit", (worker, code, signal) => {
    alive.delete(worker);
    if (stopping) {
      if (!alive.size) {
        logger.flush();
        process.exit(exitCode);
      }
      return;
    }
    if (!served) {
      // its own line on stderr said why; a refusal (exit 2) stays one
      return stop("a worker failed to start", code === 2 ? 2 : 1);
    }
    // once the service has served, a failure may pass (a database briefly away): the other workers keep
    // serving, and the replacements wait longer each time so that a crash loop does not take the cores.
    // `worker`, not `pid`: every log line carries the primary's own pid
    const failure = serving.has(worker) ? "a worker died" : "a worker exited before it served";
    logger.error({ worker: worker.process.pid, code, signal, inMs: retryMs }, `${failure}; starting a replacement`);
    setTimeout(() => {
      if (!stopping) fork();
    }, retryMs);
    retryMs = Math.min(retryMs * 2, LONGEST_RETRY_MS);
  });
  for (let i = 0; i < count; i++) fork();
  logger.info({ workers: count }, "started workers");
  process.on("SIGTERM", () => stop("SIGTERM", 0));
  process.on("SIGINT", () => stop("SIGINT", 0));
}
