// The request's one log line: written when the answer is sent, with what the route added, and also
// when the client goes away before the answer is complete (marked aborted), so that a paid answer's
// settlement is never missing from the log.
import { once } from "node:events";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import express from "express";
import { describe, expect, it } from "vitest";
import { createLogger } from "./logger.js";
import { logWith, requestContext } from "./request-context.js";

async function serve(handler: express.RequestHandler) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  const app = express()
    .use(requestContext(createLogger("info", sink)))
    .get("/paid", handler);
  const server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { lines, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/paid` };
}

describe("requestContext", () => {
  it("writes one line per request with the fields the route added", async () => {
    const { lines, server, url } = await serve((_req, res) => {
      logWith(res, { payment: "settled", transaction: "0xabc" });
      res.json({ ok: true });
    });
    const res = await fetch(url);
    expect(res.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(lines).toEqual([
      expect.objectContaining({
        msg: "request",
        method: "GET",
        path: "/paid",
        status: 200,
        payment: "settled",
        transaction: "0xabc",
      }),
    ]);
    expect(lines[0]).not.toHaveProperty("aborted");
    server.close();
  });

  it("writes the line, marked aborted, when the client goes away before the answer is complete", async () => {
    const { lines, server, url } = await serve((req, res) => {
      logWith(res, { payment: "settled", transaction: "0xdef" });
      res.writeHead(200, { "content-type": "application/json" });
      res.write("{");
      req.socket.once("close", () => res.end("}"));
    });
    const client = request(url);
    client.on("error", () => {});
    client.on("response", () => client.destroy());
    client.end();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(lines).toEqual([
      expect.objectContaining({ msg: "request", aborted: true, payment: "settled", transaction: "0xdef" }),
    ]);
    server.close();
  });
});
