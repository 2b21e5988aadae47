/**
 * The local limits: bare node:http or bare Express answering the same JSON a cached paid endpoint
 * answers, and the validated floor: Express with the JSON body parser and the contract's
 * express-openapi-validator for one paid path (as the service builds it), answering that JSON to a
 * POST without any payment work. The floor is what the libraries a paid request passes through
 * cost before the project's own code runs.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import express from "express";
import { NETWORKS } from "../lib/networks.js";
import { loadAnalyticsContract } from "../server/analytics/contract/analytics-contract.js";
import { openApiValidation } from "../server/http/validator.js";

export type BareKind = "http" | "express" | "validated";

const body = readFileSync(process.env.BODY_FILE as string, "utf8");
// Express serializes an object per request, as the service does; node:http sends the bytes as they are.
const payload = JSON.parse(body);
const port = Number(process.env.PORT);
const kind = process.env.BARE_KIND as BareKind;

function validated(path: string): express.Express {
  const validatorFor = openApiValidation(loadAnalyticsContract().document, {
    validateResponses: false,
    prefixes: NETWORKS.map((network) => network.prefix),
  });
  return express()
    .use(express.json({ limit: "100kb" }))
    .all(path, validatorFor(path), (_req, res) => {
      res.json(payload);
    });
}

const server =
  kind === "http"
    ? createServer((_req, res) => {
        res.writeHead(200, {
          "content-type": "application/json; charset=utf-8",
          "content-length": Buffer.byteLength(body),
        });
        res.end(body);
      }).listen(port, "127.0.0.1")
    : kind === "validated"
      ? validated(process.env.VALIDATED_PATH as string).listen(port, "127.0.0.1")
      : express()
          .use(express.json())
          .all(/.*/, (_req, res) => {
            res.json(payload);
          })
          .listen(port, "127.0.0.1");
process.on("SIGTERM", () => server.close(() => process.exit(0)));
