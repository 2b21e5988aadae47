// The operators' endpoints as a service serves them (the registry's here; the analytics service's in
// server/analytics/operations.test.ts): liveness, readiness that names a failing store, and the
// metrics page, open or behind the deployment's bearer token, labelled by operation and never by path.
import request from "supertest";
import { describe, expect, it } from "vitest";
import { loadDoc } from "../../conformance/openapi-doc.js";
import { createResponseValidator } from "../../conformance/schema-validator.js";
import { metricValue } from "../../test/support/metrics.js";
import { operationsConfig } from "../config/operations.js";
import { createLogger } from "../http/logger.js";
import { createRegistryService } from "../registry/service.js";
import { bearerMatches } from "./routes.js";

const contract = createResponseValidator(loadDoc("3.1", "registry"));
const registry = (env: Record<string, string> = {}) =>
  createRegistryService({
    dbPath: ":memory:",
    validateResponses: true,
    logger: createLogger("silent"),
    operations: operationsConfig(env),
  });

describe("GET /livez", () => {
  it("answers 200 while the process runs, never cached", async () => {
    const { app } = await registry();
    const res = await request(app).get("/livez");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.headers.etag).toBeUndefined();
    expect(contract.validate("get", "/livez", 200, res.body)).toEqual([]);
  });
});

describe("GET /readyz", () => {
  it("answers 200 while the store answers, and 503 naming it once it does not", async () => {
    const service = await registry();
    const ready = await request(service.app).get("/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: "ready", checks: [{ name: "registry-store", ok: true }] });
    expect(contract.validate("get", "/readyz", 200, ready.body)).toEqual([]);

    service.store.close();
    const down = await request(service.app).get("/readyz");
    expect(down.status).toBe(503);
    expect(down.headers["cache-control"]).toBe("no-store");
    expect(down.body).toMatchObject({ status: "not_ready", checks: [{ name: "registry-store", ok: false }] });
    expect(down.body.checks[0].error).toEqual(expect.any(String));
    expect(contract.validate("get", "/readyz", 503, down.body)).toEqual([]);
    // the process itself is still alive
    expect((await request(service.app).get("/livez")).status).toBe(200);
  });
});

describe("GET /metrics", () => {
  it("counts answers by operation and status, never by path, and adds the process metrics", async () => {
    const { app } = await registry();
    await request(app).get("/manifest/orbit-scout");
    await request(app).get("/manifest/rug-radar");
    await request(app).head("/manifest/orbit-scout");
    await request(app).get("/manifest/no-such-agent-zz9");
    await request(app).get("/no/such/path");
    const res = await request(app).get("/metrics");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(res.headers.etag).toBeUndefined();
    const requests = (operation: string, status: string) =>
      metricValue(res.text, "http_requests_total", { operation, status });
    expect(requests("Agents_getManifest", "200")).toBe(3);
    expect(requests("Agents_getManifest", "404")).toBe(1);
    expect(requests("unmatched", "404")).toBe(1);
    expect(
      metricValue(res.text, "http_request_duration_seconds_count", { operation: "Agents_getManifest", status: "200" }),
    ).toBe(3);
    expect(res.text).not.toMatch(/orbit-scout|rug-radar|no-such-agent|\/no\/such/);
    for (const name of [
      "process_cpu_user_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_eventloop_lag_seconds",
    ])
      expect(res.text).toContain(`# TYPE ${name} `);
  });

  it("with METRICS_TOKEN, answers 401 without the bearer token or with a wrong one, and 200 with it", async () => {
    const { app } = await registry({ METRICS_TOKEN: "s3cret-scrape" });
    for (const authorization of [
      undefined,
      "Bearer wrong",
      "Bearer s3cret-scrapeX",
      "Basic s3cret-scrape",
      "s3cret-scrape",
    ]) {
      const res = await request(app)
        .get("/metrics")
        .set(authorization ? { Authorization: authorization } : {});
      expect(res.status, authorization).toBe(401);
      expect(res.headers["www-authenticate"]).toBe("Bearer");
      expect(res.body.error).toBe("unauthorized");
      expect(res.text).not.toContain("s3cret-scrape");
      expect(contract.validate("get", "/metrics", 401, res.body)).toEqual([]);
    }
    const res = await request(app).get("/metrics").set("Authorization", "Bearer s3cret-scrape");
    expect(res.status).toBe(200);
    expect(metricValue(res.text, "http_requests_total", { operation: "Operations_metrics", status: "401" })).toBe(5);
    // the probes stay open: only the metrics need the token
    expect((await request(app).get("/readyz")).status).toBe(200);
  });
});

describe("bearerMatches", () => {
  it("accepts exactly `Bearer <token>` (any case of the scheme)", () => {
    expect(bearerMatches("abc", "Bearer abc")).toBe(true);
    expect(bearerMatches("abc", "bearer abc")).toBe(true);
    expect(bearerMatches("abc", "Bearer abcd")).toBe(false);
    expect(bearerMatches("abc", "Bearer ab")).toBe(false);
    expect(bearerMatches("abc", "Bearer  abc extra")).toBe(false);
    expect(bearerMatches("abc", "abc")).toBe(false);
    expect(bearerMatches("abc", undefined)).toBe(false);
    expect(bearerMatches("abc", "Bearer ")).toBe(false);
  });
});
