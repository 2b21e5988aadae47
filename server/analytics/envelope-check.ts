/**
 * Checks an envelope against its route's 200 or 206 schema before the payment settles, so that a
 * server bug is a 500 that costs the caller nothing rather than a charged invalid answer. (The
 * validator middleware checks responses too, but only as they are sent: after settlement.)
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { AnalyticsContract, PaidRoute } from "./contract.js";
import type { Envelope } from "./envelope.js";

export function envelopeChecker(contract: AnalyticsContract): (route: PaidRoute, status: number, body: Envelope) => string[] {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema({ $id: "analytics", components: contract.document.components });
  const compiled = new Map<string, ValidateFunction>();
  const paths = contract.document.paths;
  return (route, status, body) => {
    const key = `${route.operationId} ${status}`;
    let validate = compiled.get(key);
    if (!validate) {
      const schema = paths[route.path]?.[route.method]?.responses[String(status)]?.content?.["application/json"]?.schema;
      validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"analytics#/')));
      compiled.set(key, validate);
    }
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`);
  };
}
