/**
 * `npm start`: the analytics service on PORT (default 4021) and the registry on REGISTRY_PORT
 * (default 4022), on embedded defaults; with `DATABASE_URL` both keep their state in PostgreSQL
 * (one pool per process), and with `WORKERS` (cluster.ts) N processes serve them. The
 * configuration is read once, first: a value that cannot work, or a port already taken, stops the
 * process with one plain line naming the variable and exit code 2. SIGTERM and SIGINT stop
 * accepting connections, let requests in flight finish (as long as a paid request may take:
 * `drainMs`), then close the stores.
 */
import type { Server } from "node:http";
import { createServer } from "node:net";
// The command-line contract every command of the README and docs/ keeps (`--help`; an unknown argument exits 2 before anything runs).
import { commandLine } from "../lib/command-line.mjs";
import { createAnalyticsService } from "./analytics/service.js";
import { announceServing, isPrimaryOfCluster, runWorkers } from "./cluster.js";
import { ConfigError, drainMs, loadServiceConfig, type ServiceConfig } from "./config/index.js";
import { openDatabase } from "./db/database.js";
import { StoreUnavailable } from "./db/unavailable.js";
import { createLogger } from "./http/logger.js";
import { exitProcess } from "./process-exit.js";
import { createRegistryService } from "./registry/service.js";

const USAGE = `usage: npm start

The analytics service on PORT (4021) and the agent registry on REGISTRY_PORT (4022), configured by environment
variables only (docs/configuration.md lists them): on embedded SQLite and memory by default; with DATABASE_URL
and CACHE_URL on PostgreSQL and Redis; with WORKERS=N (or auto) as N processes. A setting that cannot work stops it
with one line naming the variable (exit 2). SIGTERM or SIGINT stops it gracefully.

  --help   this text`;

/** A refusal to start: one line on stderr, exit code 2 (never a JSON log line with a stack). */
function refuse(line: string): never {
  process.stderr.write(`${line}\n`);
  process.exit(2);
}

function portError(error: NodeJS.ErrnoException, port: number, variable: string): Error {
  if (error.code === "EADDRINUSE")
    return new ConfigError(`${variable} ${port} is already in use; stop what holds it or set ${variable} to a free port`);
  if (error.code === "EACCES")
    return new ConfigError(`${variable} ${port} needs privileges this process lacks; set ${variable} above 1023`);
  return error;
}

function listen(app: { listen(port: number): Server }, port: number, variable: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port);
    server.once("listening", () => resolve(server));
    server.once("error", (error: NodeJS.ErrnoException) => reject(portError(error, port, variable)));
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
    Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
      .then(closeStores)
      .then(() => {
        logger.flush();
        return exitProcess(0);
      });
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

async function start(config: ServiceConfig) {
  if (!isPrimaryOfCluster(config.stores.workers)) return serve(config);
  await probePort(config.analytics.port, "PORT");
  await probePort(config.registry.port, "REGISTRY_PORT");
  // the primary outwaits its workers' own shutdown wait
  runWorkers(config.stores.workers, createLogger(config.logLevel), { stopTimeoutMs: drainMs(config) + 5_000 });
}

commandLine(USAGE);
let config: ServiceConfig;
try {
  config = loadServiceConfig(process.env);
} catch (error) {
  if (error instanceof ConfigError) refuse(error.message);
  throw error;
}
start(config).catch((error) => {
  if (error instanceof ConfigError) refuse(error.message);
  // Anything else that stops the start (a facilitator that does not answer, a database out of reach): one line too,
  // naming the variable when a store is what failed; exit 1, as it may start once that is back.
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof StoreUnavailable && error.cause instanceof Error ? ` (${error.cause.message})` : "";
  process.stderr.write(`failed to start: ${error instanceof StoreUnavailable ? `DATABASE_URL: ${message}${cause}` : message}\n`);
  process.exit(1);
});
