/**
 * Which of the front's paths a request target names, by one rule, the one the service has always
 * accepted for its routes:
 *
 *   - the path is the target up to its query string;
 *   - one trailing slash is ignored (`/base/defi/tvl/` is `/base/defi/tvl`);
 *   - a literal segment matches in any letter case (`/Base/DeFi/TVL`);
 *   - a parameter (`{venue}`, `{address}`) is one whole non-empty segment, kept as sent (percent-encoded);
 *
 * and nothing else: an empty segment (`//`), a percent-encoded literal or a second trailing slash is not
 * the path, and the request goes on to the free routes (a 404 there). Literal paths are one lookup; the
 * few paths with parameters are compared segment by segment.
 */

export interface PathMatch<T> {
  /** The path as the contract writes it, e.g. `/base/lp/{venue}/pools`. */
  path: string;
  entry: T;
  /** Each parameter's segment, as sent (percent-encoded). */
  params: Record<string, string>;
}

interface Template<T> {
  path: string;
  entry: T;
  /** Each segment: a literal, lowercase, or a parameter's name. */
  segments: { literal?: string; param?: string }[];
}

/** The path of a request target: before its query string, without one trailing slash. */
export function pathOf(target: string): string {
  const query = target.indexOf("?");
  const path = query < 0 ? target : target.slice(0, query);
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}

export type PathTable<T> = (target: string) => PathMatch<T> | undefined;

/** The table of `entries` by their documented paths, matched by the rule above. */
export function pathTable<T>(entries: Iterable<[path: string, entry: T]>): PathTable<T> {
  const literal = new Map<string, { path: string; entry: T }>();
  const templates: Template<T>[] = [];
  for (const [path, entry] of entries) {
    if (!path.includes("{")) {
      literal.set(path.toLowerCase(), { path, entry });
      continue;
    }
    const segments = path
      .slice(1)
      .split("/")
      .map((segment) =>
        /^\{.+\}$/.test(segment) ? { param: segment.slice(1, -1) } : { literal: segment.toLowerCase() },
      );
    templates.push({ path, entry, segments });
  }
  return (target) => {
    const path = pathOf(target);
    const lower = path.toLowerCase();
    const found = literal.get(lower);
    if (found) return { ...found, params: {} };
    const sent = path.slice(1).split("/");
    const lowered = lower.slice(1).split("/");
    for (const template of templates) {
      const params = matched(template, sent, lowered);
      if (params) return { path: template.path, entry: template.entry, params };
    }
    return undefined;
  };
}

/** The parameters of `template` in the path's segments, if it is that path. */
function matched<T>(template: Template<T>, sent: string[], lowered: string[]): Record<string, string> | undefined {
  if (template.segments.length !== sent.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, segment] of template.segments.entries()) {
    const value = sent[i] as string;
    if (segment.param !== undefined) {
      if (!value) return undefined;
      params[segment.param] = value;
    } else if (segment.literal !== lowered[i]) return undefined;
  }
  return params;
}
