// Which requests the paid lane serves itself and which it hands to the Express app untouched, and that what it reads
// it answers: every body it read goes to its route's endpoint (whose pipeline checks it), never on to Express.
import { once } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Writable } from "node:stream";
import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { handlerChain } from "../../http/handler-chain.js";
import { bodyOrDefaults, refuseDeepBodies, refuseOtherCharsets } from "../../http/input-guard.js";
import { createLogger } from "../../http/logger.js";
import { requestContext } from "../../http/request-context.js";
import { serviceApp } from "../../http/service-app.js";
import type { PaidRequest } from "./http-endpoint.js";
import { type LaneRoute, withPaidLane } from "./lane.js";

const PATH = "/base/defi/tvl";

function setup({ publicBaseUrl }: { publicBaseUrl?: string } = {}) {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger(
    "info",
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    }),
  );
  const served: PaidRequest[] = [];
  const route: LaneRoute = {
    path: PATH,
    operationId: "Base_defiTvl",
    serve: async (paid) => {
      served.push(paid);
      if ((paid.input as { fail?: boolean }).fail) throw new Error("boom");
      return {
        status: 200,
        headers: { "Cache-Control": "private" },
        body: JSON.stringify({ input: paid.input }),
        log: { payment: "settled" },
      };
    },
  };
  const started: string[] = [];
  const start = handlerChain([
    requestContext(logger),
    (req: IncomingMessage, _res: ServerResponse, next: () => void) => {
      started.push(req.requestId);
      next();
    },
  ]);
  const body = handlerChain([refuseOtherCharsets, express.json({ limit: "100kb" }), bodyOrDefaults, refuseDeepBodies]);
  // The Express app the lane hands on to: it says what it received.
  const handedOn: { path: string; body: unknown; requestId: string }[] = [];
  const app = express()
    .use((req, res, next) => (req.requestId === undefined ? start(req, res, next) : next()))
    .use(body)
    .use((req, res) => {
      handedOn.push({ path: req.originalUrl, body: req.body, requestId: req.requestId });
      res.status(418).json({ express: true });
    });
  const front = withPaidLane(app, { routes: [route], start, body, publicBaseUrl, logger });
  return { front, served, handedOn, started, lines };
}

describe("the paid lane", () => {
  it("serves a paid route's POST itself: the body for its endpoint to check, one request id, log line and reply", async () => {
    const { front, served, handedOn, started, lines } = setup();
    const res = await request(front).post(PATH).set("host", "api.example:8080").send({ chain: "all" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ input: { chain: "all" } });
    expect(served[0]?.schemaChecked).toBe(false);
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("private");
    expect(res.headers["x-request-id"]).toBe(started[0]);
    expect(handedOn).toEqual([]);
    expect(served[0]?.resource()).toBe(`http://api.example:8080${PATH}`);
    expect(served[0]?.header("X-Payment")).toBeUndefined();
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual([expect.objectContaining({ msg: "request", path: PATH, status: 200, payment: "settled" })]);
  });

  it("treats an absent body as all defaults, as Express does", async () => {
    const { front, served } = setup();
    expect((await request(front).post(PATH)).status).toBe(200);
    expect(served[0]?.input).toEqual({});
  });

  it("hands on every other request untouched: another path, method or spelling, a query string", async () => {
    const { front, served, handedOn, started } = setup();
    for (const target of [`${PATH}?limit=1`, `${PATH}/`, "/BASE/defi/tvl", "/defi/tvl"])
      expect((await request(front).post(target)).status).toBe(418);
    expect((await request(front).get(PATH)).status).toBe(418);
    expect(served).toEqual([]);
    expect(handedOn.map((h) => h.path)).toEqual([`${PATH}?limit=1`, `${PATH}/`, "/BASE/defi/tvl", "/defi/tvl", PATH]);
    expect(started).toHaveLength(5);
  });

  it("hands on a request whose origin a proxy states, unless PUBLIC_BASE_URL says it", async () => {
    const proxied = setup();
    for (const header of ["x-forwarded-proto", "x-forwarded-host"])
      expect((await request(proxied.front).post(PATH).set(header, "https")).status).toBe(418);
    expect(proxied.served).toEqual([]);
    const configured = setup({ publicBaseUrl: "https://api.example" });
    expect((await request(configured.front).post(PATH).set("x-forwarded-host", "evil.example")).status).toBe(200);
    expect(configured.served[0]?.resource()).toBe(`https://api.example${PATH}`);
  });

  it("answers every body it read itself, one its schema refuses and one holding 1e309 included: none reaches Express", async () => {
    const { front, served, handedOn, started } = setup();
    expect((await request(front).post(PATH).set("x-request-id", "abc-123").send({ bad: 1 })).status).toBe(200);
    expect(
      (await request(front).post(PATH).set("content-type", "application/json").send('{"limit": 1e309}')).status,
    ).toBe(200);
    expect(served.map((paid) => paid.input)).toEqual([{ bad: 1 }, { limit: Number.POSITIVE_INFINITY }]);
    expect(served.map((paid) => paid.schemaChecked)).toEqual([false, false]);
    expect(handedOn).toEqual([]);
    expect(started[0]).toBe("abc-123");
  });

  it("answers what the body handling refuses with the service's error body, as Express's error handler does", async () => {
    const { front, served, handedOn } = setup();
    const cases: [request.Test, string, string][] = [
      [
        request(front).post(PATH).set("content-type", "application/json").send("{not json"),
        "body",
        "is not valid JSON",
      ],
      [request(front).post(PATH).set("content-type", "application/json").send("5"), "body", "must be a JSON object"],
      [
        request(front).post(PATH).set("content-type", "application/json; charset=latin1").send("{}"),
        "content-type",
        "charset must be utf-8",
      ],
      [
        request(front).post(PATH).set("content-type", "text/plain").send("{}"),
        "content-type",
        "must be application/json",
      ],
      [
        request(front)
          .post(PATH)
          .set("content-type", "application/json")
          .send(JSON.stringify({ a: "x".repeat(110_000) })),
        "body",
        "is larger than the 100 kB limit",
      ],
    ];
    for (const [sent, field, message] of cases) {
      const res = await sent;
      expect(res.status, message).toBe(400);
      expect(res.body).toEqual({
        error: "invalid_request",
        message: `${field}: ${message}`,
        errors: [expect.objectContaining({ field, message })],
        request_id: res.headers["x-request-id"],
      });
    }
    expect(served).toEqual([]);
    expect(handedOn).toEqual([]);
  });

  it("answers a failure of the route as a 500 without internals, logged with the request id", async () => {
    const { front, lines } = setup();
    const failed = await request(front).post(PATH).send({ fail: true });
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({
      error: "internal_error",
      message: "The service failed to produce a valid answer.",
      request_id: failed.headers["x-request-id"],
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: "request failed", path: PATH, requestId: failed.headers["x-request-id"] }),
    );
  });
});

// The lane's listener is what `listen` serves: a real socket, not only supertest's.
describe("a service app", () => {
  it("listens with the lane in front", async () => {
    const { front } = setup();
    const server = serviceApp(front).listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}${PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(200);
    server.close();
  });
});
