/**
 * The in-process target (`CONFORMANCE_TARGET=server`): both services, and a degraded analytics service whose model
 * always fails, started in this process on ephemeral ports of 127.0.0.1, with their own response validation off so
 * that the suite's independent validator judges the raw answers. Imported only when that target is chosen.
 */
import { mkdtempSync } from "node:fs";
import type { Server } from "node:http";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAnalyticsService } from "../server/analytics/service.js";
import { loadAnalyticsConfig } from "../server/config/analytics.js";
import { createLogger } from "../server/http/logger.js";
import { createRegistryService } from "../server/registry/service.js";
import type { RunningTarget, ServiceChoice, Target } from "./targets.js";

function listen(app: {
  listen(port: number, host: string, cb: () => void): Server;
}): Promise<{ url: string; server: Server }> {
  return new Promise((resolve) => {
    const server = app.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve({ url: `http://127.0.0.1:${address && typeof address === "object" ? address.port : 0}`, server });
    });
  });
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** A chat-completions endpoint that always fails: the degraded service's model never answers. */
async function failingModel(): Promise<{ url: string; server: Server }> {
  const app = createServer((_req, res) =>
    res.writeHead(503, { "content-type": "application/json" }).end('{"error":"down"}'),
  );
  return listen(app);
}

/** The offline service environment: embedded providers and insight, in-memory ledger (a file for the main service), no response validation. */
const SERVICE_ENV = { LEDGER_DB: ":memory:", VALIDATE_RESPONSES: "false", NODE_ENV: "test" };

/** Starts the chosen in-process services on ephemeral ports of 127.0.0.1. */
export async function startServices(
  choice: ServiceChoice = { analytics: true, registry: true, degraded: true },
): Promise<RunningTarget> {
  const logger = createLogger("silent");
  const target: Target = { kind: "server" };
  const stops: (() => Promise<void>)[] = [];
  try {
    if (choice.analytics) {
      target.ledgerDb = join(mkdtempSync(join(tmpdir(), "conformance-")), "ledger.db");
      const service = await createAnalyticsService(
        loadAnalyticsConfig({ ...SERVICE_ENV, LEDGER_DB: target.ledgerDb }),
        { logger },
      );
      const { url, server } = await listen(service.app);
      target.analyticsUrl = url;
      stops.push(() => close(server).then(() => service.close()));
    }
    if (choice.degraded) {
      const model = await failingModel();
      const env = { ...SERVICE_ENV, INSIGHT_BASE_URL: model.url, INSIGHT_ATTEMPTS: "1", INSIGHT_TIMEOUT_MS: "2000" };
      const service = await createAnalyticsService(loadAnalyticsConfig(env), { logger });
      const { url, server } = await listen(service.app);
      target.degradedUrl = url;
      stops.push(() =>
        close(server)
          .then(() => service.close())
          .then(() => close(model.server)),
      );
    }
    if (choice.registry) {
      const service = await createRegistryService({ dbPath: ":memory:", validateResponses: false, logger });
      const { url, server } = await listen(service.app);
      target.registryUrl = url;
      stops.push(() => close(server).then(() => service.close()));
    }
  } catch (error) {
    await Promise.all(stops.map((stop) => stop()));
    throw error;
  }
  return { target, stop: async () => void (await Promise.all(stops.map((stop) => stop()))) };
}
