// unsupported_method: a method a documented path does not document is answered 405, with `Allow` naming the methods
// it does document (HEAD besides GET may be named too), on every path of both documents under the selected prefixes
// (on the mock, whose Prism sends no Allow, the status only).
import { describe } from "vitest";
import {
  type FreeCase,
  freeCases,
  type PaidCase,
  paidCases,
  type RegistryCase,
  registryCases,
  title,
} from "./cases.js";
import { Findings } from "./checks.js";
import { type CaseRequest, send } from "./http.js";
import { skipReason } from "./skips.js";
import { caseTest, settings, useTarget } from "./suite.js";

const url = useTarget({ analytics: true, registry: true });
const CANDIDATES = ["PUT", "DELETE", "PATCH"] as const;

/** One case per documented path (its first operation's), with every method the path documents. */
function paths(): { c: PaidCase | FreeCase | RegistryCase; methods: string[] }[] {
  const byPath = new Map<string, { c: PaidCase | FreeCase | RegistryCase; methods: string[] }>();
  for (const c of [...paidCases(settings.prefixes), ...freeCases(), ...registryCases()]) {
    const key = `${c.service} ${c.template}`;
    const found = byPath.get(key);
    if (found) found.methods.push(c.method);
    else byPath.set(key, { c, methods: [c.method] });
  }
  return [...byPath.values()];
}

describe(`unsupported methods on ${settings.kind}`, () => {
  for (const { c, methods } of paths()) {
    const method = CANDIDATES.find((m) => !methods.includes(m)) as (typeof CANDIDATES)[number];
    caseTest(
      title(c, `unsupported_method: ${method} → 405 with Allow`),
      c.service === "registry" ? "registry" : "free",
      async () => {
        const f = new Findings(`${c.label} unsupported_method ${method}`);
        const request: CaseRequest = { method, path: c.request.path, headers: c.request.headers };
        const answer = await send(
          url(c.service === "registry" ? "registryUrl" : "analyticsUrl"),
          request,
          settings.timeoutMs,
        );
        f.equal("status", answer.status, 405, ` (${method} is not documented on ${c.template})`);
        if (skipReason(settings, "allowHeader")) return f.assert();
        const allowed = (answer.headers.get("allow") ?? "")
          .split(",")
          .map((m) => m.trim().toUpperCase())
          .filter(Boolean);
        const expected = methods.includes("GET") ? [...methods, "HEAD"] : methods;
        if (!methods.every((m) => allowed.includes(m)) || !allowed.every((m) => expected.includes(m)))
          f.add(
            "Allow",
            `must name ${methods.join(", ")}${methods.includes("GET") ? " (and may name HEAD)" : ""}, got ${JSON.stringify(answer.headers.get("allow"))}`,
          );
        f.assert();
      },
    );
  }
});
