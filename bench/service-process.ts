/** The analytics service alone, as a benchmark target (production settings: no response validation). */
import { createAnalyticsService } from "../server/analytics/service.js";
import { loadServiceConfig } from "../server/config/index.js";
import { createLogger } from "../server/http/logger.js";

const config = loadServiceConfig(process.env);
const service = await createAnalyticsService(config.analytics, { logger: createLogger(config.logLevel) });
const server = service.app.listen(config.analytics.port, "127.0.0.1");
process.on("SIGTERM", () => server.close(() => service.close().then(() => process.exit(0))));
