/**
 * The registry's read operations as free MCP tools, built from its document: one tool per `Agents_`
 * operation, named by it without the prefix (`listAgents`, `agentExists`, ...), taking its path and
 * query parameters as arguments (checked, defaults filled in, as the HTTP validator does) and
 * answering its 200 body; a refusal of the handler's (an invalid name, an unknown agent) is a tool
 * error with the HTTP answer's code, sentence and named fields.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { toErrorResponse } from "../http/errors.js";
import type { RegistryDocument } from "../registry/document.js";
import { type Handler, handlers, type OperationId } from "../registry/handlers.js";
import type { RegistryStore } from "../registry/store.js";
import { plainSchema } from "../schemas/plain-schema.js";
import type { ToolServer } from "./streamable-endpoint.js";

type Parameter = { name: string; in: string; required?: boolean; schema?: unknown };
type Operation = {
  operationId: string;
  summary?: string;
  parameters?: (Parameter | { $ref: string })[];
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};

interface FreeTool {
  tool: Tool;
  id: OperationId;
  /** Where each argument goes in the handler's input. */
  pathNames: string[];
  check: ValidateFunction;
}

const text = (value: string) => ({ type: "text" as const, text: value });

function toolOf(document: RegistryDocument, path: string, operation: Operation, ajv: Ajv2020): FreeTool {
  const parameters = (operation.parameters ?? []).filter(
    (p): p is Parameter => "name" in p && (p.in === "path" || p.in === "query"),
  );
  const inputSchema = {
    type: "object" as const,
    properties: Object.fromEntries(parameters.map((p) => [p.name, plainSchema(document, p.schema ?? {})])),
    required: parameters.filter((p) => p.required).map((p) => p.name),
    additionalProperties: false,
  };
  const ok = operation.responses["200"]?.content?.["application/json"]?.schema;
  const name = operation.operationId.replace(/^Agents_/, "");
  return {
    tool: {
      name,
      title: operation.summary ?? name,
      description: `${operation.summary ?? name} (GET ${path}). Free.`,
      inputSchema,
      // The 200 body, or (in an error result) the contract's error body.
      ...(ok !== undefined && {
        outputSchema: { type: "object" as const, anyOf: [plainSchema(document, ok), { required: ["error"] }] },
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    id: operation.operationId as OperationId,
    pathNames: parameters.filter((p) => p.in === "path").map((p) => p.name),
    check: ajv.compile(inputSchema),
  };
}

async function run(tool: FreeTool, args: Record<string, unknown>, store: RegistryStore): Promise<CallToolResult> {
  const input = { ...args };
  if (!tool.check(input)) {
    const errors = (tool.check.errors ?? []).map((e) => {
      const field =
        (e.params as { additionalProperty?: string; missingProperty?: string }).additionalProperty ??
        (e.params as { missingProperty?: string }).missingProperty ??
        e.instancePath.replace(/^\//, "");
      return { field, message: e.message ?? "is invalid" };
    });
    const message = `Invalid arguments: ${errors.map((e) => `${e.field}: ${e.message}`).join("; ")}`;
    return {
      isError: true,
      structuredContent: { error: "invalid_request", message, errors },
      content: [text(message)],
    };
  }
  const path = Object.fromEntries(tool.pathNames.map((name) => [name, input[name]]));
  const query = Object.fromEntries(Object.entries(input).filter(([name]) => !tool.pathNames.includes(name)));
  try {
    const { body } = await (handlers[tool.id] as Handler<OperationId>)({ path, query } as never, store);
    return { structuredContent: body as Record<string, unknown>, content: [text(JSON.stringify(body))] };
  } catch (error) {
    const { body } = toErrorResponse(error);
    return { isError: true, structuredContent: { ...body }, content: [text(body.message)] };
  }
}

/** The registry's MCP server over `store`. */
export function registryToolServer(document: RegistryDocument, store: RegistryStore): ToolServer {
  const ajv = new Ajv2020({ strict: false, allErrors: true, useDefaults: true, coerceTypes: false });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  const tools = Object.entries(document.paths)
    .map(([path, item]) => [path, item.get as unknown as Operation] as const)
    .filter(([, operation]) => operation && Object.hasOwn(handlers, operation.operationId))
    .map(([path, operation]) => toolOf(document, path, operation, ajv));
  const byName = new Map(tools.map((tool) => [tool.tool.name, tool]));
  return {
    name: "defi-intel-registry",
    version: document.info.version,
    instructions:
      "The agent registry, read-only and free: passports, name availability, aliases, identity cards, manifests, skills.",
    tools: tools.map((tool) => tool.tool),
    call: async ({ name, arguments: args }) => {
      const tool = byName.get(name);
      return tool && run(tool, args ?? {}, store);
    },
  };
}
