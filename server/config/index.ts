/**
 * The whole configuration of `npm start`, read once from the environment before anything starts:
 * the log level, the analytics service's settings and the registry's. Any value that cannot work
 * is a `ConfigError` whose message is the one line the process prints before it exits with code 2.
 */
import type { LevelWithSilent } from "pino";
import { type AnalyticsConfig, loadAnalyticsConfig } from "./analytics.js";
import { ConfigError, type Env, oneOf } from "./env.js";
import { type OperationsConfig, operationsConfig } from "./operations.js";
import { type RegistryConfig, registryConfig } from "./registry.js";
import { type StoreSettings, storeSettings } from "./store-settings.js";

export { ConfigError };

export interface ServiceConfig {
  logLevel: LevelWithSilent;
  analytics: AnalyticsConfig;
  registry: RegistryConfig;
  /** Where the ledger, the registry and the cache live, and how many worker processes serve. */
  stores: StoreSettings;
  /** The operators' endpoints of both services: the metrics token, the readiness bound. */
  operations: OperationsConfig;
}

const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

export function loadServiceConfig(env: Env): ServiceConfig {
  const config = {
    logLevel: oneOf(env, "LOG_LEVEL", LEVELS, "info"),
    analytics: loadAnalyticsConfig(env),
    registry: registryConfig(env),
    stores: storeSettings(env),
    operations: operationsConfig(env),
  };
  if (config.analytics.port === config.registry.port)
    throw new ConfigError(`PORT and REGISTRY_PORT must differ; both are ${config.analytics.port}`);
  // Replays are refused by the ledger the workers share; an in-memory ledger is one per process.
  if (config.stores.workers > 1 && !config.stores.database && config.analytics.ledger.path === ":memory:")
    throw new ConfigError(
      `WORKERS=${config.stores.workers} needs a ledger the workers share; LEDGER_DB=:memory: gives each its own`,
    );
  return config;
}

/**
 * How long a stopping process waits for the requests in flight: the longest a paid request may
 * take (its answer's deadline, then settlement's own timeout) and a margin. Cut short, a request
 * whose payment is settling loses its answer and leaves the payment to recovery.
 */
export function drainMs({ analytics }: ServiceConfig): number {
  return analytics.payments.answerTimeoutMs + (analytics.settlement.facilitator?.timeoutMs ?? 0) + 5_000;
}
