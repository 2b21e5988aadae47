/**
 * What a client of MCP's current revision (2026-07-28) puts on every request, for the tests and the bench that
 * speak it by hand: `params._meta` naming the revision, the client and its capabilities (x402's extension
 * `org.x402/payment` when the client advertises it), and the headers mirroring the body's revision, method and
 * tool name.
 */
import {
  CAPABILITIES_META,
  CLIENT_INFO_META,
  CURRENT_REVISION,
  VERSION_META,
  X402_EXTENSION,
} from "../../server/mcp/current-revision.js";

/** A request's `_meta` on the revision; `advertise` puts x402's extension in the client's capabilities. */
export function currentMeta(advertise: boolean, client = "defi-intel-tests"): Record<string, unknown> {
  return {
    [VERSION_META]: CURRENT_REVISION,
    [CLIENT_INFO_META]: { name: client, version: "1.0.0" },
    [CAPABILITIES_META]: advertise ? { extensions: { [X402_EXTENSION]: {} } } : {},
  };
}

/** The headers a request of `method` carries on the revision (`tool`: a `tools/call`'s tool name). */
export function currentHeaders(method: string, tool?: string): Record<string, string> {
  return {
    "MCP-Protocol-Version": CURRENT_REVISION,
    "Mcp-Method": method,
    ...(tool !== undefined && { "Mcp-Name": tool }),
  };
}
