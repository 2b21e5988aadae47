// The paid front: which requests it serves (every spelling its rule accepts of a paid path, and `/mcp`) and which it
// hands to the Express app untouched; what it reads of a request (body, query, path, the URL paid for through a
// trusted proxy) and how it answers what it cannot hand on (405, 400s of the request's form, a failure).
import { once } from "node:events";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Writable } from "node:stream";
import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { ANALYTICS_CORS, cors } from "../../http/cors.js";
import { handlerChain } from "../../http/handler-chain.js";
import { bodyOrDefaults, type ParsedRequest, refuseDeepBodies, refuseOtherCharsets } from "../../http/input-guard.js";
import { createLogger } from "../../http/logger.js";
import type { TrustProxy } from "../../http/origin.js";
import { requestContext } from "../../http/request-context.js";
import { serviceApp } from "../../http/service-app.js";
import type { PaidRequest } from "./http-call.js";
import { type FrontRoute, paidFront } from "./paid-front.js";

const PATH = "/base/defi/tvl";
const POOL = "/lp/{venue}/pools/{address}";

function setup({ publicBaseUrl, trustProxy = false }: { publicBaseUrl?: string; trustProxy?: TrustProxy } = {}) {
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
  const served: (PaidRequest & { method: string })[] = [];
  const route = (method: string): FrontRoute => ({
    operationId: `op_${method}`,
    serve: async (paid) => {
      served.push({ ...paid, method });
      if ((paid.input.body as { fail?: boolean } | undefined)?.fail) throw new Error("boom");
      const body = JSON.stringify({ input: paid.input, resource: paid.resource() });
      return { status: 200, headers: { "Cache-Control": "private" }, body, log: { payment: "settled" } };
    },
  });
  const paths = new Map([
    [PATH, new Map([["POST", route("POST")]])],
    [
      "/ask",
      new Map([
        ["GET", route("GET")],
        ["POST", route("POST")],
      ]),
    ],
    [POOL, new Map([["GET", route("GET")]])],
  ]);
  const mcpCalls: { method?: string; body: unknown }[] = [];
  const mcp = {
    path: "/mcp",
    operationId: "mcp",
    serve: async (req: ParsedRequest, res: ServerResponse) => {
      mcpCalls.push({ method: req.method, body: req.body });
      res.writeHead(202).end();
    },
  };
  // An endpoint with a wire form of its own for a body it cannot read (A2A's JSON-RPC parse error).
  const a2a = {
    path: "/a2a",
    operationId: "a2a",
    serve: async (req: ParsedRequest, res: ServerResponse) => {
      mcpCalls.push({ method: req.method, body: req.body });
      res.writeHead(202).end();
    },
    unreadable: (error: unknown, _req: ParsedRequest, res: ServerResponse) => {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ unreadable: String(error) }));
    },
  };
  const started: string[] = [];
  const start = handlerChain([
    requestContext(logger),
    (req: IncomingMessage, _res: ServerResponse, next: () => void) => {
      started.push(req.requestId);
      next();
    },
    cors(ANALYTICS_CORS),
  ]);
  const body = handlerChain([refuseOtherCharsets, express.json({ limit: "100kb" }), bodyOrDefaults, refuseDeepBodies]);
  // The Express app the front hands on to: it says what it received.
  const handedOn: string[] = [];
  const app = express().use((req, res) => {
    handedOn.push(req.originalUrl);
    res.status(418).json({ express: true });
  });
  const front = paidFront(app, { paths, endpoints: [mcp, a2a], start, body, publicBaseUrl, trustProxy, logger });
  return { front, served, handedOn, started, lines, mcpCalls };
}

describe("the paid front", () => {
  it("serves a paid route's POST itself: the body for its endpoint to check, one request id, log line and reply", async () => {
    const { front, served, handedOn, started, lines } = setup();
    const res = await request(front).post(PATH).set("host", "api.example:8080").send({ chain: "all" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      input: { body: { chain: "all" }, query: {}, path: {} },
      resource: `http://api.example:8080${PATH}`,
    });
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(res.headers["cache-control"]).toBe("private");
    expect(res.headers["x-request-id"]).toBe(started[0]);
    expect(handedOn).toEqual([]);
    expect(served[0]?.header("X-Payment")).toBeUndefined();
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual([expect.objectContaining({ msg: "request", path: PATH, status: 200, payment: "settled" })]);
  });

  it("treats an absent body as all defaults", async () => {
    const { front, served } = setup();
    expect((await request(front).post(PATH)).status).toBe(200);
    expect(served[0]?.input.body).toEqual({});
  });

  it("takes every spelling its rule accepts, paying for the path as the contract writes it; hands on the rest", async () => {
    const { front, served, handedOn } = setup();
    for (const target of [`${PATH}/`, "/BASE/DeFi/tvl", "/Base/defi/TVL/"]) {
      const res = await request(front).post(target).set("host", "h.example");
      expect(res.body.resource, target).toBe(`http://h.example${PATH}`);
    }
    for (const target of [`${PATH}//`, "/base//defi/tvl", "/base/defi/%74vl", "/base/defi", "/defi/tvl"])
      expect((await request(front).post(target)).status, target).toBe(418);
    expect(served).toHaveLength(3);
    expect(handedOn).toEqual([`${PATH}//`, "/base//defi/tvl", "/base/defi/%74vl", "/base/defi", "/defi/tvl"]);
  });

  it("reads a GET's query string and path parameters, percent-decoded, and keeps them in the URL paid for", async () => {
    const { front } = setup();
    const res = await request(front).get("/LP/met%65ora/pools/Ab%2Fc/?limit=5&q=a+b%21").set("host", "h.example");
    expect(res.body).toEqual({
      input: { query: { limit: "5", q: "a b!" }, path: { venue: "meteora", address: "Ab/c" } },
      resource: "http://h.example/lp/met%65ora/pools/Ab%2Fc?limit=5&q=a+b%21",
    });
  });

  it("answers what a paid request's form gets wrong before its endpoint sees it: a 400 naming the field", async () => {
    const { front, served } = setup();
    const cases: [() => request.Test, string, string][] = [
      [() => request(front).get("/ask?query=a&query=b"), "query", "must be given once"],
      [() => request(front).get("/ask?query"), "query", "must have a value"],
      [() => request(front).get("/ask?query[x]=1"), "query[x]", "must be a plain name, without brackets"],
      [() => request(front).get("/lp/%ZZ/pools/x"), "/lp/%ZZ/pools/x", "is not valid percent-encoding"],
      [
        () => request(front).get("/ask?query=a").set("content-type", "application/json").send('{"query":"b"}'),
        "body",
        "a GET takes its fields in the query string; send a JSON body with POST instead",
      ],
      [
        () => request(front).post(PATH).set("content-type", "application/json").send("{not json"),
        "body",
        "is not valid JSON",
      ],
      [
        () => request(front).post(PATH).set("content-type", "application/json").send("5"),
        "body",
        "must be a JSON object",
      ],
      [
        () => request(front).post(PATH).set("content-type", "application/json; charset=latin1").send("{}"),
        "content-type",
        "charset must be utf-8",
      ],
      [
        () => request(front).post(PATH).set("content-type", "text/plain").send("{}"),
        "content-type",
        "must be application/json",
      ],
      [
        () =>
          request(front)
            .post(PATH)
            .set("content-type", "application/json")
            .send(JSON.stringify({ a: "x".repeat(110_000) })),
        "body",
        "is larger than the 100 kB limit",
      ],
    ];
    for (const [send, field, message] of cases) {
      const res = await send().set("X-PAYMENT", "a payment");
      expect(res.status, message).toBe(400);
      expect(res.body).toEqual({
        error: "invalid_request",
        message: `${field}: ${message}`,
        errors: [expect.objectContaining({ field, message })],
        request_id: res.headers["x-request-id"],
      });
    }
    expect(served).toEqual([]);
  });

  it("hands an unpaid request it cannot read to its endpoint, naming what is wrong (a challenge is owed it)", async () => {
    const { front, served } = setup();
    const unread = async (send: () => request.Test) => {
      served.length = 0;
      expect((await send()).status).toBe(200);
      return (served[0]?.input as { unread?: unknown } | undefined)?.unread;
    };
    expect(await unread(() => request(front).get("/ask?query=a&query=b"))).toEqual([
      { location: "query", field: "query", message: "must be given once" },
    ]);
    expect(await unread(() => request(front).post(PATH).set("content-type", "application/json").send("{x"))).toEqual([
      { location: "body", field: "body", message: "is not valid JSON" },
    ]);
    expect(await unread(() => request(front).get("/lp/%ZZ/pools/x"))).toEqual([
      { location: "path", field: "/lp/%ZZ/pools/x", message: "is not valid percent-encoding" },
    ]);
    expect(await unread(() => request(front).post(PATH).send({}))).toBeUndefined();
    const large = () => request(front).post(PATH).set("content-type", "application/json");
    expect(await unread(() => large().send(JSON.stringify({ a: "x".repeat(110_000) })))).toEqual([
      { location: "body", field: "body", message: "is larger than the 100 kB limit" },
    ]);
  });

  it("answers another method with 405 and the path's methods, HEAD included, and a preflight with CORS", async () => {
    const { front, served, handedOn } = setup();
    for (const [method, path, allow] of [
      ["put", PATH, "POST"],
      ["delete", "/ask", "GET, POST"],
      ["head", "/ask", "GET, POST"],
      ["patch", "/lp/meteora/pools/x", "GET"],
    ] as const) {
      const res = await request(front)[method](path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.allow).toBe(allow);
      if (method !== "head") expect(res.body.error).toBe("method_not_allowed");
    }
    const preflight = await request(front).options(PATH).set("origin", "https://page.example");
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-methods"]).toBe(ANALYTICS_CORS.methods);
    expect([served, handedOn]).toEqual([[], []]);
  });

  it("names the URL paid for through a proxy only when TRUST_PROXY trusts it, and as PUBLIC_BASE_URL says when set", async () => {
    const forwarded = { "x-forwarded-proto": "https", "x-forwarded-host": "api.example, inner.example" };
    const untrusted = await request(setup().front).post(PATH).set("host", "h.example").set(forwarded);
    expect(untrusted.body.resource).toBe(`http://h.example${PATH}`);
    const trusted = await request(setup({ trustProxy: "loopback" }).front)
      .post(PATH)
      .set(forwarded);
    expect(trusted.body.resource).toBe(`https://api.example${PATH}`);
    const hops = await request(setup({ trustProxy: 1 }).front)
      .post(PATH)
      .set(forwarded);
    expect(hops.body.resource).toBe(`https://api.example${PATH}`);
    const bad = await request(setup({ trustProxy: "loopback" }).front)
      .post(PATH)
      .set("x-forwarded-proto", "ftp");
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      { location: "header", field: "X-Forwarded-Proto", message: "must be http or https" },
    ]);
    const configured = setup({ publicBaseUrl: "https://api.example" });
    const res = await request(configured.front).post(PATH).set("x-forwarded-host", "evil.example");
    expect(res.body.resource).toBe(`https://api.example${PATH}`);
  });

  it("hands every request to /mcp to the MCP endpoint, a POST's body parsed", async () => {
    const { front, mcpCalls, handedOn } = setup();
    expect((await request(front).post("/mcp").send({ jsonrpc: "2.0", id: 1, method: "ping" })).status).toBe(202);
    expect((await request(front).get("/MCP/")).status).toBe(202);
    expect((await request(front).delete("/mcp?session=x")).status).toBe(202);
    expect(mcpCalls).toEqual([
      { method: "POST", body: { jsonrpc: "2.0", id: 1, method: "ping" } },
      { method: "GET", body: undefined },
      { method: "DELETE", body: undefined },
    ]);
    expect(handedOn).toEqual([]);
  });

  it("lets an agent endpoint word a body it cannot read, and keeps the contract's 400 for one that does not", async () => {
    const { front, mcpCalls } = setup();
    const a2a = await request(front).post("/a2a").set("content-type", "application/json").send("{not json");
    expect(a2a.status).toBe(200);
    expect(a2a.body.unreadable).toMatch(/JSON|Unexpected|position/i);
    const mcp = await request(front).post("/mcp").set("content-type", "application/json").send("{not json");
    expect(mcp.status).toBe(400);
    expect(mcp.body.error).toBe("invalid_request");
    expect(mcpCalls).toEqual([]);
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

// The front's listener is what `listen` serves: a real socket, not only supertest's.
describe("a service app", () => {
  it("listens with the front before Express", async () => {
    const { front } = setup();
    const server = serviceApp(front).listen(0, "127.0.0.1");
    await once(server, "listening");
    try {
      const { port } = server.address() as { port: number };
      const res = await fetch(`http://127.0.0.1:${port}${PATH}`, { method: "POST" });
      expect(res.status).toBe(200);
      const other = await fetch(`http://127.0.0.1:${port}/elsewhere`);
      expect(other.status).toBe(418);
    } finally {
      server.close();
    }
  });
});
