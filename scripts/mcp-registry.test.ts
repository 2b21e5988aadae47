// The MCP registry's listing (generated/mcp/server.json) against the registry's published schema, vendored in
// test/fixtures/mcp-registry/, and against what it describes: the contract's service and tools, the package that
// ships the stdio bridge (the registry checks that package's `mcpName` against `name`), and the bridge's own options.
import { readFileSync } from "node:fs";
import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { KEY_VARIABLES } from "../client/keys.js";
import { NETWORKS } from "../client/networks.js";
import { MCP_PATH } from "../server/mcp/streamable-endpoint.js";
import { PUBLIC_ORIGIN, SCHEMA } from "./mcp-registry.mjs";

const json = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8"));

interface NamedArgument {
  type: string;
  name: string;
  default?: string;
  choices?: string[];
}
interface Listing {
  $schema: string;
  name: string;
  title: string;
  description: string;
  version: string;
  remotes: { type: string; url: string }[];
  packages: {
    registryType: string;
    identifier: string;
    version: string;
    transport: { type: string };
    packageArguments: NamedArgument[];
    environmentVariables: { name: string; isSecret?: boolean }[];
  }[];
  _meta: Record<string, { contractVersion: string }>;
}

const listing: Listing = json("../generated/mcp/server.json");
const schema = json("../test/fixtures/mcp-registry/server.schema.json");
const contract = json("../generated/openapi/3.1/analytics.json");
const manifest = json("../packages/client/package.json");
const bridgeSource = readFileSync(new URL("./mcp.ts", import.meta.url), "utf8");

/**
 * The registry's schema is draft-07, Ajv's default class. Plain draft-07, as the registry's own validator applies it:
 * Ajv's strict mode refuses what the schema validly does (a `required` naming a property of a sibling `allOf`
 * branch, `example` annotations). Formats (`uri`) are checked.
 */
function registryValidator(): ValidateFunction {
  const ajv = new Ajv({ allErrors: true, strict: false });
  (addFormats as unknown as (ajv: Ajv) => void)(ajv);
  return ajv.compile(schema);
}

const validate = registryValidator();

describe("the MCP registry listing", () => {
  it("is valid against the registry's schema, the one its $schema names", () => {
    expect(schema.$schema).toBe("http://json-schema.org/draft-07/schema#");
    expect(listing.$schema).toBe(schema.$id);
    expect(SCHEMA).toBe(schema.$id);
    expect(validate(listing), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it("would be refused by that schema with a description over 100 characters or a name without its namespace", () => {
    for (const broken of [
      { ...listing, description: "x".repeat(101) },
      { ...listing, name: "analytics" },
      { ...listing, remotes: [{ type: "streamable-http", url: "api.example.com/mcp" }] },
    ])
      expect(validate(broken)).toBe(false);
  });

  it("names the service's /mcp over streamable HTTP at an https origin that is not this machine, as the registry asks", () => {
    expect(listing.remotes).toEqual([{ type: "streamable-http", url: `${PUBLIC_ORIGIN}${MCP_PATH}` }]);
    const url = new URL(listing.remotes[0]?.url ?? "");
    expect(url.protocol).toBe("https:");
    expect(["localhost", "127.0.0.1", "[::1]"]).not.toContain(url.hostname);
  });

  it("takes its title, version and tool count from the contract", () => {
    const tools = new Set<string>();
    type PathItem = { post?: { operationId: string; "x-payment-info"?: unknown } };
    for (const item of Object.values(contract.paths) as PathItem[])
      if (item.post?.["x-payment-info"]) tools.add(item.post.operationId.replace(/^[^_]+_/, ""));
    expect(tools.size).toBe(28);
    expect(listing.title).toBe(contract.info.title);
    expect(listing.description.startsWith(`${tools.size} `)).toBe(true);
    expect(listing._meta["io.modelcontextprotocol.registry/publisher-provided"]?.contractVersion).toBe(
      contract.info.version,
    );
  });
});

describe("the listing's package: the stdio bridge in @defi-intel/client", () => {
  const [bridge] = listing.packages;

  it("is the client package at its version, whose manifest carries the listing's name as mcpName", () => {
    expect(listing.name).toMatch(/^io\.github\.[a-zA-Z0-9-]+\/[a-zA-Z0-9._-]+$/);
    expect(manifest.mcpName).toBe(listing.name);
    expect(bridge).toMatchObject({
      registryType: "npm",
      identifier: manifest.name,
      version: manifest.version,
      transport: { type: "stdio" },
    });
    expect(listing.version).toBe(manifest.version);
  });

  it("runs the bridge: the package's only command (so `npx <package>` starts it) is bundled from scripts/mcp.ts", () => {
    const commands = Object.values(manifest.bin) as string[];
    expect(commands).toHaveLength(1);
    expect(manifest.build.entries[commands[0] as string]).toBe("scripts/mcp.ts");
  });

  it("passes only options the bridge takes, with the bridge's own defaults and networks", () => {
    const valued = /valued: \[([^\]]+)\]/.exec(bridgeSource)?.[1]?.match(/--[a-z-]+/g) ?? [];
    expect(valued.length).toBeGreaterThan(3);
    for (const argument of bridge?.packageArguments ?? []) {
      expect(argument.type).toBe("named");
      expect(valued, argument.name).toContain(argument.name);
      // The bridge's default origin is this machine's; the listing's is the public one.
      const fallback = argument.name === "--base-url" ? undefined : argument.default;
      if (fallback) expect(bridgeSource, argument.name).toContain(`values["${argument.name}"] ?? "${fallback}"`);
    }
    expect(bridge?.packageArguments.find((argument) => argument.name === "--base-url")?.default).toBe(PUBLIC_ORIGIN);
    const network = bridge?.packageArguments.find((argument) => argument.name === "--network");
    expect(new Set(network?.choices)).toEqual(new Set(Object.keys(NETWORKS)));
  });

  it("asks for the bridge's keys as secrets, by the names the client reads them from", () => {
    const variables = new Map(bridge?.environmentVariables.map((variable) => [variable.name, variable]));
    for (const name of Object.values(KEY_VARIABLES)) expect(variables.get(name)?.isSecret, name).toBe(true);
    for (const name of variables.keys()) if (!name.startsWith("X402_")) expect(bridgeSource).toContain(name);
  });
});
