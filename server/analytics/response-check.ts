/**
 * Checks a paid route's answers against the contract's schemas for their status. An envelope (200
 * or 206) is checked before the payment settles, in every mode: a server bug (or an input that
 * drives a rule outside the contract) is then a 500 that costs the caller nothing, never a charged
 * answer that breaks the contract. Non-finite numbers are refused (`strictNumbers`): JSON would
 * carry them as `null`. The 402 challenge is checked where responses are validated (outside
 * production). Every schema is compiled once, at start-up.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { AnalyticsContract, PaidRoute } from "./contract.js";
import { contractCompiler } from "./contract-schemas.js";

/** The statuses whose bodies a paid route builds itself (its errors are the error handler's). */
const CHECKED = [200, 206, 402] as const;

/** The contract's violations in a body the route answers with `status`; none when it holds. */
export type ResponseCheck = (status: (typeof CHECKED)[number], body: unknown) => string[];

/** Each paid route's check, looked up once per route. */
export function responseChecker(contract: AnalyticsContract): (route: PaidRoute) => ResponseCheck {
  const ajv = new Ajv2020({ allErrors: true, strict: false, strictNumbers: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  const compile = contractCompiler(contract, ajv);
  const byRoute = new Map<string, ValidateFunction>();
  for (const route of contract.paid) {
    for (const status of CHECKED) {
      const schema = contract.document.paths[route.path]?.[route.method]?.responses[String(status)]?.content?.["application/json"]?.schema;
      if (!schema) throw new Error(`${route.operationId} documents no ${status} body`);
      byRoute.set(`${route.operationId} ${status}`, compile(schema));
    }
  }
  return (route) => {
    const validators = new Map(CHECKED.map((status) => [status, byRoute.get(`${route.operationId} ${status}`) as ValidateFunction]));
    return (status, body) => {
      const validate = validators.get(status) as ValidateFunction;
      return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`);
    };
  };
}
