/**
 * MCP's current revision, 2026-07-28, served beside the SDK's 2025-era messages on the same `/mcp`
 * (docs/decisions/0018-current-mcp-revision-beside-the-sdk.md). It is stateless by definition: no
 * `initialize`; every request names its revision, its client and its capabilities in `params._meta`, and
 * mirrors its method (and a tool call's name) in the `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name`
 * headers, which must agree with the body. Every result carries `resultType`; `tools/list` carries
 * `ttlMs` and `cacheScope`; `server/discover` names the revisions, the capabilities (x402's extension
 * `org.x402/payment` among them) and the server. A refusal is a JSON-RPC error carrying the request's id.
 */
import type { IncomingHttpHeaders } from "node:http";
import {
  CAPABILITIES_META,
  CURRENT_REVISION,
  isObject,
  malformedMetaKey,
  metaOf,
  namesCurrentRevision,
  namesExtension,
  RPC_ERROR,
  VERSION_META,
  X402_EXTENSION,
} from "../../lib/mcp-revision.js";

export {
  CAPABILITIES_META,
  CLIENT_INFO_META,
  CURRENT_REVISION,
  isObject,
  RPC_ERROR,
  SERVER_INFO_META,
  VERSION_META,
  X402_EXTENSION,
} from "../../lib/mcp-revision.js";

/** How a paid tool's challenge is said to this client: x402's extension binding, or the tool-result one. */
export type X402Binding = "extension" | "tool-result";

export type JsonRpcId = string | number;

/** A current-revision request that passed the checks every request passes. */
export interface CurrentRequest {
  id: JsonRpcId;
  method: string;
  params: Record<string, unknown> & { _meta: Record<string, unknown> };
  binding: X402Binding;
}

/** A reply as the endpoint writes it: a status and a JSON-RPC message (no body: a notification's 202). */
export interface Reply {
  status: number;
  body?: string;
}

/**
 * Whether a POST is the current revision's: it names that revision (header or `_meta`), names any revision in
 * `_meta` (only the current revision puts one there, so an unknown one is answered in its terms), or asks
 * `server/discover`. Everything else (`initialize`, a 2025-era call with or without its header) goes to the SDK.
 */
export function isCurrentRevision(headers: IncomingHttpHeaders, body: unknown): boolean {
  return headers["mcp-protocol-version"] === CURRENT_REVISION || namesCurrentRevision(body);
}

export function rpcError(
  status: number,
  id: JsonRpcId | null,
  code: number,
  message: string,
  data?: Record<string, unknown>,
): Reply {
  return { status, body: JSON.stringify({ jsonrpc: "2.0", id, error: { code, message, ...(data && { data }) } }) };
}

/** `Mcp-Name`'s value as the body would hold it: a `=?base64?…?=` sentinel decoded. */
function headerValue(value: string | string[] | undefined): string | undefined {
  if (typeof value !== "string") return undefined;
  const encoded = /^=\?base64\?(.*)\?=$/.exec(value);
  return encoded ? Buffer.from(encoded[1] as string, "base64").toString("utf8") : value;
}

/** The first header that disagrees with the body (or is missing), worded; undefined when all agree. */
function headerMismatch(headers: IncomingHttpHeaders, method: string, params: Record<string, unknown>) {
  const version = (params._meta as Record<string, unknown>)[VERSION_META];
  const expected: [string, unknown][] = [
    ["MCP-Protocol-Version", version],
    ["Mcp-Method", method],
  ];
  if (method === "tools/call") expected.push(["Mcp-Name", params.name]);
  for (const [name, value] of expected) {
    const sent = name === "Mcp-Name" ? headerValue(headers[name.toLowerCase()]) : headers[name.toLowerCase()];
    if (sent === undefined) return `the ${name} header is required`;
    if (sent !== value)
      return `${name} header value ${JSON.stringify(sent)} does not match the body's ${JSON.stringify(value)}`;
  }
  return undefined;
}

/** The binding a client's capabilities choose: the extension's when it advertises `org.x402/payment`. */
function bindingOf(meta: Record<string, unknown>): X402Binding {
  return namesExtension(meta[CAPABILITIES_META], X402_EXTENSION) ? "extension" : "tool-result";
}

/**
 * The checks every current-revision request passes, in the revision's order: a JSON-RPC request; a `_meta`
 * naming the revision and the client's capabilities (-32602); headers agreeing with the body (-32020); a
 * revision this layer speaks (-32022, naming the ones the endpoint speaks). A notification is acknowledged.
 */
export function admit(
  headers: IncomingHttpHeaders,
  body: unknown,
  supportedVersions: readonly string[],
): CurrentRequest | Reply {
  if (!isObject(body) || body.jsonrpc !== "2.0" || typeof body.method !== "string")
    return rpcError(400, null, RPC_ERROR.invalidRequest, "a JSON-RPC 2.0 request is expected");
  const { id, method, params } = body;
  if (id === undefined) return { status: 202 };
  if (typeof id !== "string" && (typeof id !== "number" || !Number.isFinite(id)))
    return rpcError(400, null, RPC_ERROR.invalidRequest, "the request's id is neither a string nor a number");
  const meta = metaOf(body);
  if (!meta || !isObject(params))
    return rpcError(400, id, RPC_ERROR.invalidParams, `params._meta is required on revision ${CURRENT_REVISION}`);
  const malformed = malformedMetaKey(meta);
  if (malformed)
    return rpcError(400, id, RPC_ERROR.invalidParams, `params._meta["${malformed}"] is missing or malformed`);
  const mismatch = headerMismatch(headers, method, params);
  if (mismatch) return rpcError(400, id, RPC_ERROR.headerMismatch, `Header mismatch: ${mismatch}`);
  const requested = meta[VERSION_META] as string;
  if (requested !== CURRENT_REVISION)
    return rpcError(400, id, RPC_ERROR.unsupportedVersion, "Unsupported protocol version", {
      supported: supportedVersions,
      requested,
    });
  return { id, method, params: params as CurrentRequest["params"], binding: bindingOf(meta) };
}

/** A result's JSON-RPC response, the result given as JSON text (written once, never parsed again). */
export const resultReply = (id: JsonRpcId, resultJson: string): Reply => ({
  status: 200,
  body: `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${resultJson}}`,
});
