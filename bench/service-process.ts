/** The analytics service alone, as a benchmark target (production settings: no response validation). */

import { createAnalyticsService } from "../server/analytics/service.js";
import { createLogger } from "../server/http/logger.js";

const logger = createLogger(process.env.LOG_LEVEL);
const service = await createAnalyticsService(process.env, { logger });
const server = service.app.listen(Number(process.env.PORT), "127.0.0.1");
process.on("SIGTERM", () => server.close(() => service.close().then(() => process.exit(0))));
