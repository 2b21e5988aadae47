/**
 * `npm start`: the analytics service on PORT (default 4021) and the registry on REGISTRY_PORT
 * (default 4022), on embedded defaults; with `DATABASE_URL` both keep their state in PostgreSQL
 * (one pool per process), and with `WORKERS` (cluster.ts) N processes serve them. SIGTERM and SIGINT
 * stop accepting connections, let requests in flight finish, then close the stores.
 */
import type { Server } from "node:http";
import { createAnalyticsService } from "./analytics/service.js";
import { announceServing, isPrimaryOfCluster, runWorkers } from "./cluster.js";
import { type StoreSettings, storeSettings } from "./config/stores.js";
import { openDatabase } from "./db/database.js";
import { createLogger } from "./http/logger.js";
import { createRegistryService, registryConfig } from "./registry/service.js";

const logger = createLogger();

function listen(app: { listen(port: number, cb: () => void): Server }, port: number, name: string): Promise<Server> {
  return new Promise((resolve) => {
    const server = app.listen(port, () => {
      logger.info({ port }, `${name} listening on http://localhost:${port}`);
      resolve(server);
    });
  });
}

async function main(stores: StoreSettings) {
  const database = stores.database && openDatabase(stores.database, logger);
  const analytics = await createAnalyticsService(process.env, { logger, stores, database });
  const registrySettings = registryConfig(process.env);
  const registry = await createRegistryService({ ...registrySettings, database, logger });
  const servers = await Promise.all([
    listen(analytics.app, Number(process.env.PORT ?? 4021), "analytics"),
    listen(registry.app, registrySettings.port, "registry"),
  ]);
  announceServing();
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
      .then(() => Promise.all([analytics.close(), registry.close()]))
      .then(() => database?.close())
      .then(() => {
        logger.flush();
        process.exit(0);
      });
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

function start() {
  const stores = storeSettings(process.env);
  if (isPrimaryOfCluster(stores.workers)) runWorkers(stores.workers, logger);
  else return main(stores);
}

Promise.resolve()
  .then(start)
  .catch((error) => {
    logger.fatal({ err: error }, "failed to start");
    logger.flush();
    process.exit(1);
  });
