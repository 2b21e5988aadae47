// The committed MiniUSDC artifact is what contracts/MiniUSDC.sol compiles to (solc-js, about 2 s),
// so the chains never run code that the source no longer describes.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compileContracts } from "../../../../../../scripts/compile-contracts.mjs";

describe("the MiniUSDC artifact", () => {
  it("equals a fresh compilation of contracts/*.sol", () => {
    const root = new URL("../../../../../../", import.meta.url);
    const artifacts = compileContracts();
    expect(artifacts.map((a: { file: string }) => a.file)).toContain(
      "server/analytics/payments/settlement/backends/local-chain/MiniUSDC.json",
    );
    for (const { file, json } of artifacts) expect(readFileSync(new URL(file, root), "utf8"), file).toBe(json);
  });
});
