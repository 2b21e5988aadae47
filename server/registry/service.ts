/**
 * The registry service as `server/main.ts` starts it: the store in `database` (PostgreSQL, when
 * `DATABASE_URL` is set) or at `dbPath` (SQLite), created, migrated and seeded when empty, and the
 * app over it. Settings come from `registryConfig` (config.ts).
 */
import type { Express } from "express";
import type { Logger } from "pino";
import type { Database } from "../db/database.js";
import { createRegistryApp } from "./app.js";
import type { RegistryConfig } from "./config.js";
import { openRegistryStore } from "./seed.js";
import type { RegistryStore } from "./store.js";

export { type RegistryConfig, registryConfig } from "./config.js";

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
  ...options
}: Pick<RegistryConfig, "dbPath" | "validateResponses"> &
  Partial<Pick<RegistryConfig, "publicBaseUrl" | "trustProxy">> & { logger: Logger; database?: Database }): Promise<RegistryService> {
  const store = await openRegistryStore(database ?? dbPath);
  return { app: createRegistryApp({ store, logger, ...options }), store, close: () => store.close() };
}
