/**
 * The registry's description of itself: `GET /` (every operation with its path), `GET /openapi.json`
 * (the document, with `servers` set to the deployment's public origin: `REGISTRY_PUBLIC_BASE_URL`, or
 * the request's own when its `Host` is valid) and `GET /docs` (its API reference
 * page). All are built once from the generated document; only the origin varies per request.
 */
import type { RequestHandler } from "express";
import type { components } from "../../generated/types/registry.js";
import { requestOrigin } from "../http/origin.js";
import { referencePage } from "../reference-page/reference-page.js";
import type { RegistryDocument } from "./document.js";
import { MAX_AGE } from "./handlers.js";

type RegistryInfo = components["schemas"]["RegistryInfo"];

export function serviceDocumentHandlers(
  document: RegistryDocument,
  publicBaseUrl?: string,
): Record<string, RequestHandler> {
  const info: RegistryInfo = {
    service: "agent-registry",
    version: document.info.version,
    status: "ok",
    operations: Object.entries(document.paths).map(([path, item]) => ({
      operationId: item.get?.operationId as string,
      method: "GET",
      path,
      summary: item.get?.summary ?? (item.get?.operationId as string),
    })),
    documents: { openapi: "/openapi.json", docs: "/docs" },
  };
  const page = referencePage({ title: document.info.title, documentUrl: "/openapi.json" });
  const cacheable = `public, max-age=${MAX_AGE.document}`;
  return {
    Service_serviceInfo: (_req, res) => {
      res.set("Cache-Control", cacheable).json(info);
    },
    Service_openApiDocument: (req, res) => {
      res
        .set("Cache-Control", cacheable)
        .json({ ...document, servers: [{ url: requestOrigin(req, publicBaseUrl), description: "This deployment" }] });
    },
    Service_docsPage: (_req, res) => {
      res.set("Cache-Control", cacheable).type("text/html").send(page);
    },
  };
}
