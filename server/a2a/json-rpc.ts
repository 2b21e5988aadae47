/**
 * JSON-RPC 2.0 as A2A v1.0's JSON-RPC binding uses it: a request read from a parsed body, and a reply written with
 * its id. Every reply is HTTP 200 (the outcome is in the body); A2A's own errors carry the codes its specification
 * gives them (-32001 to -32009), which its SDKs map back to their error classes.
 */

/** JSON-RPC's and A2A's error codes. */
export const RPC_ERROR = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  taskNotFound: -32001,
  taskNotCancelable: -32002,
  pushNotificationNotSupported: -32003,
  unsupportedOperation: -32004,
  extendedCardNotConfigured: -32007,
  extensionSupportRequired: -32008,
  versionNotSupported: -32009,
} as const;

export type RpcId = string | number | null;

export interface RpcRequest {
  id: RpcId;
  method: string;
  params: Record<string, unknown>;
}

/** An error reply's contents. */
export interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

export const rpcError = (code: number, message: string, data?: unknown): RpcError => ({
  code,
  message,
  ...(data !== undefined && { data }),
});

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isId = (value: unknown): value is RpcId =>
  value === null || typeof value === "string" || (typeof value === "number" && Number.isFinite(value));

/** The request a body holds, or the error naming what makes it none (its id, when it has a usable one). */
export function readRequest(body: unknown): RpcRequest | { id: RpcId; error: RpcError } {
  if (!isRecord(body))
    return { id: null, error: rpcError(RPC_ERROR.invalidRequest, "The body is not a JSON-RPC request object.") };
  const id = isId(body.id) ? body.id : null;
  const invalid = (field: string, message: string) =>
    ({ id, error: rpcError(RPC_ERROR.invalidRequest, `${field} ${message}.`, { field }) }) as const;
  if (body.jsonrpc !== "2.0") return invalid("jsonrpc", 'must be "2.0"');
  if (!("id" in body) || !isId(body.id))
    return invalid("id", "must be a string or a number (notifications are not answered)");
  if (typeof body.method !== "string") return invalid("method", "must be a string");
  if (body.params !== undefined && !isRecord(body.params)) return invalid("params", "must be an object");
  return { id: body.id, method: body.method, params: (body.params as Record<string, unknown>) ?? {} };
}

/** A result reply; `result` is JSON text already (a task's stored JSON goes in as it is). */
export const resultReply = (id: RpcId, result: string) =>
  `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${result}}`;

export const errorReply = (id: RpcId, error: RpcError) => JSON.stringify({ jsonrpc: "2.0", id, error });
