/**
 * The `/docs` page of both services: Scalar's API reference of the service's own document. The
 * script is Scalar's standalone browser build, served by the service itself from the installed
 * `@scalar/api-reference` package (docsAssets), so the page needs no CDN and works offline.
 * Everything in Scalar that would call out (fonts, telemetry, its agent and MCP features) is off.
 */

import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import express, { type RequestHandler } from "express";
import { ApiError, invalidField } from "../http/errors.js";

/** Where the page loads its assets from (the script Scalar's `standalone.js`, and what it loads in turn). */
export const DOCS_ASSETS_PATH = "/docs/assets";

/** The folder of Scalar's browser build: `standalone.js` and the chunks it may load. */
function scalarBrowserBuild(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve("@scalar/api-reference")), "browser");
}

/**
 * Serves Scalar's browser build under `DOCS_ASSETS_PATH` (mount it there); the files change only
 * with the pinned version. Its refusals are the services' JSON errors: another method is a 405, a
 * file it will not serve (missing, or outside the folder) a 404, a path it cannot decode a 400.
 * Ranges are not offered: a browser loads these scripts whole.
 */
export function docsAssets(): RequestHandler {
  const serve = express.static(scalarBrowserBuild(), {
    index: false,
    maxAge: "1d",
    fallthrough: false,
    acceptRanges: false,
  });
  return function docsAssets(req, res, next) {
    if (req.method !== "GET" && req.method !== "HEAD")
      return next(
        new ApiError(405, "method_not_allowed", "Method not allowed on this path.", {}, { Allow: "GET, HEAD" }),
      );
    serve(req, res, (error?: { status?: number }) => {
      if (!error) return next();
      if (error.status === 400)
        return next(invalidField("path", req.originalUrl.split("?")[0] as string, "is not valid percent-encoding"));
      if (error.status === 403 || error.status === 404) return next(new ApiError(404, "not_found", "No such file."));
      next(error);
    });
  };
}

/** JSON for an inline script: `<` escaped so no value can close the script element. */
const inlineJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string,
  );

/**
 * The HTML of the reference page for the document at `documentUrl` (a path on the same service).
 * @param title the document's `info.title`, shown in the browser tab until Scalar takes over.
 */
export function referencePage({ title, documentUrl }: { title: string; documentUrl: string }): string {
  const config = {
    url: documentUrl,
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: "never",
    defaultOpenFirstTag: true,
    documentDownloadType: "json",
  };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<div id="reference"></div>
<script src="${DOCS_ASSETS_PATH}/standalone.js"></script>
<script>Scalar.createApiReference("#reference", ${inlineJson(config)});</script>
</body>
</html>
`;
}
