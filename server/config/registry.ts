/** The registry's settings from the environment; nothing else in server/registry reads it. */
import { type Env, port, present, publicBaseUrl, trustProxy } from "./env.js";

export interface RegistryConfig {
  /** `REGISTRY_PORT`, default 4022. */
  port: number;
  /** `REGISTRY_DB`, default `data/registry.db` (relative to the working directory); `:memory:` keeps nothing. */
  dbPath: string;
  /** Off only when `NODE_ENV` is `production` (`VALIDATE_RESPONSES` is the analytics service's): there a contract slip should not cost an answer. */
  validateResponses: boolean;
  /** `REGISTRY_PUBLIC_BASE_URL`: the origin written into `/openapi.json`'s `servers`; unset = the request's own (validated). */
  publicBaseUrl?: string;
  /** `TRUST_PROXY`, shared with the analytics service. */
  trustProxy: string | number | false;
}

export function registryConfig(env: Env = process.env): RegistryConfig {
  return {
    port: port(env, "REGISTRY_PORT", 4022),
    dbPath: present(env, "REGISTRY_DB") ?? "data/registry.db",
    validateResponses: env.NODE_ENV !== "production",
    publicBaseUrl: publicBaseUrl(env, "REGISTRY_PUBLIC_BASE_URL"),
    trustProxy: trustProxy(env),
  };
}
