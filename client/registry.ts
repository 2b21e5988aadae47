/**
 * The typed registry client: openapi-fetch over the generated registry `paths` (free, GET only),
 * and a `get` that returns the typed answer or throws an `HttpError` with the JSON error body.
 *
 * @example
 * const registry = createRegistryClient({ baseUrl: "http://localhost:4022" });
 * const { agents } = await registry.get("/api/agents", { query: { limit: 5 } });
 */
import createClient, { type Client } from "openapi-fetch";
import type { paths } from "../generated/types/registry.js";
import { dataOrThrow } from "./errors.js";
import type { JsonResponse, LooseClient, OperationOf, ParamsArgs, PathsWith } from "./operation-types.js";

export type RegistryPath = PathsWith<paths, "get">;
export type RegistryOperation<P extends RegistryPath> = OperationOf<paths, P, "get">;

export interface RegistryClient {
  client: Client<paths>;
  get<P extends RegistryPath>(
    path: P,
    ...params: ParamsArgs<RegistryOperation<P>>
  ): Promise<JsonResponse<RegistryOperation<P>, 200>>;
}

export function createRegistryClient(options: {
  baseUrl: string;
  fetch?: (input: Request) => Promise<Response>;
}): RegistryClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const loose = client as unknown as LooseClient;
  return {
    client,
    async get(path, ...[params]) {
      return dataOrThrow(await loose.GET(path, params === undefined ? {} : { params })).data as never;
    },
  };
}
