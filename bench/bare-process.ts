/** The local limit: bare node:http or bare Express answering the same JSON a cached paid endpoint answers. */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import express from "express";

const body = readFileSync(process.env.BODY_FILE as string, "utf8");
// Express serializes an object per request, as the service does; node:http sends the bytes as they are.
const payload = JSON.parse(body);
const port = Number(process.env.PORT);

const server =
  process.env.BARE_KIND === "express"
    ? express()
        .use(express.json())
        .all(/.*/, (_req, res) => {
          res.json(payload);
        })
        .listen(port, "127.0.0.1")
    : createServer((_req, res) => {
        res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
        res.end(body);
      }).listen(port, "127.0.0.1");
process.on("SIGTERM", () => server.close(() => process.exit(0)));
