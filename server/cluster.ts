/**
 * `WORKERS=N` (or `auto`, one per core): N worker processes of both services on one machine, with
 * node:cluster (the workers share the listening ports; the primary hands out connections). A worker
 * that dies is replaced; one that exits before it served (a configuration or start-up error) stops
 * them all, as a single process would. SIGTERM or SIGINT to the primary stops every worker the way
 * a single process stops (in-flight requests finish, stores close), then the primary.
 */
import cluster, { type Worker } from "node:cluster";
import type { Logger } from "pino";

/** What a worker sends the primary once both services listen. */
const READY = "defi-intel:serving";

/** Tells the primary, if any, that this worker serves. */
export function announceServing(): void {
  process.send?.(READY);
}

export const isPrimaryOfCluster = (workers: number) => workers > 1 && cluster.isPrimary;

export function runWorkers(count: number, logger: Logger, { stopTimeoutMs = 15_000 } = {}): void {
  const alive = new Set<Worker>();
  const serving = new WeakSet<Worker>();
  let stopping = false;
  let exitCode = 0;

  const fork = () => {
    const worker = cluster.fork();
    alive.add(worker);
    worker.on("message", (message) => {
      if (message === READY) serving.add(worker);
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
    if (!serving.has(worker)) {
      // its own line on stderr said why; a refusal (exit 2) stays one
      return stop("a worker failed to start", code === 2 ? 2 : 1);
    }
    // `worker`, not `pid`: every log line carries the primary's own pid
    logger.error({ worker: worker.process.pid, code, signal }, "a worker died; starting a replacement");
    fork();
  });
  for (let i = 0; i < count; i++) fork();
  logger.info({ workers: count }, "started workers");
  process.on("SIGTERM", () => stop("SIGTERM", 0));
  process.on("SIGINT", () => stop("SIGINT", 0));
}
