import { describe, expect, it } from "vitest";
import { registryDocument } from "./document.js";
import { checkName, MAX_NAME_LENGTH } from "./names.js";

const valid = (normalized: string) => ({ status: "valid", normalized });
const invalid = (rule: string) => expect.objectContaining({ status: "invalid", rule });

describe("checkName", () => {
  it("folds case and compatibility forms (NFKC), then maps _ . and spaces to -", () => {
    expect(checkName("Orbit-Scout")).toEqual(valid("orbit-scout"));
    expect(checkName("ORBIT_SCOUT")).toEqual(valid("orbit-scout"));
    expect(checkName("orbit.scout")).toEqual(valid("orbit-scout"));
    expect(checkName("Orbit Scout")).toEqual(valid("orbit-scout"));
    expect(checkName("orbit\u00a0scout")).toEqual(valid("orbit-scout")); // no-break space is a space under NFKC
    expect(checkName("ＯＲＢＩＴ－ＳＣＯＵＴ")).toEqual(valid("orbit-scout")); // fullwidth letters and hyphen
    expect(checkName("\ufb01sh-bot")).toEqual(valid("fish-bot")); // the "ﬁ" ligature
    expect(checkName("\u212aelvin")).toEqual(valid("kelvin")); // Kelvin sign is K under NFKC
    expect(checkName("agent-007")).toEqual(valid("agent-007"));
  });

  it("is idempotent: a normalized name normalizes to itself", () => {
    for (const raw of ["Orbit_Scout", "ＤｅｅｐＴｉｄｅ.Research", "a.b.c", "x".repeat(MAX_NAME_LENGTH)]) {
      const first = checkName(raw);
      expect(first.status).toBe("valid");
      if (first.status === "valid") expect(checkName(first.normalized)).toEqual(first);
    }
  });

  it("refuses unicode look-alikes instead of folding them, naming the character", () => {
    const cyrillic = checkName("\u043erbit-scout"); // Cyrillic о
    expect(cyrillic).toEqual(invalid("characters"));
    expect(cyrillic.status === "invalid" && cyrillic.message).toBe(
      'must use only a-z, 0-9 and the separators - _ . or space; "о" (U+043E) is not allowed',
    );
    expect(checkName("\u0440aypal-bot")).toEqual(invalid("characters")); // Cyrillic р
    expect(checkName("\u03bfrbit-scout")).toEqual(invalid("characters")); // Greek ο
    expect(checkName("cafe\u0301")).toEqual(invalid("characters")); // composes to é
    expect(checkName("\u0130stanbul")).toEqual(invalid("characters")); // İ lowercases to i + combining dot
    const invisible = checkName("orbit\u200bscout");
    expect(invisible.status === "invalid" && invisible.message).toContain("(U+200B)");
  });

  it("refuses other characters, and never throws on broken input", () => {
    for (const raw of ["@orbit", "orbit/scout", "orbit!", "orbit\tscout", "rocket-🚀", "\ud800bad"]) {
      expect(checkName(raw), raw).toEqual(invalid("characters"));
    }
  });

  it("bounds the length after normalization to 3 to 32 characters", () => {
    const tooShort = checkName("ab");
    expect(tooShort).toEqual(invalid("length"));
    expect(tooShort.status === "invalid" && tooShort.message).toBe("must be 3 to 32 characters");
    expect(checkName("")).toEqual(invalid("length"));
    expect(checkName("abc")).toEqual(valid("abc"));
    expect(checkName("a".repeat(32))).toEqual(valid("a".repeat(32)));
    expect(checkName("a".repeat(33))).toEqual(invalid("length"));
    expect(checkName("\u3392")).toEqual(valid("mhz")); // one character "㎒" expands to three
  });

  it("refuses leading, trailing and doubled separators rather than trimming them", () => {
    for (const raw of ["-orbit", "orbit-", "_orbit", "orbit.", " orbit", "orbit "]) {
      expect(checkName(raw), raw).toEqual(invalid("edge-separator"));
    }
    for (const raw of ["orbit--scout", "orbit_-scout", "orbit  scout", "orbit..scout"]) {
      expect(checkName(raw), raw).toEqual(invalid("double-separator"));
    }
  });

  it("reports the first rule broken, in the documented order", () => {
    expect(checkName("-\u0430")).toEqual(invalid("characters"));
    expect(checkName("-a")).toEqual(invalid("length"));
    expect(checkName("-ab--")).toEqual(invalid("edge-separator"));
  });

  it("marks reserved names after normalization, keeping them well formed", () => {
    expect(checkName("admin")).toEqual({ status: "reserved", normalized: "admin" });
    expect(checkName("ADMIN")).toEqual({ status: "reserved", normalized: "admin" });
    expect(checkName("Well.Known")).toEqual({ status: "reserved", normalized: "well-known" });
    expect(checkName("admin-bot")).toEqual(valid("admin-bot"));
  });

  it("holds exactly the rules and reserved names the spec documents", () => {
    const agentName = registryDocument.components.schemas.AgentName?.description as string;
    for (const message of [
      "must be 3 to 32 characters",
      "must not start or end with a separator",
      "must not contain two separators in a row",
    ]) {
      expect(agentName).toContain(message);
    }
    const reserved = registryDocument.components.schemas.ReservedName?.enum as string[];
    expect(reserved.length).toBeGreaterThan(20);
    for (const name of reserved) expect(checkName(name), name).toEqual({ status: "reserved", normalized: name });
  });
});
