/**
 * MCP's current revision (2026-07-28) as the suite speaks it to any target's `/mcp`: one JSON-RPC POST per request,
 * with the revision's `params._meta` and mirrored headers (lib/mcp-revision.ts, as the paying bridge writes them),
 * advertising x402's extension `org.x402/payment` or not. No SDK client: the 2.x client refuses x402's
 * `payment_required` result, which is what the extension binding answers. The answer is read as JSON or as a
 * server-sent event stream (the revision allows either), and kept with its HTTP status for the checks.
 */
import { isObject, requestHeaders, requestMeta } from "../lib/mcp-revision.js";

export const CONFORMANCE_CLIENT = { name: "defi-intel-conformance", version: "1.0.0" };

export interface CurrentOptions {
  /** Advertise `org.x402/payment` in the client's capabilities (the extension binding). */
  advertise?: boolean;
  /** The request's `_meta` in place of the revision's own; `null` sends none. */
  meta?: Record<string, unknown> | null;
  /** Headers over the revision's own (a mismatch, another revision). */
  headers?: Record<string, string>;
}

/** A JSON-RPC response as the checks read it, field by field. */
export interface RpcMessage {
  id?: unknown;
  // biome-ignore lint/suspicious/noExplicitAny: a result of any method, read field by field by the checks
  result?: any;
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

export interface CurrentAnswer {
  status: number;
  /** The request's id, to be found again in the response. */
  id: string;
  message: RpcMessage | undefined;
}

let nextId = 1;

/** The response of `id` in a body: a JSON message, or the `data:` of an event stream that answers it. */
function messageIn(text: string, contentType: string, id: string): RpcMessage | undefined {
  const parse = (json: string) => {
    try {
      const parsed: unknown = JSON.parse(json);
      return isObject(parsed) ? (parsed as RpcMessage) : undefined;
    } catch {
      return undefined;
    }
  };
  if (!contentType.startsWith("text/event-stream")) return parse(text);
  const events = text.split(/\r?\n/).filter((line) => line.startsWith("data:"));
  return events.map((line) => parse(line.slice(5).trim())).find((message) => message?.id === id);
}

/** One request of the revision to `mcpUrl` (the target's `/mcp`). */
export async function currentRequest(
  mcpUrl: string,
  timeoutMs: number,
  method: string,
  params: Record<string, unknown> = {},
  options: CurrentOptions = {},
): Promise<CurrentAnswer> {
  const id = `conformance-${nextId++}`;
  const meta = options.meta === undefined ? requestMeta(options.advertise ?? false, CONFORMANCE_CLIENT) : options.meta;
  const { _meta: extra, ...rest } = params;
  const tool = typeof params.name === "string" ? params.name : undefined;
  const res = await fetch(mcpUrl, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      ...requestHeaders(method, tool),
      ...options.headers,
    },
    // A payment in `params._meta` goes beside the revision's keys.
    body: JSON.stringify({
      jsonrpc: "2.0",
      id,
      method,
      params: { ...rest, ...(meta && { _meta: { ...meta, ...(extra as object | undefined) } }) },
    }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  return { status: res.status, id, message: messageIn(text, res.headers.get("content-type") ?? "", id) };
}
