/**
 * The one name rule of the registry's shared namespace (native passport names and
 * bring-your-own-agent slugs), exactly as documented on `AgentName` in spec/registry/models.tsp.
 * Every reader and writer goes through `checkName`; it returns a verdict and never throws.
 */
import { registryDocument } from "./document.js";

export type NameRule = "characters" | "length" | "edge-separator" | "double-separator";

export type NameCheck =
  | { status: "valid"; normalized: string }
  /** Well formed, but kept by the registry (`ReservedName`): it can be asked about, never held. */
  | { status: "reserved"; normalized: string }
  | { status: "invalid"; rule: NameRule; message: string };

export const MIN_NAME_LENGTH = 3;
export const MAX_NAME_LENGTH = 32;

// The list lives in the spec (`ReservedName`) so that callers can read it from the contract.
const RESERVED: ReadonlySet<string> = new Set(registryDocument.components.schemas.ReservedName?.enum as string[]);
if (RESERVED.size === 0) throw new Error("the registry document lists no ReservedName values");

const ALLOWED = /^[a-z0-9-]$/;

export function checkName(raw: string): NameCheck {
  const folded = raw.normalize("NFKC").toLowerCase().replace(/[_. ]/g, "-");
  // Refused rather than folded: a look-alike (Cyrillic `а`) must never pass for a Latin name.
  const stranger = [...folded].find((char) => !ALLOWED.test(char));
  if (stranger !== undefined) {
    return invalid(
      "characters",
      `must use only a-z, 0-9 and the separators - _ . or space; ${describe(stranger)} is not allowed`,
    );
  }
  if (folded.length < MIN_NAME_LENGTH || folded.length > MAX_NAME_LENGTH) {
    return invalid("length", `must be ${MIN_NAME_LENGTH} to ${MAX_NAME_LENGTH} characters`);
  }
  if (folded.startsWith("-") || folded.endsWith("-"))
    return invalid("edge-separator", "must not start or end with a separator");
  if (folded.includes("--")) return invalid("double-separator", "must not contain two separators in a row");
  return { status: RESERVED.has(folded) ? "reserved" : "valid", normalized: folded };
}

function invalid(rule: NameRule, message: string): NameCheck {
  return { status: "invalid", rule, message };
}

/** `"а" (U+0430)`: the code point makes invisible and look-alike characters identifiable. */
function describe(char: string): string {
  const code = (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
  return `${JSON.stringify(char)} (U+${code})`;
}
