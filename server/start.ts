/**
 * Both services started from a configuration already read: the primary of a cluster probes the ports and forks its
 * workers; a single process (or a worker) opens the stores, builds both services and listens. SIGTERM and SIGINT stop
 * accepting connections, let requests in flight finish (as long as a paid request may take: `drainMs`), then close
 * the stores. Loaded by main.ts once the configuration passed, so that a refusal waits for none of this.
 */
import type { Server } from "node:http";
import { createServer } from "node:net";
import { logDevelopmentKey, pemOf } from "./analytics/payments/x402/receipts/key.js";
import { createAnalyticsService } from "./analytics/service.js";
import { announceServing, isPrimaryOfCluster, runWorkers } from "./cluster.js";
import { ConfigError, drainMs, type ServiceConfig } from "./config/index.js";
import { openDatabase } from "./db/database.js";
import { createLogger } from "./http/logger.js";
import { exitProcess } from "./process-exit.js";
import { createRegistryService } from "./registry/service.js";

function portError(error: NodeJS.ErrnoException, port: number, variable: string): Error {
  if (error.code === "EADDRINUSE")
    return new ConfigError(
      `${variable} ${port} is already in use; stop what holds it or set ${variable} to a free port`,
    );
  if (error.code === "EACCES")
    return new ConfigError(`${variable} ${port} needs privileges this process lacks; set ${variable} above 1023`);
  return error;
}

/**
 * How long an idle keep-alive connection stays open: longer than a client's or a proxy's own idle timeout (undici's,
 * a load balancer's 60 s), so that the client closes it first. A server that closes first races the next request sent
 * on the closing socket, which its client sees as a connection reset, never as an answer.
 */
const KEEP_ALIVE_MS = 65_000;

function listen(app: { listen(port: number): Server }, port: number, variable: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port);
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    server.headersTimeout = KEEP_ALIVE_MS + 1_000;
    server.once("listening", () => resolve(server));
    server.once("error", (error: NodeJS.ErrnoException) => reject(portError(error, port, variable)));
  });
}

/**
 * Stops accepting connections and resolves once every request in flight is answered. Idle keep-alive connections
 * (kept `KEEP_ALIVE_MS` otherwise) are closed at once, and each busy one as soon as its last answer is sent.
 */
function closeWhenDrained(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    idle.unref();
    server.close(() => {
      clearInterval(idle);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** Whether a port can be listened on, tried (and let go) before workers are forked, so that one line names a taken port. */
function probePort(port: number, variable: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => reject(portError(error, port, variable)));
    probe.listen(port, () => probe.close(() => resolve()));
  });
}

async function serve(config: ServiceConfig) {
  const logger = createLogger(config.logLevel);
  const database = config.stores.database && openDatabase(config.stores.database, logger);
  const { operations, stores } = config;
  const analytics = await createAnalyticsService(config.analytics, { logger, stores, database, operations });
  const registry = await createRegistryService({ ...config.registry, database, logger, operations });
  const closeStores = () => Promise.all([analytics.close(), registry.close()]).then(() => database?.close());
  const servers = await Promise.all([
    listen(analytics.app, config.analytics.port, "PORT"),
    listen(registry.app, config.registry.port, "REGISTRY_PORT"),
  ]).catch(async (error) => {
    await closeStores();
    throw error;
  });
  for (const [name, server] of [
    ["analytics", servers[0]],
    ["registry", servers[1]],
  ] as const) {
    const address = server.address();
    logger.info({ port: typeof address === "object" && address ? address.port : address }, `${name} listening`);
  }
  announceServing();
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    const waitMs = drainMs(config);
    logger.info({ signal, waitMs }, "shutting down");
    const force = setTimeout(() => {
      logger.error({ waitMs }, "requests still in flight at the end of the shutdown wait; exiting");
      logger.flush();
      void exitProcess(1);
    }, waitMs);
    force.unref();
    Promise.all(servers.map(closeWhenDrained))
      .then(closeStores)
      .then(() => {
        logger.flush();
        return exitProcess(0);
      });
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

export async function start(config: ServiceConfig) {
  if (!isPrimaryOfCluster(config.stores.workers)) return serve(config);
  await probePort(config.analytics.port, "PORT");
  await probePort(config.registry.port, "REGISTRY_PORT");
  const logger = createLogger(config.logLevel);
  // One development receipt key for every worker (they inherit this environment), said once here.
  const receipts = config.analytics.receipts;
  if (receipts?.development) {
    process.env.RECEIPT_SIGNING_KEY = pemOf(receipts);
    logDevelopmentKey(logger, receipts);
  }
  // the primary outwaits its workers' own shutdown wait
  runWorkers(config.stores.workers, logger, { stopTimeoutMs: drainMs(config) + 5_000 });
}
