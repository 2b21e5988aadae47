/**
 * An MCP endpoint over streamable HTTP, stateless: each POST is one JSON-RPC exchange answered as
 * JSON, with a server of its own (the SDK's recommended form without sessions), so that any worker
 * of any instance answers any call. GET (a server-sent stream) and DELETE (a session's end) have
 * nothing to serve without sessions: 405 with `Allow: POST`. The tools and what a call does are the
 * service's own (`ToolServer`); this module knows only the protocol.
 */

import type { IncomingMessage, ServerResponse } from "node:http";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "pino";
import { forwardedHost, type TrustProxy, trustedPeer } from "../http/origin.js";
import { allowedHosts } from "./allowed-host.js";
import { answerCurrent, supportedVersions } from "./current-methods.js";
import { admit, isCurrentRevision, type Reply, type X402Binding } from "./current-revision.js";
import { type DirectToolCall, directToolCall } from "./direct-tool-call.js";

/** JSON-RPC's "invalid request", for what is refused before the protocol is spoken. */
const INVALID_REQUEST = -32600;

/** The SDK, loaded on the first MCP request: a service start-up that never serves MCP does not pay for it. */
type Sdk = {
  server: typeof import("@modelcontextprotocol/sdk/server/index.js");
  http: typeof import("@modelcontextprotocol/sdk/server/streamableHttp.js");
  types: typeof import("@modelcontextprotocol/sdk/types.js");
  /** One JSON Schema validator for every request's server: each server would otherwise build its own Ajv. */
  validator: import("@modelcontextprotocol/sdk/validation/ajv").AjvJsonSchemaValidator;
};
let sdk: Promise<Sdk> | undefined;
const loadSdk = () =>
  (sdk ??= Promise.all([
    import("@modelcontextprotocol/sdk/server/index.js"),
    import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
    import("@modelcontextprotocol/sdk/validation/ajv"),
  ]).then(([server, http, types, ajv]) => ({ server, http, types, validator: new ajv.AjvJsonSchemaValidator() })));

/** The path every service serves MCP on. */
export const MCP_PATH = "/mcp";

export interface ToolServer {
  name: string;
  version: string;
  /** What an agent should know of every tool (the MCP `instructions`). */
  instructions: string;
  tools: Tool[];
  /** The extensions `server/discover` advertises on the current revision (x402's `org.x402/payment`). */
  extensions?: Record<string, Record<string, unknown>>;
  /** A call's result, or undefined for a tool the server does not have. */
  call(call: ToolCallRequest): Promise<CallToolResult | undefined>;
  /** The same result as JSON text, where the server writes it faster than `JSON.stringify` of the result would. */
  callJson?(call: ToolCallRequest): Promise<string | undefined>;
}

export interface ToolCallRequest {
  name: string;
  arguments?: Record<string, unknown>;
  meta?: Record<string, unknown>;
  requestId: string;
  /**
   * On the current revision (2026-07-28), how a challenge is said (x402's extension binding when the client
   * advertises it), and every result carries `resultType`; absent for a 2025-era call, answered as before.
   */
  binding?: X402Binding;
}

function sendJsonText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    ...headers,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
  });
  res.end(text);
}

function rpcError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  sendJsonText(
    res,
    status,
    JSON.stringify({ jsonrpc: "2.0", error: { code: INVALID_REQUEST, message }, id: null }),
    headers,
  );
}

function protocolServer({ server: { Server }, types, validator }: Sdk, tools: ToolServer, requestId: string): Server {
  const server = new Server(
    { name: tools.name, version: tools.version },
    { capabilities: { tools: {} }, instructions: tools.instructions, jsonSchemaValidator: validator },
  );
  server.setRequestHandler(types.ListToolsRequestSchema, () => ({ tools: tools.tools }));
  server.setRequestHandler(types.CallToolRequestSchema, async ({ params }) => {
    const result = await tools.call({ name: params.name, arguments: params.arguments, meta: params._meta, requestId });
    if (!result)
      throw new types.McpError(types.ErrorCode.InvalidParams, `no tool is named ${JSON.stringify(params.name)}`);
    return result;
  });
  return server;
}

/** A current-revision request's answer: refused by its checks, or answered by its method. */
async function answerCurrentRevision(req: McpRequest, res: ServerResponse, tools: ToolServer, names: Set<string>) {
  const versions = supportedVersions((await loadSdk()).types.SUPPORTED_PROTOCOL_VERSIONS);
  const admitted = admit(req.headers, req.body, versions);
  const reply: Reply =
    "method" in admitted ? await answerCurrent(admitted, tools, names, versions, req.requestId ?? "") : admitted;
  if (reply.body === undefined) return void res.writeHead(reply.status).end();
  sendJsonText(res, reply.status, reply.body);
}

/** A direct tool call's answer, as the SDK's transport sends a JSON response. */
async function answerDirectly(
  res: ServerResponse,
  tools: ToolServer,
  call: DirectToolCall,
  requestId: string,
): Promise<void> {
  const { id, name, arguments: args, meta } = call;
  const request: ToolCallRequest = { name, ...(args && { arguments: args }), ...(meta && { meta }), requestId };
  const result = tools.callJson ? await tools.callJson(request) : JSON.stringify(await tools.call(request));
  sendJsonText(res, 200, `{"result":${result},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`);
}

/** A request as the endpoint reads it: Node's, its JSON body parsed. */
export type McpRequest = IncomingMessage & { body?: unknown; requestId?: string };

/** The endpoint of the tools `build` makes, on the first request that needs them (with the SDK). */
export function mcpEndpoint(
  build: () => ToolServer,
  options: { publicBaseUrl: string | undefined; trustProxy: TrustProxy; logger: Logger },
): (req: McpRequest, res: ServerResponse) => Promise<void> {
  const check = allowedHosts(options.publicBaseUrl);
  const trusted = trustedPeer(options.trustProxy);
  let tools: ToolServer | undefined;
  let names: Set<string> | undefined;
  return async function mcp(req, res) {
    // Behind a trusted proxy (`TRUST_PROXY`), the host the client named is the proxy's `X-Forwarded-Host`.
    const host = forwardedHost(req, trusted);
    const origin = req.headers.origin;
    const refused = check(host, origin);
    if (refused === "host")
      return rpcError(
        res,
        403,
        `Host ${host ?? "(none)"} is not this service's; set PUBLIC_BASE_URL to the address clients use`,
      );
    if (refused === "origin") return rpcError(res, 403, `Origin ${origin} is not this service's`);
    if (req.method !== "POST")
      return rpcError(res, 405, "this endpoint is stateless: send each JSON-RPC message in a POST", { Allow: "POST" });
    try {
      const loaded = await loadSdk();
      tools ??= build();
      names ??= new Set(tools.tools.map((tool) => tool.name));
      if (isCurrentRevision(req.headers, req.body)) return await answerCurrentRevision(req, res, tools, names);
      const direct = directToolCall(req.headers, req.body, names, loaded.types.SUPPORTED_PROTOCOL_VERSIONS);
      if (direct) return await answerDirectly(res, tools, direct, req.requestId ?? "");
      const server = protocolServer(loaded, tools, req.requestId ?? "");
      const transport = new loaded.http.StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      res.on("close", () => {
        transport.close().catch(() => {});
        server.close().catch(() => {});
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      options.logger.error({ err: error, requestId: req.requestId }, "MCP request failed");
      if (!res.headersSent) rpcError(res, 500, "the MCP request failed");
    }
  };
}
