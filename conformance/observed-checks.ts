/**
 * The checks judged over every exchange of a run rather than inside one test, by the names CI tools
 * (Schemathesis) give them, per operation × prefix: no 5xx, every status documented, the media type
 * documented for that status, every required response header present, and (with a budget) no answer
 * slower than it. Pure: the documents and the recorded exchanges in, the results out.
 */
import { type Documents, groupExchanges, type Scope } from "./coverage.js";
import type { Exchange } from "./observations.js";
import type { Operation } from "./openapi-doc.js";

export type ObservedCheckName =
  | "not_a_server_error"
  | "status_code_conformance"
  | "content_type_conformance"
  | "response_headers_conformance"
  | "max_response_time";

export interface ObservedCheck {
  name: ObservedCheckName;
  row: string;
  column: string;
  exchanges: number;
  /** One line per offending exchange: `METHOD path → status: what is wrong`. */
  failures: string[];
}

/** The row of the exchanges that are no documented operation (judged for 5xx only). */
export const UNDOCUMENTED_ROW = "undocumented method or path";

type Judge = (exchange: Exchange, op: Operation) => string | undefined;

const mediaType = (text: string) => (text.split(";")[0] ?? "").trim().toLowerCase();

const JUDGES: Record<Exclude<ObservedCheckName, "max_response_time">, Judge> = {
  not_a_server_error: (e) => (e.status >= 500 ? "a server error" : undefined),
  status_code_conformance: (e, op) =>
    String(e.status) in op.responses ? undefined : `not a documented status (${Object.keys(op.responses).join(", ")})`,
  content_type_conformance: (e, op) => {
    const documented = Object.keys(op.responses[String(e.status)]?.content ?? {});
    if (!documented.length || documented.some((media) => mediaType(media) === mediaType(e.contentType)))
      return undefined;
    return `Content-Type "${e.contentType}", documented ${documented.map((m) => `"${m}"`).join(" or ")}`;
  },
  response_headers_conformance: (e, op) => {
    const headers = Object.entries(op.responses[String(e.status)]?.headers ?? {});
    const missing = headers
      .filter(([name, h]) => h.required && !e.responseHeaders.includes(name.toLowerCase()))
      .map(([name]) => name);
    return missing.length ? `missing required header ${missing.join(", ")}` : undefined;
  },
};

const line = (e: Exchange, problem: string) => `${e.method} ${e.path} → ${e.status}: ${problem}`;

/** Each check's verdict on each operation × prefix that was exercised; `maxResponseMs` adds max_response_time. */
export function judgeExchanges(
  docs: Documents,
  exchanges: readonly Exchange[],
  scope: Scope,
  maxResponseMs?: number,
): ObservedCheck[] {
  const { byOperation, unmatched } = groupExchanges(docs, exchanges, scope);
  const judges = Object.entries(JUDGES) as [ObservedCheckName, Judge][];
  if (maxResponseMs !== undefined)
    judges.push([
      "max_response_time",
      (e) => (e.ms > maxResponseMs ? `answered in ${e.ms} ms, over ${maxResponseMs} ms` : undefined),
    ]);
  const results: ObservedCheck[] = [];
  for (const [l, seen] of byOperation) {
    if (!seen.length) continue;
    for (const [name, judge] of judges) {
      const failures = seen.flatMap((e) => {
        const problem = judge(e, l.op);
        return problem ? [line(e, problem)] : [];
      });
      results.push({ name, row: l.row, column: l.column, exchanges: seen.length, failures });
    }
  }
  for (const service of scope.services) {
    const seen = unmatched.filter((e) => e.service === service);
    if (!seen.length) continue;
    const failures = seen.filter((e) => e.status >= 500).map((e) => line(e, "a server error"));
    results.push({
      name: "not_a_server_error",
      row: UNDOCUMENTED_ROW,
      column: service,
      exchanges: seen.length,
      failures,
    });
  }
  return results;
}
