/** Helpers for registry tests: a seeded in-memory app, and requests checked against the contract. */
import type { Express } from "express";
import request from "supertest";
import { expect } from "vitest";
import { loadDoc } from "../../conformance/openapi-doc.js";
import { createResponseValidator } from "../../conformance/schema-validator.js";
import { createLogger } from "../../server/http/logger.js";
import { createRegistryApp } from "../../server/registry/app.js";
import { openRegistryStore } from "../../server/registry/seed.js";
import type { RegistryStore } from "../../server/registry/store.js";

// the independent validator reads the document on its own
const document = loadDoc("3.1", "registry");
const contract = createResponseValidator(document);

/** The app over `store` (default: a fresh seeded in-memory store), validating its own answers too. */
export async function testApp(store?: RegistryStore): Promise<{ app: Express; store: RegistryStore }> {
  const over = store ?? (await openRegistryStore(":memory:"));
  return {
    app: createRegistryApp({ store: over, logger: createLogger("silent"), validateResponses: true }),
    store: over,
  };
}

/** The path of a documented operation with its parameters filled in (URL-encoded). */
export function pathOf(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => encodeURIComponent(params[key] ?? ""));
}

/**
 * GETs a documented path and checks the answer independently of the app's own validation: the body
 * against the document's schema for its status, and the headers every 200 and 304 must carry.
 */
export async function getChecked(
  app: Express,
  template: string,
  params: Record<string, string> = {},
  headers: Record<string, string> = {},
) {
  const [path, query = ""] = template.split("?");
  const response = await request(app)
    .get(`${pathOf(path as string, params)}${query ? `?${query}` : ""}`)
    .set(headers);
  if (response.status === 304) {
    expect(response.text, "a 304 has no body").toBe("");
  } else if (response.headers["content-type"]?.startsWith("text/html")) {
    expect(
      document.paths[path as string]?.get?.responses[String(response.status)]?.content?.["text/html"],
      `${template} is an HTML page`,
    ).toBeDefined();
  } else {
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(
      contract.validate("get", path as string, response.status, response.body),
      `${template} ${response.status}`,
    ).toEqual([]);
  }
  if (response.status === 200 || response.status === 304) {
    expect(response.headers.etag).toMatch(/^"[^"]+"$/);
    expect(response.headers["cache-control"]).toMatch(/^public, max-age=\d+$/);
  }
  return response;
}
