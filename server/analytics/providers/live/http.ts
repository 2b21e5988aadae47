/**
 * The one upstream HTTP client of the live adapters. Per attempt: a timeout (AbortSignal) covering
 * the headers and the body; per request: bounded retries on 429, 5xx, network errors and timeouts,
 * with exponential backoff and jitter or the upstream's `Retry-After`; per host: a circuit breaker
 * and a concurrency limit. Bodies are parsed as JSON and validated with zod, so a changed upstream
 * shape becomes the contract's 502 `upstream_error` (never charged), not a crash or a wrong answer.
 * Error messages name the provider and what went wrong, never a URL (URLs may carry keys).
 */
import { z } from "zod";
import { type ApiError, upstreamError } from "../../../http/errors.js";
import { type Clock, systemClock } from "../../clock.js";

export interface HttpPolicy {
  /** Per attempt, headers and body together. */
  timeoutMs: number;
  /** Attempts after the first one; only transient failures are retried. */
  retries: number;
  /** First backoff; it doubles with every retry and is jittered down by up to half. */
  backoffMs: number;
  /** Longest wait between attempts. A `Retry-After` beyond it is not waited for: the request fails at once. */
  maxDelayMs: number;
  /** Consecutive failed attempts (5xx, network, timeout) on a host that open its breaker. */
  breakerThreshold: number;
  /** How long an open breaker fails requests fast before one probe may pass. */
  breakerCoolDownMs: number;
  /** Requests in flight per host; more wait in line. */
  concurrency: number;
}

export const DEFAULT_POLICY: HttpPolicy = {
  timeoutMs: 8_000,
  retries: 2,
  backoffMs: 250,
  maxDelayMs: 5_000,
  breakerThreshold: 5,
  breakerCoolDownMs: 30_000,
  concurrency: 4,
};

/** How one attempt ended: a response (by class), or no response. */
export type AttemptOutcome = "ok" | "client_error" | "rate_limited" | "server_error" | "timeout" | "unreachable";

/**
 * Why a request ended as the caller's 502: its host's breaker was open, every attempt failed, the
 * upstream asked to wait longer than the policy allows, or its answer was an error status,
 * malformed JSON or an unexpected shape.
 */
export type FailureKind =
  | "breaker_open"
  | "retries_exhausted"
  | "retry_after"
  | "http_status"
  | "malformed"
  | "unexpected_shape";

/** Told of every attempt, every failed request and every breaker change, by provider. */
export interface UpstreamObserver {
  attempt(source: string, outcome: AttemptOutcome, seconds: number): void;
  failure(source: string, kind: FailureKind): void;
  /** A host's breaker of `source` opened (true) or closed again (false). */
  breaker(source: string, open: boolean): void;
}

const unobserved: UpstreamObserver = { attempt() {}, failure() {}, breaker() {} };

/** What tests replace: the network, time and chance. `redact` scrubs secrets from messages. */
export interface HttpDeps {
  fetch?: typeof fetch;
  clock?: Clock;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  redact?: (text: string) => string;
  observer?: UpstreamObserver;
}

export interface UpstreamRequest {
  url: string | URL;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
}

export interface UpstreamHttp {
  /** The provider id errors name (`defillama`, `meteora`, ...). */
  readonly source: string;
  /** The validated JSON body; any failure, 404 included, is an upstream error. */
  json<T>(request: UpstreamRequest, schema: z.ZodType<T>): Promise<T>;
  /** As `json`, but the `missing` statuses (404 by default) resolve to undefined: the upstream does not know the entity. */
  jsonOrMissing<T>(request: UpstreamRequest, schema: z.ZodType<T>, missing?: readonly number[]): Promise<T | undefined>;
}

const NUMERIC = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** A number the upstream may send as a JSON number or as a numeric string (`"3689212.07"`). */
export const numeric = z.union([z.number(), z.string().trim().regex(NUMERIC).transform(Number)]).pipe(z.number());

/** A raw integer amount (smallest unit), sent as a string or a safe JSON integer. */
export const rawAmount = z
  .union([z.string().regex(/^\d+$/), z.number().int().nonnegative()])
  .transform((v) => BigInt(v));

/** `base` + `path` with the defined query parameters. */
export function urlOf(
  base: string,
  path: string,
  query: Record<string, string | number | boolean | undefined> = {},
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const search = params.toString();
  return `${base}${path}${search ? `?${search}` : ""}`;
}

/** `Retry-After` in milliseconds from now: delta seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The first zod issue as `path: message`, enough to see which field changed. */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join(".") || "(root)"}: ${issue.message}` : "invalid";
}

/** Closed → open after `threshold` consecutive failures → one probe after the cool-down → closed or open again. */
class Breaker {
  private failures = 0;
  private openedAt: number | undefined;
  private probing = false;

  constructor(
    private readonly policy: HttpPolicy,
    /** Called when the breaker opens (true) or closes (false). */
    private readonly changed: (open: boolean) => void,
  ) {}

  /** Whether an attempt may go out now; in half-open state only the first caller (the probe) may. */
  allow(now: number): boolean {
    if (this.openedAt === undefined) return true;
    if (now - this.openedAt < this.policy.breakerCoolDownMs || this.probing) return false;
    this.probing = true;
    return true;
  }

  /** Seconds until a probe may pass. */
  retryInS(now: number): number {
    return Math.max(1, Math.ceil(((this.openedAt ?? now) + this.policy.breakerCoolDownMs - now) / 1000));
  }

  success(): void {
    if (this.openedAt !== undefined) this.changed(false);
    this.failures = 0;
    this.openedAt = undefined;
    this.probing = false;
  }

  failure(now: number): void {
    this.failures += 1;
    if (this.probing || this.failures >= this.policy.breakerThreshold) {
      if (this.openedAt === undefined) this.changed(true);
      this.openedAt = now;
    }
    this.probing = false;
  }
}

class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number) {}

  async acquire(): Promise<void> {
    if (this.active < this.max) {
      this.active += 1;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Hands the slot to the next in line, or frees it. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active -= 1;
  }
}

/** One attempt's outcome: a response, or a transient failure to retry (after `waitMs` when the upstream said so). */
type Outcome = { status: number; text: string } | { failure: string; waitMs?: number };

function outcomeOf(status: number): AttemptOutcome {
  if (status === 429) return "rate_limited";
  if (status >= 500) return "server_error";
  return status >= 400 ? "client_error" : "ok";
}

export function createUpstreamHttp(
  source: string,
  policy: Partial<HttpPolicy> = {},
  deps: HttpDeps = {},
): UpstreamHttp {
  const upstream = upstreamOf(source, policy, deps);
  return {
    source,
    jsonOrMissing: (request, schema, missing) => jsonOrMissing(upstream, request, schema, missing),
    async json(request, schema) {
      const body = await jsonOrMissing(upstream, request, schema);
      if (body === undefined) throw upstream.fail("http_status", "answered HTTP 404");
      return body;
    },
  };
}

/** One provider's client: its policy, its dependencies or their defaults, and its hosts' breakers and slots. */
interface Upstream {
  source: string;
  policy: HttpPolicy;
  fetch: typeof fetch;
  clock: Clock;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  observer: UpstreamObserver;
  hosts: Map<string, { breaker: Breaker; slots: Semaphore }>;
  /** The caller's 502 for a failed request, reported to the observer and its message redacted. */
  fail(kind: FailureKind, what: string): ApiError;
}

function upstreamOf(source: string, policy: Partial<HttpPolicy>, deps: HttpDeps): Upstream {
  const redact = deps.redact ?? ((text: string) => text);
  const observer = deps.observer ?? unobserved;
  return {
    source,
    policy: { ...DEFAULT_POLICY, ...policy },
    fetch: deps.fetch ?? fetch,
    clock: deps.clock ?? systemClock,
    sleep: deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))),
    random: deps.random ?? Math.random,
    observer,
    hosts: new Map(),
    fail(kind, what) {
      observer.failure(source, kind);
      return upstreamError(source, redact(`${source} ${what}.`));
    },
  };
}

function hostState({ source, policy, observer, hosts }: Upstream, host: string) {
  let state = hosts.get(host);
  if (!state) {
    state = {
      breaker: new Breaker(policy, (open) => observer.breaker(source, open)),
      slots: new Semaphore(policy.concurrency),
    };
    hosts.set(host, state);
  }
  return state;
}

async function attempt(upstream: Upstream, url: URL, request: UpstreamRequest): Promise<Outcome> {
  const { source, policy: p, fetch: doFetch, clock, observer, fail } = upstream;
  const { breaker, slots } = hostState(upstream, url.host);
  if (!breaker.allow(clock.now()))
    throw fail("breaker_open", `is failing; requests pause for ${breaker.retryInS(clock.now())} s`);
  await slots.acquire();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), p.timeoutMs);
  const started = performance.now();
  const observe = (outcome: AttemptOutcome) => observer.attempt(source, outcome, (performance.now() - started) / 1000);
  try {
    const headers: Record<string, string> = { accept: "application/json", ...request.headers };
    if (request.body !== undefined) headers["content-type"] = "application/json";
    const response = await doFetch(url, {
      method: request.method ?? "GET",
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: controller.signal,
    });
    const text = await response.text();
    observe(outcomeOf(response.status));
    const transient = response.status >= 500 || response.status === 429;
    if (response.status >= 500) breaker.failure(clock.now());
    else breaker.success();
    if (!transient) return { status: response.status, text };
    const waitMs = retryAfterMs(response.headers.get("retry-after"), clock.now());
    const failure = response.status === 429 ? "rate-limited the service" : `answered HTTP ${response.status}`;
    return { failure, waitMs };
  } catch {
    breaker.failure(clock.now());
    observe(controller.signal.aborted ? "timeout" : "unreachable");
    return { failure: controller.signal.aborted ? `timed out after ${p.timeoutMs} ms` : "could not be reached" };
  } finally {
    clearTimeout(timer);
    slots.release();
  }
}

async function send(upstream: Upstream, request: UpstreamRequest): Promise<{ status: number; text: string }> {
  const { policy: p, fail } = upstream;
  const url = new URL(request.url);
  for (let retry = 0; ; retry++) {
    const outcome = await attempt(upstream, url, request);
    if ("status" in outcome) return outcome;
    const attempts = `${retry + 1} attempt${retry ? "s" : ""}`;
    if (retry >= p.retries) throw fail("retries_exhausted", `${outcome.failure} (${attempts})`);
    if (outcome.waitMs !== undefined && outcome.waitMs > p.maxDelayMs)
      throw fail("retry_after", `${outcome.failure}; retry after ${Math.ceil(outcome.waitMs / 1000)} s`);
    const backoff = Math.min(p.maxDelayMs, p.backoffMs * 2 ** retry) * (1 - upstream.random() / 2);
    await upstream.sleep(outcome.waitMs ?? backoff);
  }
}

function parse<T>({ fail }: Upstream, text: string, schema: z.ZodType<T>): T {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw fail("malformed", "answered malformed JSON");
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw fail("unexpected_shape", `answered an unexpected shape (${firstIssue(parsed.error)})`);
  return parsed.data;
}

async function jsonOrMissing<T>(
  upstream: Upstream,
  request: UpstreamRequest,
  schema: z.ZodType<T>,
  missing: readonly number[] = [404],
): Promise<T | undefined> {
  const { status, text } = await send(upstream, request);
  if (missing.includes(status)) return undefined;
  if (status < 200 || status >= 300) throw upstream.fail("http_status", `answered HTTP ${status}`);
  return parse(upstream, text, schema);
}
