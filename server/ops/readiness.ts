/**
 * Readiness: can this instance serve now? Each store, cache or backend the instance needs provides
 * a named check; `GET /readyz` runs them all in parallel, each within one bound, and names the ones
 * that failed. A check that ignores its signal still cannot hold the answer past the bound.
 */
import { redactSecrets } from "../http/redact.js";

export interface ReadinessCheck {
  /** The part asked, as `/readyz` names it: `ledger`, `registry-store`, `settlement:facilitator`. */
  readonly name: string;
  /** Resolves when the part answers correctly; should give up when `signal` aborts. */
  check(signal: AbortSignal): Promise<void>;
}

/** Something the instance needs that can say whether it answers: a store, a cache, a backend. */
export interface Pingable {
  ping?(signal: AbortSignal): Promise<void>;
}

/**
 * One named check per part that has a `ping`, e.g. `pingChecks({ ledger, "registry-store": store })`;
 * a part without one (the in-process `ledger` backend) has nothing to ask.
 */
export function pingChecks(parts: Record<string, Pingable>): ReadinessCheck[] {
  return Object.entries(parts).flatMap(([name, part]) => {
    const ping = part.ping?.bind(part);
    return ping ? [{ name, check: ping }] : [];
  });
}

export interface CheckResult {
  name: string;
  ok: boolean;
  duration_ms: number;
  error?: string;
}

export interface ReadinessReport {
  status: "ready" | "not_ready";
  checks: CheckResult[];
}

class Overdue extends Error {}

async function run(check: ReadinessCheck, timeoutMs: number): Promise<CheckResult> {
  const started = performance.now();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const overdue = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Overdue());
    }, timeoutMs);
  });
  try {
    await Promise.race([check.check(controller.signal), overdue]);
    return { name: check.name, ok: true, duration_ms: Math.round(performance.now() - started) };
  } catch (error) {
    // The message goes to an unauthenticated endpoint: no credentials, and a bounded length.
    const why =
      error instanceof Overdue || controller.signal.aborted
        ? `no answer within ${timeoutMs} ms`
        : redactSecrets(String((error as Error)?.message ?? error)).slice(0, 200);
    return { name: check.name, ok: false, duration_ms: Math.round(performance.now() - started), error: why };
  } finally {
    clearTimeout(timer);
  }
}

/** Runs every check within `timeoutMs`; ready only when all passed. */
export async function checkReadiness(checks: readonly ReadinessCheck[], timeoutMs: number): Promise<ReadinessReport> {
  const results = await Promise.all(checks.map((check) => run(check, timeoutMs)));
  return { status: results.every((r) => r.ok) ? "ready" : "not_ready", checks: results };
}

/** `checkReadiness` shared by concurrent callers: probes arriving together ask each part once. */
export function readinessProbe(checks: readonly ReadinessCheck[], timeoutMs: number): () => Promise<ReadinessReport> {
  let running: Promise<ReadinessReport> | undefined;
  return () => {
    running ??= checkReadiness(checks, timeoutMs).finally(() => {
      running = undefined;
    });
    return running;
  };
}
