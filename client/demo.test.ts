// `npm run demo` end to end, as a child process: every step passes and it exits 0 within the minute.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

describe("npm run demo", () => {
  it("walks the whole session and exits 0", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/demo.ts"], { cwd: root, timeout: 60_000 });
    expect(stdout).toMatch(/✓ all \d+ steps behaved as expected/);
    expect(stdout).not.toContain("✗");
    for (const reason of ["invalid_exact_evm_nonce_already_used", "duplicate_settlement", "cap_per_call"]) expect(stdout).toContain(reason);
  }, 70_000);
});
