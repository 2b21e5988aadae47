/**
 * The methods the current revision (2026-07-28) is answered with, once its checks passed (current-revision.ts):
 * `server/discover`, `tools/list` and `tools/call`; `resources/read` finds no resource (-32602, none is served);
 * any other method is a 404 with -32601, as the revision asks (`initialize`, `ping` and `logging/setLevel` are
 * gone from it). Every result carries `resultType`.
 */
import {
  CURRENT_REVISION,
  type CurrentRequest,
  isObject,
  type Reply,
  RPC_ERROR,
  resultReply,
  rpcError,
  SERVER_INFO_META,
} from "./current-revision.js";
import type { ToolServer } from "./streamable-endpoint.js";

/**
 * How long a client may keep `tools/list` and `server/discover`: the tools are built from the contract a
 * process starts with, so they change only with a deployment. Public: they are the same for every client.
 */
export const LIST_TTL_MS = 3_600_000;

/** The revisions `/mcp` speaks: the current one here, and the 2025-era ones through the SDK. */
export function supportedVersions(legacy: readonly string[]): string[] {
  return [CURRENT_REVISION, ...legacy.filter((version) => version !== CURRENT_REVISION)];
}

const serverInfo = (tools: ToolServer) => ({ [SERVER_INFO_META]: { name: tools.name, version: tools.version } });

function discover(tools: ToolServer, versions: readonly string[]) {
  return {
    resultType: "complete",
    supportedVersions: versions,
    capabilities: { tools: {}, ...(tools.extensions && { extensions: tools.extensions }) },
    instructions: tools.instructions,
    ttlMs: LIST_TTL_MS,
    cacheScope: "public",
    _meta: serverInfo(tools),
  };
}

async function callTool(request: CurrentRequest, tools: ToolServer, names: ReadonlySet<string>, requestId: string) {
  const { name, arguments: args, _meta: meta } = request.params;
  if (typeof name !== "string" || !names.has(name))
    return rpcError(200, request.id, RPC_ERROR.invalidParams, `no tool is named ${JSON.stringify(name)}`);
  if (args !== undefined && !isObject(args))
    return rpcError(200, request.id, RPC_ERROR.invalidParams, "params.arguments must be an object");
  const call = { name, ...(args && { arguments: args }), meta, requestId, binding: request.binding };
  // A paid server words the result for the binding itself; any other result is complete.
  if (tools.callJson) return resultReply(request.id, (await tools.callJson(call)) as string);
  return resultReply(request.id, JSON.stringify({ resultType: "complete", ...(await tools.call(call)) }));
}

/** The reply to an admitted current-revision request. */
export async function answerCurrent(
  request: CurrentRequest,
  tools: ToolServer,
  names: ReadonlySet<string>,
  versions: readonly string[],
  requestId: string,
): Promise<Reply> {
  switch (request.method) {
    case "server/discover":
      return resultReply(request.id, JSON.stringify(discover(tools, versions)));
    case "tools/list":
      return resultReply(
        request.id,
        JSON.stringify({
          resultType: "complete",
          tools: tools.tools,
          ttlMs: LIST_TTL_MS,
          cacheScope: "public",
          _meta: serverInfo(tools),
        }),
      );
    case "tools/call":
      return callTool(request, tools, names, requestId);
    case "resources/read":
      // No resources are served, so none is found: the revision's answer for a resource that does not exist.
      return rpcError(200, request.id, RPC_ERROR.invalidParams, "Resource not found", { uri: request.params.uri });
    default:
      return rpcError(404, request.id, RPC_ERROR.methodNotFound, `Method not found: ${request.method}`);
  }
}
