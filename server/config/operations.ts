/** The operators' settings, read the same way by both services. */
import { ConfigError, type Env, positiveInt, present } from "./env.js";

export interface OperationsConfig {
  /** `METRICS_TOKEN`: when set, `GET /metrics` needs `Authorization: Bearer <token>`. */
  metricsToken?: string;
  /** `READINESS_TIMEOUT_MS`, default 2000: how long `GET /readyz` waits for each check. */
  readinessTimeoutMs: number;
}

export function operationsConfig(env: Env): OperationsConfig {
  const metricsToken = present(env, "METRICS_TOKEN");
  // Blanks that are not empty look like a token someone meant to set: /metrics would stay open without a word.
  if (!metricsToken && env.METRICS_TOKEN)
    throw new ConfigError("METRICS_TOKEN is only blanks; give the token, or leave it unset for open metrics");
  return { metricsToken, readinessTimeoutMs: positiveInt(env, "READINESS_TIMEOUT_MS", 2000) };
}
