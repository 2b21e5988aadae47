/**
 * Schemas of the contract's document compiled with Ajv: each one's references resolve against the
 * document's components, and each distinct schema is compiled once (the three prefixes of an
 * operation share theirs).
 */
import type { Ajv2020, ValidateFunction } from "ajv/dist/2020.js";
import type { AnalyticsContract } from "./analytics-contract.js";

export type CompileSchema = (schema: unknown) => ValidateFunction;

export function contractCompiler(contract: AnalyticsContract, ajv: Ajv2020): CompileSchema {
  ajv.addSchema({ $id: "analytics", components: contract.document.components });
  const compiled = new Map<string, ValidateFunction>();
  return (schema) => {
    const text = JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"analytics#/');
    let validate = compiled.get(text);
    if (!validate) {
      validate = ajv.compile(JSON.parse(text));
      compiled.set(text, validate);
    }
    return validate;
  };
}
