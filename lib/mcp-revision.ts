/**
 * MCP's current revision, 2026-07-28, in the terms both of its ends read: the service's `/mcp`
 * (server/mcp/current-revision.ts) and the paying bridge, which serves the revision to its host over stdio
 * and speaks it to the service (client/mcp-current-host.ts, client/mcp-upstream.ts), and the conformance suite,
 * which speaks it to any target (conformance/mcp-current.ts). Pure: names, codes, the checks of a request's
 * `_meta` that need no transport, and what a client puts on each request.
 */

export const CURRENT_REVISION = "2026-07-28";
/** x402's MCP extension: a client advertising it gets `resultType: "payment_required"` for a challenge. */
export const X402_EXTENSION = "org.x402/payment";
export const VERSION_META = "io.modelcontextprotocol/protocolVersion";
export const CLIENT_INFO_META = "io.modelcontextprotocol/clientInfo";
export const CAPABILITIES_META = "io.modelcontextprotocol/clientCapabilities";
export const SERVER_INFO_META = "io.modelcontextprotocol/serverInfo";

/** The JSON-RPC codes the revision answers with (its own: -32020 and -32022). */
export const RPC_ERROR = {
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  headerMismatch: -32020,
  unsupportedVersion: -32022,
} as const;

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A message's `params._meta`, when it has one. */
export const metaOf = (body: unknown) =>
  isObject(body) && isObject(body.params) && isObject(body.params._meta) ? body.params._meta : undefined;

/**
 * Whether a message is the current revision's by its body: it asks `server/discover`, or names any revision in
 * `_meta` (only the current revision puts one there, so an unknown one is answered in its terms).
 */
export function namesCurrentRevision(body: unknown): boolean {
  if (isObject(body) && body.method === "server/discover") return true;
  const meta = metaOf(body);
  return meta !== undefined && VERSION_META in meta;
}

/** The first `_meta` key the revision requires that is missing or malformed; undefined when both are there. */
export function malformedMetaKey(meta: Record<string, unknown>): string | undefined {
  if (typeof meta[VERSION_META] !== "string") return VERSION_META;
  if (!isObject(meta[CAPABILITIES_META])) return CAPABILITIES_META;
  return undefined;
}

/** Whether capabilities (a request's, or a server's `server/discover` ones) name `extension`. */
export function namesExtension(capabilities: unknown, extension: string): boolean {
  const extensions = isObject(capabilities) ? capabilities.extensions : undefined;
  return isObject(extensions) && isObject(extensions[extension]);
}

/**
 * A client's `params._meta` on the revision: the revision, the client and its capabilities, x402's extension
 * among them when the client advertises it (`advertise`).
 */
export function requestMeta(
  advertise: boolean,
  clientInfo: { name: string; version: string },
): Record<string, unknown> {
  return {
    [VERSION_META]: CURRENT_REVISION,
    [CLIENT_INFO_META]: clientInfo,
    [CAPABILITIES_META]: advertise ? { extensions: { [X402_EXTENSION]: {} } } : {},
  };
}

/** The headers a client's request of `method` carries on the revision (`tool`: a `tools/call`'s tool name). */
export function requestHeaders(method: string, tool?: string): Record<string, string> {
  return {
    "MCP-Protocol-Version": CURRENT_REVISION,
    "Mcp-Method": method,
    ...(tool !== undefined && { "Mcp-Name": tool }),
  };
}
