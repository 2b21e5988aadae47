/**
 * Type-level helpers over openapi-typescript output (`paths`, `operations`): which paths have a
 * method, an operation's JSON body, parameters and per-status JSON answer. Nothing here is
 * hand-written per endpoint; every request and response type comes from `generated/types`.
 */

export type HttpMethod = "get" | "post";

/** Paths of `Paths` that have an operation for `method`. */
export type PathsWith<Paths, M extends HttpMethod> = {
  [K in keyof Paths]: Paths[K] extends Record<M, { responses: unknown }> ? K : never;
}[keyof Paths];

/** The operation of `Paths[P]` for `method`. */
export type OperationOf<Paths, P extends keyof Paths, M extends HttpMethod> =
  Paths[P] extends Record<M, infer Op> ? Op : never;

/** The JSON body an operation answers with `status`. */
export type JsonResponse<Op, S extends number> = Op extends {
  responses: Record<S, { content: { "application/json": infer E } }>;
}
  ? E
  : never;

/** The JSON request body of an operation. */
export type JsonBody<Op> = Op extends { requestBody?: { content: { "application/json": infer B } } } ? B : never;

/** `[body]` when the operation requires a body, `[body?]` when it is optional. */
export type BodyArgs<Op> = Op extends { requestBody: unknown } ? [body: JsonBody<Op>] : [body?: JsonBody<Op>];

/** The query and path parameters of an operation (headers are the client's business). */
export type RequestParams<Op> = Op extends { parameters: infer P }
  ? Pick<P, Extract<keyof P, "query" | "path">>
  : never;

/** `[params]` when some parameter is required (a path parameter), `[params?]` otherwise. */
export type ParamsArgs<Op> =
  Record<never, never> extends RequestParams<Op> ? [params?: RequestParams<Op>] : [params: RequestParams<Op>];

/** The untyped shape the helpers call openapi-fetch through, after their own signatures checked the call. */
export interface LooseClient {
  GET(path: string, init: { params?: unknown }): Promise<{ data?: unknown; error?: unknown; response: Response }>;
  POST(path: string, init: { body?: unknown }): Promise<{ data?: unknown; error?: unknown; response: Response }>;
}
