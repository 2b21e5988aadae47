/**
 * The public origin of a request, for the URLs a service writes into its answers (the 402's
 * `resource`, the OpenAPI document's `servers`). `PUBLIC_BASE_URL` when configured; otherwise the
 * request's own protocol and `Host`, accepted only when they are a plain scheme and a valid
 * host[:port]. `X-Forwarded-Proto` and `X-Forwarded-Host` count only from the proxies named in
 * `TRUST_PROXY` (Express's `trust proxy`, which `req.protocol` and `req.host` honour).
 */
import type { Request } from "express";
import { ApiError } from "./errors.js";

const LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
const HOST = new RegExp(`^(?:${LABEL}(?:\\.${LABEL})*|\\[[0-9A-Fa-f:.]+\\])(?::[0-9]{1,5})?$`);

function invalid(field: string, message: string): ApiError {
  return new ApiError(400, "invalid_request", `${field}: ${message}`, {
    errors: [{ location: "header", field, message }],
  });
}

/** The origin of a request's protocol and host (read through `trust proxy`, or from the socket and `Host` when nothing forwards them). */
export function originOf(protocol: string, host: string | undefined): string {
  if (protocol !== "http" && protocol !== "https") throw invalid("X-Forwarded-Proto", "must be http or https");
  if (!host || !HOST.test(host)) throw invalid("Host", "must be a host name or address with an optional port");
  return `${protocol}://${host}`;
}

export function requestOrigin(req: Request, publicBaseUrl: string | undefined): string {
  return publicBaseUrl || originOf(req.protocol, req.host);
}
