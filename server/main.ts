// Until the services land, `npm start` serves the published contract itself.
import { readFileSync } from "node:fs";
import express from "express";

function serveDocument(service: "analytics" | "registry", port: number) {
  const document = JSON.parse(readFileSync(new URL(`../generated/openapi/3.1/${service}.json`, import.meta.url), "utf8"));
  const app = express();
  app.get("/openapi.json", (_req, res) => res.json(document));
  app.listen(port, () => console.log(`${service}: http://localhost:${port}/openapi.json`));
}

serveDocument("analytics", Number(process.env.PORT ?? 4021));
serveDocument("registry", Number(process.env.REGISTRY_PORT ?? 4022));
