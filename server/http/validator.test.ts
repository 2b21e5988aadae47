// The per-path validators, and the GETs that leave them nothing to check.
import express, { type ErrorRequestHandler, type Request, type RequestHandler } from "express";
import request from "supertest";
import { describe, expect, it, vi } from "vitest";
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
    "/base/livez": { get: { operationId: "livez", responses: ok } },
  },
};

function app(validateResponses: boolean) {
  const validatorFor = openApiValidation(document, { validateResponses, prefixes: ["/base"] });
  const served = express();
  const answer: RequestHandler = (req, res) => {
    res.json({ operationId: (req as Request & { openapi?: { schema: { operationId: string } } }).openapi?.schema.operationId });
  };
  for (const path of Object.keys(document.paths)) served.all(path, ...validatorFor(path), answer);
  const errors: ErrorRequestHandler = (error, _req, res, _next) => {
    res
      .status(error.status ?? 500)
      .set(error.headers ?? {})
      .json({ message: error.message });
  };
  served.use(errors);
  return { served, validatorFor };
}

/** Whether the path's validators hand `GET url` on at once, without the validator's asynchronous checks. */
function passesAtOnce(validatorFor: (path: string) => RequestHandler[], path: string, url: string, method = "GET") {
  const next = vi.fn();
  const [first] = validatorFor(path);
  (first as RequestHandler)({ method, url, path: url.split("?")[0], headers: {}, query: {} } as Request, {} as never, next);
  return next.mock.calls.length === 1 && next.mock.calls[0]?.length === 0;
}

describe("the validator of a documented path", () => {
  const { served, validatorFor } = app(false);

  it("lets a parameterless GET without a query string through at once, with the operation's metadata", async () => {
    expect(passesAtOnce(validatorFor, "/livez", "/livez")).toBe(true);
    expect(passesAtOnce(validatorFor, "/base/livez", "/base/livez")).toBe(true);
    const res = await request(served).get("/livez");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ operationId: "livez" });
  });

  it("runs the validator for a query string, another method, parameters or security", async () => {
    expect(passesAtOnce(validatorFor, "/livez", "/livez?verbose=1")).toBe(false);
    expect(passesAtOnce(validatorFor, "/livez", "/livez", "POST")).toBe(false);
    expect(passesAtOnce(validatorFor, "/items", "/items")).toBe(false);
    expect(passesAtOnce(validatorFor, "/metrics", "/metrics")).toBe(false);

    const query = await request(served).get("/livez?verbose=1");
    expect(query.status).toBe(400);
    expect(query.body.message).toContain("verbose");
    const post = await request(served).post("/livez");
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe("GET");
    expect((await request(served).get("/items?limit=11")).status).toBe(400);
    expect((await request(served).get("/items?limit=3")).body).toEqual({ operationId: "items" });
  });

  it("runs the validator for every request when responses are validated", () => {
    expect(passesAtOnce(app(true).validatorFor, "/livez", "/livez")).toBe(false);
  });
});
