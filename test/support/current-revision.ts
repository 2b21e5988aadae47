/**
 * What a client of MCP's current revision (2026-07-28) puts on every request, for the tests and the bench that
 * speak it by hand: `params._meta` naming the revision, the client and its capabilities (x402's extension
 * `org.x402/payment` when the client advertises it), and the headers mirroring the body's revision, method and
 * tool name (lib/mcp-revision.ts, which the conformance suite speaks it with too).
 */
import { requestMeta } from "../../lib/mcp-revision.js";

export { requestHeaders as currentHeaders } from "../../lib/mcp-revision.js";

/** A request's `_meta` on the revision; `advertise` puts x402's extension in the client's capabilities. */
export const currentMeta = (advertise: boolean, client = "defi-intel-tests"): Record<string, unknown> =>
  requestMeta(advertise, { name: client, version: "1.0.0" });
