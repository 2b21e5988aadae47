// `npm run demo` end to end, as a child process: every step passes and it exits 0 within the minute,
// naming the x402 version of each payment and refusing each replay in either version's header.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

describe("npm run demo", () => {
  it("walks the whole session and exits 0", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/demo.ts"], {
      cwd: root,
      timeout: 60_000,
    });
    expect(stdout).toMatch(/✓ all \d+ steps behaved as expected/);
    expect(stdout).not.toContain("✗");
    for (const reason of ["invalid_exact_evm_nonce_already_used", "duplicate_settlement", "cap_per_call"])
      expect(stdout).toContain(reason);
    expect(stdout).toMatch(/paid 0\.\d+ USDC on base-sepolia over x402 v2 \(PAYMENT-SIGNATURE\)/);
    expect(stdout).toMatch(/paid 0\.\d+ USDC on base-sepolia over x402 v1 \(X-PAYMENT\)/);
    // Each replay is refused in its own header for another request and in the other version's for the same one.
    expect(stdout.match(/in PAYMENT-SIGNATURE for another request: refused, 402 \w+/g)).toHaveLength(2);
    expect(stdout.match(/in X-PAYMENT for the same request: refused, 402 \w+/g)).toHaveLength(2);
  }, 70_000);
});
