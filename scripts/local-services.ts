/**
 * Both services in this process on ephemeral loopback ports, on the embedded defaults, for the
 * demo and the client tests. `close()` stops the listeners, then the stores.
 */
import type { AddressInfo } from "node:net";
import type { LedgerStore } from "../server/analytics/payments/ledger/store.js";
import { createAnalyticsService } from "../server/analytics/service.js";
import { loadAnalyticsConfig } from "../server/config/analytics.js";
import { createLogger } from "../server/http/logger.js";
import { createRegistryService, registryConfig } from "../server/registry/service.js";

export interface LocalServices {
  analyticsUrl: string;
  registryUrl: string;
  ledger: LedgerStore;
  close(): Promise<void>;
}

interface Listening {
  url: string;
  stop(): Promise<void>;
}

function listen(app: {
  listen(port: number, host: string, cb: () => void): import("node:http").Server;
}): Promise<Listening> {
  return new Promise((resolve) => {
    const server = app.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        stop: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** `env` as the server reads it; `LEDGER_DB` and `REGISTRY_DB` default to `:memory:`. */
export async function startLocalServices(env: Record<string, string | undefined> = {}): Promise<LocalServices> {
  const settings = { LEDGER_DB: ":memory:", REGISTRY_DB: ":memory:", ...env };
  const logger = createLogger("silent");
  const analytics = await createAnalyticsService(loadAnalyticsConfig(settings), { logger });
  const registry = await createRegistryService({ ...registryConfig(settings), logger });
  const [a, r] = await Promise.all([listen(analytics.app), listen(registry.app)]);
  return {
    analyticsUrl: a.url,
    registryUrl: r.url,
    ledger: analytics.ledger,
    async close() {
      await Promise.all([a.stop(), r.stop()]);
      await analytics.close();
      await registry.close();
    },
  };
}
