import { describe, expect, it } from "vitest";
import { inlineRefs } from "./inline-refs.js";

const schemas = {
  Chain: { type: "string", pattern: "^[a-z]+$" },
  Pair: {
    type: "object",
    properties: { base: { $ref: "#/components/schemas/Chain" }, quote: { $ref: "#/components/schemas/Chain" } },
  },
  Loop: { type: "object", properties: { next: { $ref: "#/components/schemas/Loop" } } },
};

describe("inlineRefs", () => {
  it("replaces every reference, nested ones too, by a copy of its target", () => {
    expect(inlineRefs({ pair: { $ref: "#/components/schemas/Pair" }, limit: { type: "integer" } }, schemas)).toEqual({
      pair: { type: "object", properties: { base: schemas.Chain, quote: schemas.Chain } },
      limit: { type: "integer" },
    });
  });

  it("keeps a reference's siblings beside its target", () => {
    expect(
      inlineRefs({ allOf: [{ $ref: "#/components/schemas/Chain" }], description: "Chain filter." }, schemas),
    ).toEqual({
      allOf: [schemas.Chain],
      description: "Chain filter.",
    });
    expect(inlineRefs({ $ref: "#/components/schemas/Chain", default: "all" }, schemas)).toEqual({
      allOf: [schemas.Chain],
      default: "all",
    });
  });

  it("refuses a recursive schema and a reference to nothing", () => {
    expect(() => inlineRefs({ $ref: "#/components/schemas/Loop" }, schemas)).toThrow(/recursive schema Loop → Loop/);
    expect(() => inlineRefs({ $ref: "#/components/schemas/Nope" }, schemas)).toThrow(/names no schema/);
    expect(() => inlineRefs({ $ref: "other.json#/Chain" }, schemas)).toThrow(/cannot inline/);
  });
});
