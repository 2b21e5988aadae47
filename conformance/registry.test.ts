// The registry's read operations: the example request answers 200 with a valid body, a name nobody holds
// answers the JSON 404, and a copy the caller holds is confirmed with a 304.
import { describe } from "vitest";
import { registryCases, title } from "./cases.js";
import { checkAnswer, Findings } from "./checks.js";
import { send, withHeaders } from "./http.js";
import { skipReason } from "./skips.js";
import { caseTest, isPrism, prefer, settings, useTarget } from "./suite.js";

const url = useTarget({ registry: true });
const get = (request: Parameters<typeof send>[1]) => send(url("registryUrl"), request, settings.timeoutMs);

describe(`registry on ${settings.kind}`, () => {
  for (const c of registryCases()) {
    caseTest(title(c, "200 example"), "registry", async () => {
      const f = new Findings(`${c.label} 200`);
      checkAnswer(f, c, await get(c.request), [200]);
      f.assert();
    });

    const unknown = c.unknownName;
    if (unknown) {
      caseTest(title(c, "404 unknown name"), "registry", async () => {
        const f = new Findings(`${c.label} 404 unknown name`);
        const body = checkAnswer(f, c, await get(isPrism ? withHeaders(unknown, prefer(404)) : unknown), [404]);
        if (body && !skipReason(settings, "errorCode")) f.equal("error", body.error, "not_found");
        f.assert();
      });
    }

    if (!c.cacheable) continue;
    caseTest(title(c, "304 If-None-Match"), "notModified", async () => {
      const f = new Findings(`${c.label} 304`);
      const first = await get(c.request);
      const etag = first.headers.get("etag");
      if (!etag) f.add("ETag", "header is required on a 200");
      else {
        // An explicit Cache-Control: fetch would otherwise add `no-cache`, which asks for a full answer.
        const again = await get(withHeaders(c.request, { "If-None-Match": etag, "Cache-Control": "max-age=0" }));
        f.equal("status", again.status, 304, " (If-None-Match names the current ETag)");
        f.equal("body", again.text, "", " (a 304 has no body)");
      }
      f.assert();
    });
  }
});
