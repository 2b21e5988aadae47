/**
 * The paying bridge toward a host of MCP's current revision, 2026-07-28, on the same stdio as 2025-era hosts:
 * a message that asks `server/discover` or names a revision in its `_meta` is answered here, statelessly, and
 * every other one goes to the 1.x SDK's server (`initialize`, then calls), as before. Here: `server/discover`
 * (the revisions, the tools capability, the instructions, the bridge in `_meta`), `tools/list` with the
 * service's caching hints, `tools/call` paid through the bridge, asking the person by `input_required` under
 * `--confirm` (mcp-consent.ts); `resultType` on every result; a refusal is a JSON-RPC error with the request's id.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import {
  CAPABILITIES_META,
  CURRENT_REVISION,
  isObject,
  malformedMetaKey,
  metaOf,
  namesCurrentRevision,
  RPC_ERROR,
  SERVER_INFO_META,
  VERSION_META,
} from "../lib/mcp-revision.js";
import { cannotAsk, declined, isQuote, type PayingBridge } from "./mcp-bridge.js";
import { type ConsentRounds, consentRounds } from "./mcp-consent.js";
import { RpcError } from "./mcp-upstream.js";

export interface CurrentHostOptions {
  bridge: PayingBridge;
  confirm: boolean;
  serverInfo: { name: string; version: string };
  instructions: string;
  /** The 2025-era revisions the bridge speaks beside this one (the 1.x SDK's). */
  legacyVersions: readonly string[];
  consent?: ConsentRounds;
}

type Id = string | number;
/** How long a host may keep `server/discover`: the bridge's terms change only with its process. */
const DISCOVER_TTL_MS = 3_600_000;

const reply = (id: Id, result: unknown) => ({ jsonrpc: "2.0" as const, id, result });
const failure = (id: Id | null, code: number, message: string, data?: Record<string, unknown>) => ({
  jsonrpc: "2.0" as const,
  id,
  error: { code, message, ...(data && { data }) },
});
const complete = (result: object) => ({ resultType: "complete", ...result });

/** A refusal's JSON-RPC code: the service's own (an unknown tool), else an internal error. */
function codeOf(error: unknown): number {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === "number" && Number.isInteger(code) ? code : RPC_ERROR.internalError;
}

/** Answers current-revision requests (undefined for a notification, which gets no answer). */
export function currentRevisionHost(options: CurrentHostOptions): (message: unknown) => Promise<object | undefined> {
  const { bridge } = options;
  const consent = options.consent ?? consentRounds();
  const versions = [CURRENT_REVISION, ...options.legacyVersions.filter((version) => version !== CURRENT_REVISION)];

  async function callTool(params: Record<string, unknown>, meta: Record<string, unknown>) {
    const { name, arguments: args } = params;
    if (typeof name !== "string") throw new RpcError(RPC_ERROR.invalidParams, "params.name must be a string");
    if (args !== undefined && !isObject(args))
      throw new RpcError(RPC_ERROR.invalidParams, "params.arguments must be an object");
    const quoted = await bridge.quote(name, args);
    if (!isQuote(quoted)) return complete(quoted);
    if (!options.confirm) return complete(await bridge.pay(quoted));
    const capabilities = meta[CAPABILITIES_META];
    if (!isObject(capabilities) || !isObject(capabilities.elicitation)) return complete(cannotAsk());
    const approved = consent.answer(quoted, params);
    if (approved === undefined) return consent.ask(quoted);
    return complete(approved ? await bridge.pay(quoted) : declined(quoted));
  }

  async function answer(method: string, params: Record<string, unknown>, meta: Record<string, unknown>) {
    switch (method) {
      case "server/discover":
        return complete({
          supportedVersions: versions,
          capabilities: { tools: {} },
          instructions: options.instructions,
          ttlMs: DISCOVER_TTL_MS,
          cacheScope: "private",
          _meta: { [SERVER_INFO_META]: options.serverInfo },
        });
      case "tools/list": {
        const { tools, ttlMs, cacheScope } = await bridge.tools();
        return complete({ tools, ttlMs: ttlMs ?? 0, cacheScope: cacheScope ?? "private" });
      }
      case "tools/call":
        return callTool(params, meta);
      default:
        throw new RpcError(RPC_ERROR.methodNotFound, `Method not found: ${method}`);
    }
  }

  return async (message) => {
    if (!isObject(message) || typeof message.method !== "string")
      return failure(null, RPC_ERROR.invalidRequest, "a JSON-RPC 2.0 request is expected");
    const { id, method, params } = message;
    if (id === undefined) return undefined;
    const request = id as Id;
    const meta = metaOf(message);
    if (!meta || !isObject(params))
      return failure(request, RPC_ERROR.invalidParams, `params._meta is required on revision ${CURRENT_REVISION}`);
    const malformed = malformedMetaKey(meta);
    if (malformed)
      return failure(request, RPC_ERROR.invalidParams, `params._meta["${malformed}"] is missing or malformed`);
    if (meta[VERSION_META] !== CURRENT_REVISION)
      return failure(request, RPC_ERROR.unsupportedVersion, "Unsupported protocol version", {
        supported: versions,
        requested: meta[VERSION_META],
      });
    try {
      return reply(request, await answer(method, params, meta));
    } catch (error) {
      return failure(request, codeOf(error), (error as Error).message);
    }
  };
}

/**
 * One stdio for both eras: `inner`'s messages of the current revision are answered by `current`, the rest go
 * to whatever server connects to the returned transport (the 1.x SDK's), which writes through `inner` as before.
 */
export function eraRouter(inner: Transport, current: (message: unknown) => Promise<object | undefined>): Transport {
  const outer: Transport = {
    start: () => inner.start(),
    send: (message, options) => inner.send(message, options),
    close: () => inner.close(),
  };
  inner.onmessage = (message, extra) => {
    if (!namesCurrentRevision(message)) return outer.onmessage?.(message, extra);
    current(message)
      .then((answer) => answer && inner.send(answer as JSONRPCMessage))
      .catch((error) => outer.onerror?.(error as Error));
  };
  inner.onclose = () => outer.onclose?.();
  inner.onerror = (error) => outer.onerror?.(error);
  return outer;
}
