// The per-path validators, and the GETs that leave them nothing to check.
import express, { type ErrorRequestHandler, type Request, type RequestHandler } from "express";
import request from "supertest";
import { describe, expect, it, vi } from "vitest";
import { operationOf } from "./request-context.js";
import { openApiValidation } from "./validator.js";

const ok = { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } };
const document = {
  openapi: "3.1.0",
  info: { title: "validator test", version: "1" },
  components: { securitySchemes: { BearerAuth: { type: "http", scheme: "bearer" } } },
  paths: {
    "/livez": { get: { operationId: "livez", responses: ok } },
    "/items": {
      get: {
        operationId: "items",
        parameters: [{ name: "limit", in: "query", schema: { type: "integer", maximum: 10 } }],
        responses: ok,
      },
    },
    "/metrics": { get: { operationId: "metrics", security: [{}, { BearerAuth: [] }], responses: ok } },
    "/search": {
      parameters: [{ name: "q", in: "query", schema: { type: "string" } }],
      get: { operationId: "search", responses: ok },
    },
    "/lookup": {
      get: {
        operationId: "lookup",
        requestBody: { content: { "application/json": { schema: { type: "object" } } } },
        responses: ok,
      },
    },
    "/base/livez": { get: { operationId: "livez", responses: ok } },
    "/paid": { get: { operationId: "paid", "x-payment-info": { price: "0.001" }, responses: ok } },
  },
};
/** The same paths, every operation secured at the document's level. */
const secured = { ...document, security: [{ BearerAuth: [] }] };

function app(validateResponses: boolean, spec = document) {
  const validatorFor = openApiValidation(spec, { validateResponses, prefixes: ["/base"] });
  const server = express();
  const answer: RequestHandler = (req, res) => {
    res.json({
      operationId: operationOf(req),
    });
  };
  for (const path of Object.keys(document.paths)) server.all(path, validatorFor(path), answer);
  const errors: ErrorRequestHandler = (error, _req, res, _next) => {
    res
      .status(error.status ?? 500)
      .set(error.headers ?? {})
      .json({ message: error.message });
  };
  server.use(errors);
  return { served: server, validatorFor };
}

/**
 * Whether the path's validators hand a request on at once, without the validator's asynchronous checks. `target` is
 * the request target as sent; `path` its pathname, as Express parses it.
 */
function passesAtOnce(validatorFor: (path: string) => RequestHandler, path: string, target = path, method = "GET") {
  const next = vi.fn();
  const first = validatorFor(path);
  const req = {
    method,
    url: target,
    originalUrl: target,
    path: new URL(target, "http://h").pathname,
    headers: {},
    query: {},
  };
  (first as RequestHandler)(req as unknown as Request, {} as never, next);
  return next.mock.calls.length === 1 && next.mock.calls[0]?.length === 0;
}

describe("the validator of a documented path", () => {
  const { served, validatorFor } = app(false);

  it("lets a parameterless GET through at once, with the operation's metadata, a query string ignored", async () => {
    expect(passesAtOnce(validatorFor, "/livez")).toBe(true);
    expect(passesAtOnce(validatorFor, "/base/livez")).toBe(true);
    expect(passesAtOnce(validatorFor, "/livez", "/livez?_=1700000000")).toBe(true);
    expect(passesAtOnce(validatorFor, "/livez", "/livez?")).toBe(true);
    for (const target of ["/livez", "/livez?verbose=1"]) {
      const res = await request(served).get(target);
      expect(res.status, target).toBe(200);
      expect(res.body).toEqual({ operationId: "livez" });
    }
  });

  it("ignores a query string on a free GET that takes no query parameter, also when it validates (security, responses)", async () => {
    expect((await request(served).get("/metrics?_=1")).status).toBe(200);
    expect((await request(app(true).served).get("/livez?verbose=1")).status).toBe(200);
  });

  it("refuses an unknown query key where the operation takes query parameters, or is paid (a field sent there would be charged at its default)", async () => {
    const items = await request(served).get("/items?limt=3");
    expect(items.status).toBe(400);
    expect(items.body.message).toContain("limt");
    const paid = await request(served).get("/paid?limit=3");
    expect(paid.status).toBe(400);
    expect(paid.body.message).toContain("limit");
  });

  it("runs the validator for another method, parameters, a request body or security", async () => {
    expect(passesAtOnce(validatorFor, "/livez", "/livez", "POST")).toBe(false);
    expect(passesAtOnce(validatorFor, "/livez", "/livez", "HEAD")).toBe(false);
    for (const path of ["/items", "/search", "/lookup", "/metrics"])
      expect(passesAtOnce(validatorFor, path), path).toBe(false);
    expect(passesAtOnce(app(false, secured).validatorFor, "/livez")).toBe(false);

    const post = await request(served).post("/livez");
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe("GET");
    expect((await request(served).get("/items?limit=11")).status).toBe(400);
    expect((await request(served).get("/items?limit=3")).body).toEqual({ operationId: "items" });
  });

  it("runs the validator for a request target other than the bare path, which it matches as sent", () => {
    expect(passesAtOnce(validatorFor, "/livez", "/livez#top")).toBe(false);
    expect(passesAtOnce(validatorFor, "/livez", "http://h/livez")).toBe(false);
  });

  it("runs the validator for every request when responses are validated", () => {
    expect(passesAtOnce(app(true).validatorFor, "/livez")).toBe(false);
  });
});

describe("each path's validator", () => {
  const schemas = {
    Order: { type: "object", required: ["item"], properties: { item: { $ref: "#/components/schemas/Item" } } },
    Item: {
      oneOf: [{ $ref: "#/components/schemas/Book" }, { $ref: "#/components/schemas/Pen" }],
      discriminator: {
        propertyName: "kind",
        mapping: { book: "#/components/schemas/Book", pen: "#/components/schemas/Pen" },
      },
    },
    Book: {
      type: "object",
      required: ["kind", "title"],
      properties: { kind: { const: "book" }, title: { type: "string", minLength: 1 } },
    },
    Pen: {
      type: "object",
      required: ["kind", "colour"],
      properties: { kind: { const: "pen" }, colour: { enum: ["red", "blue"] } },
    },
    // a reference that resolves nowhere, reached by one path only
    Broken: { $ref: "#/components/schemas/Missing" },
  };
  const body = (name: string) => ({
    required: true,
    content: { "application/json": { schema: { $ref: `#/components/schemas/${name}` } } },
  });
  const spec = {
    openapi: "3.1.0",
    info: { title: "validator components test", version: "1" },
    components: { schemas },
    paths: {
      "/orders": { post: { operationId: "order", requestBody: body("Order"), responses: ok } },
      "/broken": { post: { operationId: "broken", requestBody: body("Broken"), responses: ok } },
    },
  };
  const validatorFor = openApiValidation(spec, { validateResponses: false });
  const served = express()
    .use(express.json())
    .post("/orders", validatorFor("/orders"), (_req, res) => {
      res.json({ ok: true });
    })
    .use(((error, _req, res, _next) => {
      res.status(error.status ?? 500).json({ message: error.message });
    }) as ErrorRequestHandler);

  const order = (item: Record<string, string>) => request(served).post("/orders").send({ item });

  it("holds the schemas its path references and those they reference (a oneOf under a discriminator)", async () => {
    expect((await order({ kind: "book", title: "Dune" })).status).toBe(200);
    expect((await order({ kind: "pen", colour: "red" })).status).toBe(200);
    const bad = await order({ kind: "pen", colour: "green" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("colour");
  });

  it("holds only the schemas its path reaches: another path's unresolvable one does not break it", async () => {
    const res = await order({ kind: "book", title: "" });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("title");
  });
});
