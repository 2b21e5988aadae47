/**
 * The paid operations' input check, as a call's input arrives at the pipeline without Express (a POST
 * on the paid lane, a tool call): each operation's request schema compiled once per contract, on its
 * first input, shared by its three prefixes (and by every app built from the contract), and run as
 * express-openapi-validator runs it on the Express path: Ajv 2020 with the same options and formats,
 * every error reported, defaults filled in. Its errors are turned into named fields as that
 * validator turns them, so that a request gets the same 400, word for word, whichever way it came
 * (input-check.test.ts holds both to it).
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
// The Express validator's own formats (int32, int64, float, double, byte, ...), so that a format means the same on both paths.
import { formats } from "express-openapi-validator/dist/framework/ajv/formats.js";
import { type FieldError, validatorFieldErrors } from "../../http/errors.js";
import { nonFiniteFields } from "../../http/input-guard.js";
import type { AnalyticsContract, PaidRoute } from "../contract/analytics-contract.js";
import { contractCompiler } from "../contract/schema-compiler.js";

/** Every field of `input` that breaks the operation's schema (none: valid), filling in the defaults its schema gives. */
export type InputCheck = (input: unknown) => FieldError[];

const built = new WeakMap<AnalyticsContract, (route: PaidRoute) => InputCheck>();

export function inputChecks(contract: AnalyticsContract): (route: PaidRoute) => InputCheck {
  let checks = built.get(contract);
  if (!checks) {
    checks = compiledChecks(contract);
    built.set(contract, checks);
  }
  return checks;
}

function compiledChecks(contract: AnalyticsContract): (route: PaidRoute) => InputCheck {
  // express-openapi-validator's request options (its AjvOptions, with `validateRequests: {allErrors: true}`): no type
  // coercion for a body.
  const ajv = new Ajv2020({
    strict: false,
    strictNumbers: true,
    strictTuples: true,
    allowUnionTypes: false,
    validateSchema: false,
    coerceTypes: false,
    useDefaults: true,
    removeAdditional: false,
    allErrors: true,
  });
  // In the Express validator's order: its formats, then ajv-formats' fast ones over them.
  for (const [name, format] of Object.entries(formats)) ajv.addFormat(name, format as never);
  (addFormats as unknown as (a: Ajv2020, options: { mode: "fast" }) => void)(ajv, { mode: "fast" });
  const compile = contractCompiler(contract, ajv);
  return (route) => {
    const body = contract.document.paths[route.path]?.post?.requestBody as
      | { content?: Record<string, { schema?: unknown }> }
      | undefined;
    const schema = body?.content?.["application/json"]?.schema;
    if (route.method !== "post" || !schema) throw new Error(`${route.operationId} takes no JSON body`);
    let validate: ValidateFunction | undefined;
    return (input) => {
      validate ??= compile(schema);
      if (!validate(input)) return validatorFieldErrors(asValidatorErrors(validate.errors ?? []));
      // After the schema, as the Express path's `refuseMalformedNumbers` does after its validator.
      return nonFiniteFields(input).map((field) => ({ location: "body", field, message: "must be a finite number" }));
    };
  };
}

/**
 * Ajv's errors of a body as express-openapi-validator reports them (its `augmentAjvErrors` and
 * `ajvErrorsToValidatorError`): an enum's message lists the allowed values, and the path names the
 * missing, additional or unevaluated property, under `/body`.
 */
function asValidatorErrors(errors: ErrorObject[]): { path: string; message: string; errorCode: string }[] {
  return errors.map((e) => {
    const params = e.params as {
      allowedValues?: unknown[];
      missingProperty?: string;
      additionalProperty?: string;
      unevaluatedProperty?: string;
    };
    const named = params.missingProperty ?? params.additionalProperty ?? params.unevaluatedProperty;
    const message =
      e.keyword === "enum" && params.allowedValues
        ? `${e.message}: ${params.allowedValues.join(", ")}`
        : (e.message ?? "");
    return {
      path: `/body${named === undefined ? e.instancePath : `${e.instancePath}/${named}`}`,
      message,
      errorCode: `${e.keyword}.openapi.validation`,
    };
  });
}
