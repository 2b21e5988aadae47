/**
 * The Bazaar discovery extension of a paid route's v2 challenge (x402 `specs/extensions/bazaar.md`),
 * derived from the contract: `info` says how to call the route (its example body or query) and
 * that it answers JSON; `schema` is a JSON Schema 2020-12 of `info` in which the input is the
 * operation's request schema and `output.example` the schema of its 200 envelope. Both schemas are
 * self-contained and carry no descriptions or examples: a v2 client echoes the extension in
 * `PAYMENT-SIGNATURE`, so it must stay well inside a request header (under 4 KB for every route);
 * the descriptions are in the OpenAPI document.
 */
import { parametersOf } from "../../../../lib/openapi-refs.mjs";
import { plainSchema } from "../../../schemas/plain-schema.js";
import type { OpenApiDocument, PaidRoute } from "../../contract/analytics-contract.js";

type Schema = Record<string, unknown>;

/** `X402.BazaarExtension` of the contract, its free-form objects typed as such (the generated type reads them as empty). */
export interface BazaarExtension {
  routeTemplate?: string;
  info: {
    input: {
      type: "http";
      method: "GET" | "POST";
      bodyType?: "json";
      body?: Schema;
      queryParams?: Schema;
      pathParams?: Record<string, string>;
    };
    output?: { type: "json" };
  };
  schema: Schema;
}
type Parameter = { $ref?: string; name?: string; in?: string; required?: boolean; schema?: unknown; example?: unknown };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: unknown; example?: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
};

const string = (value: string): Schema => ({ type: "string", const: value });

export function bazaarExtension(route: PaidRoute, document: OpenApiDocument): BazaarExtension {
  const operation = document.paths[route.path]?.[route.method] as Operation | undefined;
  if (!operation) throw new Error(`the contract has no ${route.method.toUpperCase()} ${route.path}`);
  const plain = (schema: unknown) => plainSchema(document, schema);

  let input: BazaarExtension["info"]["input"];
  let inputSchema: Schema;
  let routeTemplate: string | undefined;
  if (route.method === "post") {
    const body = operation.requestBody?.content["application/json"];
    input = { type: "http", method: "POST", bodyType: "json", body: (body?.example ?? {}) as Record<string, unknown> };
    inputSchema = {
      type: string("http"),
      method: string("POST"),
      bodyType: string("json"),
      body: body ? plain(body.schema) : { type: "object" },
    };
  } else {
    const parameters = parametersOf(document, operation.parameters);
    const query = parameters.filter((p) => p.in === "query");
    const path = parameters.filter((p) => p.in === "path");
    const examples = (list: Parameter[]) =>
      Object.fromEntries(list.flatMap((p) => (p.example === undefined ? [] : [[p.name, p.example]])));
    const object = (list: Parameter[]) => ({
      type: "object",
      properties: Object.fromEntries(list.map((p) => [p.name, plain(p.schema)])),
      required: list.filter((p) => p.required).map((p) => p.name),
    });
    input = { type: "http", method: "GET", queryParams: examples(query) };
    inputSchema = { type: string("http"), method: string("GET"), queryParams: object(query) };
    // A dynamic route, as the SDK's server describes one: its template, and the values of the URL at hand (here the
    // contract's examples; `atPath` puts in those of each request).
    if (path.length) {
      routeTemplate = route.expressPath;
      input.pathParams = examples(path) as Record<string, string>;
      inputSchema.pathParams = object(path);
    }
  }
  const envelope = operation.responses["200"]?.content?.["application/json"]?.schema;
  return {
    ...(routeTemplate ? { routeTemplate } : {}),
    info: { input, output: { type: "json" } },
    schema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        input: {
          type: "object",
          properties: inputSchema,
          required: Object.keys(inputSchema),
          additionalProperties: false,
        },
        output: {
          type: "object",
          properties: { type: string("json"), example: envelope ? plain(envelope) : { type: "object" } },
          required: ["type"],
        },
      },
      required: ["input"],
    },
  };
}

/** A dynamic route's extension with the path parameters of one request's URL. */
export function atPath(extension: BazaarExtension, params: Record<string, string>): BazaarExtension {
  const current = extension.info.input.pathParams;
  if (!current) return extension;
  const pathParams = Object.fromEntries(
    Object.keys(current).map((name) => [name, params[name] ?? current[name] ?? ""]),
  );
  return { ...extension, info: { ...extension.info, input: { ...extension.info.input, pathParams } } };
}

/** `X402.BazaarExtension`'s MCP form: how to call a paid tool (x402 `specs/extensions/bazaar.md`, the MCP input). */
export interface McpBazaarExtension {
  info: {
    input: { type: "mcp"; toolName: string; inputSchema: Schema; transport: "streamable-http" };
    output: { type: "json" };
  };
  schema: Schema;
}

/** The Bazaar extension of a paid tool: its name and input schema, on the streamable HTTP transport. */
export function mcpBazaarExtension(toolName: string, inputSchema: Schema): McpBazaarExtension {
  const input = { type: "mcp" as const, toolName, inputSchema, transport: "streamable-http" as const };
  return {
    info: { input, output: { type: "json" } },
    schema: {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        input: {
          type: "object",
          properties: {
            type: string("mcp"),
            toolName: string(toolName),
            inputSchema: { type: "object" },
            transport: string(input.transport),
          },
          required: ["type", "toolName", "inputSchema"],
        },
        output: { type: "object", properties: { type: string("json") }, required: ["type"] },
      },
      required: ["input"],
    },
  };
}
