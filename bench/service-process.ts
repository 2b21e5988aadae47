/**
 * The analytics service alone, as a benchmark target (production settings: no response validation);
 * with `WORKERS`, that many worker processes of it, as `npm start` runs them.
 */
import { createAnalyticsService } from "../server/analytics/service.js";
import { announceServing, isPrimaryOfCluster, runWorkers } from "../server/cluster.js";
import { loadServiceConfig } from "../server/config/index.js";
import { createLogger } from "../server/http/logger.js";
import { exitProcess } from "../server/process-exit.js";

const config = loadServiceConfig(process.env);
const logger = createLogger(config.logLevel);
if (isPrimaryOfCluster(config.stores.workers)) runWorkers(config.stores.workers, logger);
else {
  const service = await createAnalyticsService(config.analytics, { logger, stores: config.stores });
  const server = service.app.listen(config.analytics.port, "127.0.0.1", announceServing);
  process.on("SIGTERM", () => server.close(() => service.close().then(() => exitProcess(0))));
}
