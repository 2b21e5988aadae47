/**
 * The registry's generated OpenAPI 3.1 document: the app is built from it and import records are
 * checked against its schemas, so the contract stays the single source of truth.
 */
import { readFileSync } from "node:fs";

export interface RegistryDocument {
  info: { title: string; version: string };
  paths: Record<string, Record<string, { operationId: string; summary?: string; [key: string]: unknown }>>;
  components: { schemas: Record<string, { enum?: unknown[]; [key: string]: unknown }> };
  [key: string]: unknown;
}

export const registryDocument: RegistryDocument = JSON.parse(
  readFileSync(new URL("../../generated/openapi/3.1/registry.json", import.meta.url), "utf8"),
);
