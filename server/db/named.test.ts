import { describe, expect, it } from "vitest";
import { named, SQLITE } from "./named.js";

describe("named parameters", () => {
  it("numbers each name once, in order of first use, and leaves casts alone", () => {
    const statement = named("SELECT :b::bigint, :a, :b::text[] WHERE x = ':not' AND y::int = :a");
    expect(statement.text).toBe("SELECT $1::bigint, $2, $1::text[] WHERE x = ':not' AND y::int = $2");
    expect(statement.values({ a: 1, b: 2, unused: 3 })).toEqual([2, 1]);
  });

  it("writes the placeholders as the driver numbers them", () => {
    expect(named("UPDATE t SET s = :stage WHERE id = :entry AND s <> :stage", SQLITE).text).toBe(
      "UPDATE t SET s = ?1 WHERE id = ?2 AND s <> ?1",
    );
  });

  it("refuses to run without a value for every name", () => {
    expect(() => named("UPDATE t SET s = :stage WHERE id = :entry").values({ entry: 1 })).toThrow(":stage");
  });
});
