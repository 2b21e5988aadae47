/**
 * Which `Host` and `Origin` an MCP endpoint answers (MCP's DNS-rebinding rule for HTTP servers): a
 * page on another site must not reach a local server through a name that resolves to it, and such a
 * request always carries the other site's name. The loopback names are answered on any port (a local
 * client, or a proxy on the same machine); with `PUBLIC_BASE_URL` set, that URL's host (and port) too.
 * Behind a proxy that forwards another `Host`, Express's `host` (its `X-Forwarded-Host` when the proxy
 * is trusted, `TRUST_PROXY`) is what is checked. An `Origin` is checked the same way when a client
 * sends one (browsers do; agents seldom).
 */
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The host name of a `Host` value (`name[:port]`, `[v6][:port]`), lowercase. */
function hostName(host: string): string {
  const bracket = host.startsWith("[") ? host.indexOf("]") : -1;
  if (bracket > 0) return host.slice(0, bracket + 1).toLowerCase();
  return host.split(":")[0]?.toLowerCase() ?? "";
}

export type HostCheck = (host: string | undefined, origin: string | undefined) => "host" | "origin" | undefined;

/** What a request's `Host` and `Origin` are checked against; the result names the header refused, if one is. */
export function allowedHosts(publicBaseUrl: string | undefined): HostCheck {
  const publicHost = publicBaseUrl ? new URL(publicBaseUrl).host.toLowerCase() : undefined;
  const allowed = (host: string) => LOOPBACK.has(hostName(host)) || host.toLowerCase() === publicHost;
  return (host, origin) => {
    if (!host || !allowed(host)) return "host";
    if (origin === undefined) return undefined;
    let originHost: string;
    try {
      originHost = new URL(origin).host;
    } catch {
      return "origin";
    }
    return allowed(originHost) ? undefined : "origin";
  };
}
