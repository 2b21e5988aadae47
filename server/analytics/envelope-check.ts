/**
 * Checks an envelope against its route's 200 or 206 schema before the payment settles, in every
 * mode: a server bug (or an input that drives a rule outside the contract) is then a 500 that
 * costs the caller nothing, never a charged answer that breaks the contract. Non-finite numbers
 * are refused (`strictNumbers`): JSON would carry them as `null`. Every schema is compiled once,
 * at start-up; the prefixes of an operation share theirs.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { AnalyticsContract, PaidRoute } from "./contract.js";
import type { Envelope } from "./envelope.js";

export type EnvelopeCheck = (route: PaidRoute, status: 200 | 206, body: Envelope) => string[];

export function envelopeChecker(contract: AnalyticsContract): EnvelopeCheck {
  const ajv = new Ajv2020({ allErrors: true, strict: false, strictNumbers: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema({ $id: "analytics", components: contract.document.components });
  const bySchema = new Map<string, ValidateFunction>();
  const byRoute = new Map<string, ValidateFunction>();
  for (const route of contract.paid) {
    for (const status of [200, 206]) {
      const schema = contract.document.paths[route.path]?.[route.method]?.responses[String(status)]?.content?.["application/json"]?.schema;
      const text = JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"analytics#/');
      let validate = bySchema.get(text);
      if (!validate) {
        validate = ajv.compile(JSON.parse(text));
        bySchema.set(text, validate);
      }
      byRoute.set(`${route.operationId} ${status}`, validate);
    }
  }
  return (route, status, body) => {
    const validate = byRoute.get(`${route.operationId} ${status}`) as ValidateFunction;
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`);
  };
}
