/**
 * The one MCP request answered without the SDK's transport: a single, well-formed `tools/call` of a
 * known tool, in a POST the transport would accept. It is the paid request agents send most, and the
 * transport's per-request work (a server, web-standard Request and Response objects, schema parsing)
 * costs more CPU than the paid call itself (docs/decisions/0010-direct-mcp-tool-calls.md). Anything
 * else, or anything this check is unsure of, goes to the SDK, which answers it and words its errors.
 */
import type { IncomingHttpHeaders } from "node:http";

export interface DirectToolCall {
  id: string | number;
  name: string;
  arguments?: Record<string, unknown>;
  meta?: Record<string, unknown>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** What the transport requires of a POST's headers: both response types accepted, a JSON body, a known protocol revision. */
function acceptedHeaders(headers: IncomingHttpHeaders, revisions: readonly string[]): boolean {
  const accept = headers.accept ?? "";
  if (!accept.includes("application/json") || !accept.includes("text/event-stream")) return false;
  if (!/^application\/json\s*(;|$)/i.test(headers["content-type"] ?? "")) return false;
  const revision = headers["mcp-protocol-version"];
  return revision === undefined || (typeof revision === "string" && revisions.includes(revision));
}

/**
 * The tool call `body` holds, when it can be answered directly: `tools` names the server's tools,
 * `revisions` the protocol revisions the SDK supports.
 */
export function directToolCall(
  headers: IncomingHttpHeaders,
  body: unknown,
  tools: ReadonlySet<string>,
  revisions: readonly string[],
): DirectToolCall | undefined {
  if (!isObject(body) || body.jsonrpc !== "2.0" || body.method !== "tools/call") return undefined;
  const { id, params } = body;
  if ((typeof id !== "string" && (typeof id !== "number" || !Number.isInteger(id))) || !isObject(params))
    return undefined;
  const { name, arguments: args, _meta: meta } = params;
  if (typeof name !== "string" || !tools.has(name)) return undefined;
  if ((args !== undefined && !isObject(args)) || (meta !== undefined && !isObject(meta))) return undefined;
  if (!acceptedHeaders(headers, revisions)) return undefined;
  return { id, name, ...(args && { arguments: args }), ...(meta && { meta }) };
}
