/**
 * The analytics service alone, as a benchmark target (production settings: no response validation);
 * with `WORKERS`, that many worker processes of it, as `npm start` runs them.
 */

import { createAnalyticsService } from "../server/analytics/service.js";
import { announceServing, isPrimaryOfCluster, runWorkers } from "../server/cluster.js";
import { storeSettings } from "../server/config/stores.js";
import { createLogger } from "../server/http/logger.js";

const logger = createLogger(process.env.LOG_LEVEL);
const stores = storeSettings(process.env);
if (isPrimaryOfCluster(stores.workers)) runWorkers(stores.workers, logger);
else {
  const service = await createAnalyticsService(process.env, { logger, stores });
  const server = service.app.listen(Number(process.env.PORT), "127.0.0.1", announceServing);
  process.on("SIGTERM", () => server.close(() => service.close().then(() => process.exit(0))));
}
