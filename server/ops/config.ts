/** The operators' settings, read the same way by both services. */
import { type Env, positiveInt, present } from "../config/env.js";

export interface OperationsConfig {
  /** `METRICS_TOKEN`: when set, `GET /metrics` needs `Authorization: Bearer <token>`. */
  metricsToken?: string;
  /** `READINESS_TIMEOUT_MS`, default 2000: how long `GET /readyz` waits for each check. */
  readinessTimeoutMs: number;
}

export function operationsConfig(env: Env): OperationsConfig {
  return { metricsToken: present(env, "METRICS_TOKEN"), readinessTimeoutMs: positiveInt(env, "READINESS_TIMEOUT_MS", 2000) };
}
