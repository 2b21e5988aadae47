/**
 * Checks a paid route's answers against the contract's schemas for their status. An envelope (200
 * or 206) is checked before the payment settles, in every mode: a server bug (or an input that
 * drives a rule outside the contract) is then a 500 that costs the caller nothing, never a charged
 * answer that breaks the contract. Non-finite numbers are refused (`strictNumbers`): JSON would
 * carry them as `null`. The 402 challenge is checked where responses are validated (outside
 * production). Each schema is compiled once per contract, when its route first answers with that
 * status: start-up compiles none, and apps built from one contract share them.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { AnalyticsContract, PaidRoute } from "../contract/analytics-contract.js";
import { type CompileSchema, contractCompiler } from "../contract/schema-compiler.js";

/** The statuses whose bodies a paid route builds itself (its errors are the error handler's). */
const CHECKED = [200, 206, 402] as const;

/** The contract's violations in a body the route answers with `status`; none when it holds. */
export type ResponseCheck = (status: (typeof CHECKED)[number], body: unknown) => string[];

const checkers = new WeakMap<AnalyticsContract, (route: PaidRoute) => ResponseCheck>();

/** Each paid route's check, looked up once per route. */
export function responseChecker(contract: AnalyticsContract): (route: PaidRoute) => ResponseCheck {
  let checker = checkers.get(contract);
  if (!checker) {
    checker = compiledChecks(contract);
    checkers.set(contract, checker);
  }
  return checker;
}

function compiledChecks(contract: AnalyticsContract): (route: PaidRoute) => ResponseCheck {
  // The compiler (and the document's components it holds) is made with the first schema compiled.
  let compiler: CompileSchema | undefined;
  const compile: CompileSchema = (schema) => {
    if (!compiler) {
      const ajv = new Ajv2020({ allErrors: true, strict: false, strictNumbers: true });
      (addFormats as unknown as (a: Ajv2020) => void)(ajv);
      compiler = contractCompiler(contract, ajv);
    }
    return compiler(schema);
  };
  return (route) => {
    const validators = new Map<number, () => ValidateFunction>();
    for (const status of CHECKED) {
      const schema =
        contract.document.paths[route.path]?.[route.method]?.responses[String(status)]?.content?.["application/json"]
          ?.schema;
      if (!schema) throw new Error(`${route.operationId} documents no ${status} body`);
      let validate: ValidateFunction | undefined;
      validators.set(status, () => {
        validate ??= compile(schema);
        return validate;
      });
    }
    return (status, body) => {
      const validate = (validators.get(status) as () => ValidateFunction)();
      return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`);
    };
  };
}
