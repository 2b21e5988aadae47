/**
 * The public origin of a request, for the URLs a service writes into its answers (the 402's
 * `resource`, the OpenAPI document's `servers`). `PUBLIC_BASE_URL` when configured; otherwise the
 * request's own protocol and `Host`, accepted only when they are a plain scheme and a valid
 * host[:port]. `X-Forwarded-Proto` and `X-Forwarded-Host` count only from the proxies named in
 * `TRUST_PROXY`, by Express's `trust proxy` rule (its proxy-addr compiled the same way), so that a
 * request read by the paid front and one read by Express name the same origin.
 */
import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import type { Request } from "express";
import proxyAddr from "proxy-addr";
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

/** `TRUST_PROXY` as the configuration reads it: no proxy, a hop count, or addresses and subnets. */
export type TrustProxy = string | number | false;

/** Whether the peer that sent a request is a proxy whose `X-Forwarded-*` headers count (Express's `trust proxy`). */
export type TrustedPeer = (req: IncomingMessage) => boolean;

export function trustedPeer(setting: TrustProxy): TrustedPeer {
  if (setting === false) return () => false;
  if (typeof setting === "number") return () => setting > 0;
  const trust = proxyAddr.compile(setting.split(",").map((entry) => entry.trim()));
  return (req) => trust(req.socket.remoteAddress ?? "", 0);
}

/** The first value of a header a proxy may have written as a list. */
const firstOf = (value: string | string[] | undefined) => {
  const text = Array.isArray(value) ? value[0] : value;
  const comma = text?.indexOf(",") ?? -1;
  return comma < 0 ? text : text?.slice(0, comma).trim();
};

/** The host a request was sent to: a trusted proxy's `X-Forwarded-Host`, else its own `Host`. */
export function forwardedHost(req: IncomingMessage, trusted: TrustedPeer): string | undefined {
  const forwarded = firstOf(req.headers["x-forwarded-host"]);
  return (forwarded && trusted(req) ? forwarded : req.headers.host) || undefined;
}

/** The origin a request was sent to, as `originOf` accepts it: `PUBLIC_BASE_URL`, else read through `trusted`. */
export function originThrough(req: IncomingMessage, trusted: TrustedPeer, publicBaseUrl: string | undefined): string {
  if (publicBaseUrl) return publicBaseUrl;
  const own = (req.socket as TLSSocket).encrypted ? "https" : "http";
  const protocol = trusted(req) ? (firstOf(req.headers["x-forwarded-proto"]) ?? own) : own;
  return originOf(protocol, forwardedHost(req, trusted));
}
