/**
 * The paying bridge's side toward the service's `/mcp`, in the newest era the service speaks. It asks
 * `server/discover` first (MCP 2026-07-28's probe): a service that answers it is spoken to in that revision,
 * by small JSON-RPC POSTs of this module's own (the official 2.x client refuses x402's `payment_required`
 * result type), and advertising x402's extension `org.x402/payment` in every request's capabilities when the
 * service's discovery offers it, so that a challenge comes as `resultType: "payment_required"`. A service that
 * does not answer the probe is a 2025-era one: the 1.x SDK client, `initialize` and the tool-result binding.
 */
import {
  CURRENT_REVISION,
  isObject,
  namesExtension,
  requestHeaders,
  requestMeta,
  X402_EXTENSION,
} from "../lib/mcp-revision.js";

/** A `tools/list` answer: the tools, and the revision's caching hints when the service gave them. */
export interface ListedTools {
  tools: unknown[];
  ttlMs?: number;
  cacheScope?: string;
}

/** What the bridge needs of the service: the 1.x SDK's `Client` has this shape, and so has the revision's client. */
export interface BridgeUpstream {
  listTools(): Promise<ListedTools>;
  /** A tool call's result as the service wrote it (with `resultType` on the current revision). */
  callTool(params: {
    name: string;
    arguments?: Record<string, unknown>;
    _meta?: Record<string, unknown>;
  }): Promise<unknown>;
  close(): Promise<void>;
}

/** How x402's challenge reaches the bridge: the extension's `payment_required`, or a tool result. */
export type UpstreamBinding = "extension" | "tool-result";

export interface ConnectedUpstream {
  upstream: BridgeUpstream;
  /** The MCP revision spoken to the service (the 1.x SDK's negotiated one on the 2025 era). */
  revision: string;
  binding: UpstreamBinding;
}

export interface UpstreamOptions {
  clientInfo: { name: string; version: string };
  fetch?: typeof fetch;
}

/** A JSON-RPC error answer, with its code (the bridge tells it from a lost answer by the code). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** The response to request `id` in an answer written as JSON or as one server-sent-events stream. */
function responseIn(body: string, contentType: string, id: number): unknown {
  if (!contentType.startsWith("text/event-stream")) return JSON.parse(body);
  for (const event of body.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).trimStart())
      .join("\n");
    if (!data) continue;
    const message = JSON.parse(data) as { id?: unknown };
    if (message.id === id) return message;
  }
  return undefined;
}

/** No JSON-RPC answer came (a proxy's 502, a cut stream): the answer may be lost, so it carries no code. */
export class NoAnswer extends Error {}

type Requester = (method: string, params?: Record<string, unknown>) => Promise<Record<string, unknown>>;

/** Sends one request of the revision: a POST naming the revision in `_meta` and in its headers. */
function requester(mcpUrl: URL, options: UpstreamOptions, advertise: boolean): Requester {
  const send = options.fetch ?? fetch;
  const meta = requestMeta(advertise, options.clientInfo);
  let nextId = 1;
  return async (method, params = {}) => {
    const id = nextId++;
    const res = await send(mcpUrl, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        ...requestHeaders(method, typeof params.name === "string" ? params.name : undefined),
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id,
        method,
        params: { ...params, _meta: { ...(params._meta as object | undefined), ...meta } },
      }),
    });
    const body = await res.text();
    let message: unknown;
    try {
      message = responseIn(body, res.headers.get("content-type") ?? "", id);
    } catch {
      message = undefined;
    }
    if (isObject(message) && isObject(message.error))
      throw new RpcError(Number(message.error.code), String(message.error.message), message.error.data);
    if (!isObject(message) || !isObject(message.result)) throw new NoAnswer(`${method}: HTTP ${res.status}, no result`);
    return message.result;
  };
}

/** The revision's client: advertising x402's extension in every request's capabilities when `advertise`. */
export function currentRevisionUpstream(mcpUrl: URL, options: UpstreamOptions, advertise: boolean): BridgeUpstream {
  const request = requester(mcpUrl, options, advertise);
  return {
    listTools: async () => (await request("tools/list")) as unknown as ListedTools,
    callTool: (params) => request("tools/call", params),
    close: async () => {},
  };
}

/** The 2025-era client: the 1.x SDK over streamable HTTP, loaded only for a service that needs it. */
async function legacyUpstream(mcpUrl: URL, options: UpstreamOptions): Promise<ConnectedUpstream> {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  const client = new Client(options.clientInfo);
  const transport = new StreamableHTTPClientTransport(mcpUrl, options.fetch ? { fetch: options.fetch } : {});
  await client.connect(transport);
  return { upstream: client, revision: transport.protocolVersion ?? "2025", binding: "tool-result" };
}

/**
 * Connects to the service's `/mcp` in the newest era it speaks: `server/discover` answered with the current
 * revision among its versions is the current revision (the extension binding when its capabilities offer
 * `org.x402/payment`); any other answer is the 2025 era. A service out of reach fails the connection.
 */
export async function connectUpstream(mcpUrl: URL, options: UpstreamOptions): Promise<ConnectedUpstream> {
  let discovered: Record<string, unknown> | undefined;
  try {
    discovered = await requester(mcpUrl, options, false)("server/discover");
  } catch (error) {
    // a refusal or a non-JSON-RPC answer is a service of the 2025 era; a failed fetch is no service at all
    if (!(error instanceof RpcError || error instanceof NoAnswer)) throw error;
  }
  const versions = discovered?.supportedVersions;
  if (!Array.isArray(versions) || !versions.includes(CURRENT_REVISION)) return legacyUpstream(mcpUrl, options);
  const advertise = namesExtension(discovered?.capabilities, X402_EXTENSION);
  return {
    upstream: currentRevisionUpstream(mcpUrl, options, advertise),
    revision: CURRENT_REVISION,
    binding: advertise ? "extension" : "tool-result",
  };
}
