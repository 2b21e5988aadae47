/**
 * An MCP endpoint over streamable HTTP, stateless: each POST is one JSON-RPC exchange answered as
 * JSON, with a server of its own (the SDK's recommended form without sessions), so that any worker
 * of any instance answers any call. GET (a server-sent stream) and DELETE (a session's end) have
 * nothing to serve without sessions: 405 with `Allow: POST`. The tools and what a call does are the
 * service's own (`ToolServer`); this module knows only the protocol.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Request, RequestHandler, Response } from "express";
import type { Logger } from "pino";
import { allowedHosts } from "./allowed-host.js";

/** JSON-RPC's "invalid request", for what is refused before the protocol is spoken. */
const INVALID_REQUEST = -32600;

/** The SDK, loaded on the first MCP request: a service start-up that never serves MCP does not pay for it. */
type Sdk = {
  server: typeof import("@modelcontextprotocol/sdk/server/index.js");
  http: typeof import("@modelcontextprotocol/sdk/server/streamableHttp.js");
  types: typeof import("@modelcontextprotocol/sdk/types.js");
};
let sdk: Promise<Sdk> | undefined;
const loadSdk = () =>
  (sdk ??= Promise.all([
    import("@modelcontextprotocol/sdk/server/index.js"),
    import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]).then(([server, http, types]) => ({ server, http, types })));

/** The path every service serves MCP on. */
export const MCP_PATH = "/mcp";

export interface ToolServer {
  name: string;
  version: string;
  /** What an agent should know of every tool (the MCP `instructions`). */
  instructions: string;
  tools: Tool[];
  /** A call's result, or undefined for a tool the server does not have. */
  call(call: {
    name: string;
    arguments?: Record<string, unknown>;
    meta?: Record<string, unknown>;
    requestId: string;
  }): Promise<CallToolResult | undefined>;
}

function rpcError(res: Response, status: number, message: string, headers: Record<string, string> = {}): void {
  res
    .status(status)
    .set(headers)
    .json({ jsonrpc: "2.0", error: { code: INVALID_REQUEST, message }, id: null });
}

function protocolServer({ server: { Server }, types }: Sdk, tools: ToolServer, requestId: string): Server {
  const server = new Server(
    { name: tools.name, version: tools.version },
    { capabilities: { tools: {} }, instructions: tools.instructions },
  );
  server.setRequestHandler(types.ListToolsRequestSchema, () => ({ tools: tools.tools }));
  server.setRequestHandler(types.CallToolRequestSchema, async ({ params }) => {
    const result = await tools.call({ name: params.name, arguments: params.arguments, meta: params._meta, requestId });
    if (!result) throw new types.McpError(types.ErrorCode.InvalidParams, `no tool is named ${JSON.stringify(params.name)}`);
    return result;
  });
  return server;
}

/** The endpoint of the tools `build` makes, on the first request that needs them (with the SDK). */
export function mcpEndpoint(build: () => ToolServer, options: { publicBaseUrl: string | undefined; logger: Logger }): RequestHandler {
  const check = allowedHosts(options.publicBaseUrl);
  let tools: ToolServer | undefined;
  return async function mcp(req: Request, res: Response) {
    const refused = check(req.host, req.get("origin"));
    if (refused === "host")
      return rpcError(res, 403, `Host ${req.host ?? "(none)"} is not this service's; set PUBLIC_BASE_URL to the address clients use`);
    if (refused === "origin") return rpcError(res, 403, `Origin ${req.get("origin")} is not this service's`);
    if (req.method !== "POST")
      return rpcError(res, 405, "this endpoint is stateless: send each JSON-RPC message in a POST", { Allow: "POST" });
    try {
      const loaded = await loadSdk();
      tools ??= build();
      const server = protocolServer(loaded, tools, req.requestId ?? "");
      const transport = new loaded.http.StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
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
