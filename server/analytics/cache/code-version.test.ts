import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { codeFiles, codeFingerprint, fingerprintFiles } from "./code-version.js";

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "fingerprint-"));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

const of = (root: string) => fingerprintFiles(root, codeFiles(root));

describe("the code's fingerprint", () => {
  const base = {
    "a.ts": "export const a = 1;",
    "providers/b.ts": "export const b = 2;",
    "providers/b.test.ts": "test",
  };

  it("is the same for the same code in another place, and ignores tests", () => {
    expect(of(tree(base))).toBe(of(tree({ ...base, "providers/b.test.ts": "another test" })));
  });

  it("changes with any file's content, a nested one included, and with a file moved or added", () => {
    const before = of(tree(base));
    expect(of(tree({ ...base, "providers/b.ts": "export const b = 3;" }))).not.toBe(before);
    expect(of(tree({ "a.ts": base["a.ts"], "providers/c.ts": base["providers/b.ts"] }))).not.toBe(before);
    expect(of(tree({ ...base, "providers/new.json": "{}" }))).not.toBe(before);
  });

  it("of this checkout: 16 hex digits, stable within the process", () => {
    expect(codeFingerprint()).toMatch(/^[0-9a-f]{16}$/);
    expect(codeFingerprint()).toBe(codeFingerprint());
  });
});
