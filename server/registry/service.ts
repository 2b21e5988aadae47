/**
 * The registry service as `server/main.ts` starts it: the store in `database` (PostgreSQL, when
 * `DATABASE_URL` is set) or at `dbPath` (SQLite), created, migrated and seeded when empty, and the
 * app over it. Settings come from `registryConfig` (config.ts).
 */
import type { Express } from "express";
import type { Logger } from "pino";
import { openNamedFile } from "../config/env.js";
import { type OperationsConfig, operationsConfig } from "../config/operations.js";
import type { RegistryConfig } from "../config/registry.js";
import type { Database } from "../db/database.js";
import { createServiceMetrics } from "../ops/metrics.js";
import { pingChecks } from "../ops/readiness.js";
import { createRegistryApp } from "./app.js";
import { openRegistryStore } from "./seed.js";
import type { RegistryStore } from "./store.js";

export { type RegistryConfig, registryConfig } from "../config/registry.js";

export interface RegistryService {
  app: Express;
  store: RegistryStore;
  /** Closes the store (not a database it was given); call after the HTTP server has stopped. */
  close(): Promise<void>;
}

export async function createRegistryService({
  dbPath,
  database,
  logger,
  operations = operationsConfig({}),
  ...options
}: Pick<RegistryConfig, "dbPath" | "validateResponses"> &
  Partial<Pick<RegistryConfig, "publicBaseUrl" | "trustProxy">> & {
    logger: Logger;
    database?: Database;
    /** The metrics token and the readiness bound (`operationsConfig`); unset: an open page, the default bound. */
    operations?: OperationsConfig;
  }): Promise<RegistryService> {
  const store = database
    ? await openRegistryStore(database)
    : await openNamedFile("REGISTRY_DB", dbPath, "registry", () => openRegistryStore(dbPath));
  const readiness = pingChecks({ "registry-store": store });
  return {
    app: createRegistryApp({
      store,
      logger,
      ...options,
      operations: { ...operations, metrics: createServiceMetrics(), readiness },
    }),
    store,
    close: () => store.close(),
  };
}
