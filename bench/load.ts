/** One load run with autocannon: a fixed number of requests (or a duration), each optionally with its own payment. */
import autocannon from "autocannon";

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  requests: number;
  /** CPU time the server spent per request, in µs, where the server reports its CPU. */
  cpuMicrosPerRequest?: number;
  /** CPU time this machine's PostgreSQL spent per request, in µs, for a deployment on it. */
  databaseCpuMicrosPerRequest?: number;
  /** CPU time the load generator (the bench's own process) spent per request, in µs. */
  loadCpuMicrosPerRequest?: number;
}

export interface LoadSpec {
  url: string;
  method?: "GET" | "POST";
  path: string;
  body?: string;
  headers?: Record<string, string>;
  /** One payment header per request, consumed in order. */
  payments?: string[];
  /** The header `payments` go in: `x-payment` (x402 v1, the default) or `payment-signature` (v2). */
  paymentHeader?: string;
  /** One body per request, consumed in order (a payment carried in the body: an MCP tool call's `_meta`). */
  bodies?: string[];
  amount?: number;
  durationSeconds?: number;
  connections?: number;
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  let next = 0;
  const { payments, bodies } = spec;
  const headers = { ...(spec.body ? { "content-type": "application/json" } : {}), ...spec.headers };
  const started = performance.now();
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections ?? 16,
    ...(spec.amount ? { amount: spec.amount } : { duration: spec.durationSeconds ?? 5 }),
    requests: [
      {
        method: spec.method ?? "GET",
        path: spec.path,
        headers,
        body: spec.body,
        ...(payments
          ? {
              setupRequest: (request: { headers: Record<string, string> }) => {
                request.headers = {
                  ...headers,
                  [spec.paymentHeader ?? "x-payment"]: payments[next++ % payments.length] as string,
                };
                return request;
              },
            }
          : {}),
        ...(bodies
          ? {
              setupRequest: (request: { body?: string }) => {
                request.body = bodies[next++ % bodies.length];
                return request;
              },
            }
          : {}),
      },
    ] as never,
  });
  return {
    requestsPerSecond: result.requests.total / ((performance.now() - started) / 1000),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    requests: result.requests.total,
  };
}
