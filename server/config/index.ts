/**
 * The whole configuration of `npm start`, read once from the environment before anything starts:
 * the log level, the analytics service's settings and the registry's. Any value that cannot work
 * is a `ConfigError` whose message is the one line the process prints before it exits with code 2.
 */
import type { LevelWithSilent } from "pino";
import { type AnalyticsConfig, loadAnalyticsConfig } from "../analytics/config.js";
import { type OperationsConfig, operationsConfig } from "../ops/config.js";
import { type RegistryConfig, registryConfig } from "../registry/config.js";
import { type Env, oneOf } from "./env.js";
import { type StoreSettings, storeSettings } from "./stores.js";

export { ConfigError } from "./env.js";

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
  return {
    logLevel: oneOf(env, "LOG_LEVEL", LEVELS, "info"),
    analytics: loadAnalyticsConfig(env),
    registry: registryConfig(env),
    stores: storeSettings(env),
    operations: operationsConfig(env),
  };
}
