// The conformance package ships every test file the suite's config runs: a check added to the suite but not to the
// package's manifest would pass here and silently be missing from every installed run. The client package, which
// ships the stdio MCP bridge, carries the MCP registry listing's name as `mcpName`: the registry refuses the listing
// unless the published package says the same.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/processes.js";

const read = (file: string) => readFileSync(join(ROOT, file), "utf8");

describe("the conformance package's manifest", () => {
  it("bundles every test file of conformance/vitest.config.ts", () => {
    const names = /conformance\/\{([^}]+)\}\.test\./.exec(read("conformance/vitest.config.ts"))?.[1]?.split(",") ?? [];
    const entries = JSON.parse(read("packages/conformance/package.json")).build.entries as Record<string, string>;
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) expect(entries[`conformance/${name}.test.js`], name).toBe(`conformance/${name}.test.ts`);
  });
});

describe("the client package's manifest", () => {
  it("carries the MCP registry listing's name as mcpName, and the listing names this package at its version", () => {
    const manifest = JSON.parse(read("packages/client/package.json"));
    const listing = JSON.parse(read("generated/mcp/server.json"));
    expect(manifest.mcpName).toBe(listing.name);
    expect(listing.packages).toContainEqual(
      expect.objectContaining({ registryType: "npm", identifier: manifest.name, version: manifest.version }),
    );
  });
});
