/**
 * The paid POSTs' body validators for the paid lane (paid-lane.ts): each operation's request schema
 * compiled once per contract, on its first body, shared by its three prefixes (and by every app built
 * from the contract), and run as express-openapi-validator runs it on the
 * Express path (Ajv 2020 with the same options and formats, defaults filled in), so that both accept
 * the same bodies and hand the handler the same input. The lane only asks whether a body is valid:
 * an invalid one is handed to Express, whose validator words the 400, so the errors never differ.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
// The Express validator's own formats (int32, int64, float, double, byte, ...), so that a format means the same on both paths.
import { formats } from "express-openapi-validator/dist/framework/ajv/formats.js";
import type { AnalyticsContract, PaidRoute } from "./contract.js";
import { contractCompiler } from "./contract-schemas.js";

/** Whether `body` is valid; fills in the defaults its schema gives, as the Express validator does. */
export type BodyValidator = (body: unknown) => boolean;

const built = new WeakMap<AnalyticsContract, (route: PaidRoute) => BodyValidator>();

export function bodyValidators(contract: AnalyticsContract): (route: PaidRoute) => BodyValidator {
  let validators = built.get(contract);
  if (!validators) {
    validators = compiledValidators(contract);
    built.set(contract, validators);
  }
  return validators;
}

function compiledValidators(contract: AnalyticsContract): (route: PaidRoute) => BodyValidator {
  // express-openapi-validator's request options (its AjvOptions), for a body: no type coercion, every error not needed.
  const ajv = new Ajv2020({
    strict: false,
    strictNumbers: true,
    strictTuples: true,
    allowUnionTypes: false,
    validateSchema: false,
    coerceTypes: false,
    useDefaults: true,
    removeAdditional: false,
  });
  // In the Express validator's order: its formats, then ajv-formats' fast ones over them.
  for (const [name, format] of Object.entries(formats)) ajv.addFormat(name, format as never);
  (addFormats as unknown as (a: Ajv2020, options: { mode: "fast" }) => void)(ajv, { mode: "fast" });
  const compile = contractCompiler(contract, ajv);
  return (route) => {
    const body = contract.document.paths[route.path]?.post?.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined;
    const schema = body?.content?.["application/json"]?.schema;
    if (route.method !== "post" || !schema) throw new Error(`${route.operationId} takes no JSON body`);
    let validate: ValidateFunction | undefined;
    return (body) => {
      validate ??= compile(schema);
      return validate(body);
    };
  };
}
