/**
 * A JSON-RPC 2.0 client over the upstream HTTP client: the transport of the Solana chain reads, and of
 * the Meteora and LaunchLab adapters' account reads. A JSON-RPC `error` answer is an upstream error.
 */
import { z } from "zod";
import { upstreamError } from "../../../http/errors.js";
import type { UpstreamHttp } from "./http.js";

/** One JSON-RPC endpoint. */
export interface JsonRpc {
  readonly source: string;
  call<T>(method: string, params: unknown, result: z.ZodType<T>): Promise<T>;
}

const rpcError = z.object({ error: z.object({ code: z.number(), message: z.string() }) });

export function createJsonRpc(http: UpstreamHttp, url: string): JsonRpc {
  let id = 0;
  return {
    source: http.source,
    async call(method, params, result) {
      const body = await http.json(
        { url, method: "POST", body: { jsonrpc: "2.0", id: ++id, method, params } },
        z.union([rpcError, z.object({ result })]),
      );
      if ("error" in body)
        throw upstreamError(http.source, `${http.source} answered error ${body.error.code} to ${method}.`);
      return body.result;
    },
  };
}
