/**
 * The registry service as `server/main.ts` starts it: the store at `dbPath` (created, migrated,
 * seeded when empty) and the app over it. Settings come from `registryConfig` (config.ts).
 */
import type { Express } from "express";
import type { Logger } from "pino";
import { createRegistryApp } from "./app.js";
import type { RegistryConfig } from "./config.js";
import { openRegistryStore } from "./seed.js";
import type { RegistryStore } from "./store.js";

export { type RegistryConfig, registryConfig } from "./config.js";

export interface RegistryService {
  app: Express;
  store: RegistryStore;
  /** Closes the store; call after the HTTP server has stopped. */
  close(): void;
}

export function createRegistryService({
  dbPath,
  logger,
  ...options
}: Pick<RegistryConfig, "dbPath" | "validateResponses"> &
  Partial<Pick<RegistryConfig, "publicBaseUrl" | "trustProxy">> & { logger: Logger }): RegistryService {
  const store = openRegistryStore(dbPath);
  return { app: createRegistryApp({ store, logger, ...options }), store, close: () => store.close() };
}
