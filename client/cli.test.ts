// The command line against the real services: the confirmation flow through its input stream,
// --json output, the x402 version of each payment (v2 by default, v1 when forced with --protocol or
// when the server offers only v1), the operation list from the contract, and keys refused on the
// command line.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { generateKeyPairSigner } from "@solana/kit";
import { generatePrivateKey } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { type CliIo, main } from "../scripts/cli.js";
import { v1Only } from "../test/support/challenge-edits.js";
import { useLocalServices } from "../test/support/local-services.js";

const services = useLocalServices();

const evmKey = generatePrivateKey();

function collector() {
  const stream = new PassThrough();
  let text = "";
  stream.on("data", (chunk) => {
    text += chunk;
  });
  return { stream, text: () => text };
}

/** Runs the CLI with `input` as what the user types. */
async function run(
  argv: string[],
  {
    input = "",
    env = { X402_EVM_PRIVATE_KEY: evmKey } as Record<string, string>,
    fetch,
  }: { input?: string; env?: Record<string, string>; fetch?: CliIo["fetch"] } = {},
) {
  const stdin = new PassThrough();
  stdin.end(input);
  const stdout = collector();
  const stderr = collector();
  const code = await main({
    argv: [...argv, "--base-url", services().analyticsUrl],
    env,
    stdin,
    stdout: stdout.stream,
    stderr: stderr.stream,
    ...(fetch ? { fetch } : {}),
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

const settled = async () => (await services().ledger.rows()).filter((r) => r.status === "settled").length;

describe("npm run cli", () => {
  it("shows endpoint, parameters and price, and pays nothing when the answer is n", async () => {
    const before = await settled();
    const { code, stdout } = await run(["defiTvl", "--chain", "solana", "--limit", "2", "--network", "base"], {
      input: "n\n",
    });
    expect(code).toBe(1);
    expect(stdout).toContain(`POST ${services().analyticsUrl}/base/defi/tvl`);
    expect(stdout).toContain("limit = 2");
    expect(stdout).toMatch(/price: 0\.001 USDC \(1000 micro-USDC\) on base-sepolia over x402 v2, to 0x/);
    expect(stdout).toContain("Pay 0.001 USDC on base-sepolia? [y/N]");
    expect(stdout).toContain("Not paid.");
    expect(await settled()).toBe(before);
  });

  it("pays on y and prints signal and confidence first, the insight, then data as a table", async () => {
    const before = await settled();
    const { code, stdout } = await run(["/lp/pools", "--sort", "tvl", "--limit", "3", "--network", "skale"], {
      input: "y\n",
    });
    expect(code).toBe(0);
    expect(await settled()).toBe(before + 1);
    const answer = stdout.slice(stdout.indexOf("HTTP 200"));
    const lines = answer.split("\n");
    expect(lines[1]).toMatch(/^signal {6}(add_liquidity|hold) {3}\(confidence \d\.\d\d\)$/);
    expect(lines[2]).toMatch(/^insight {5}\S/);
    expect(answer).toMatch(/data\.pools \(3\)\n {2}address +name +bin_step/);
    expect(stdout).toMatch(
      /paid 0\.\d+ USDC on skale-base-sepolia over x402 v2 \(PAYMENT-SIGNATURE\) · transaction ledger:/,
    );
  });

  it("pays on Solana with --yes and prints only the envelope JSON on stdout with --json", async () => {
    const secret = await generateKeyPairSigner(true);
    const bytes = new Uint8Array(await crypto.subtle.exportKey("pkcs8", secret.keyPair.privateKey)).slice(-32);
    const pub = new Uint8Array(await crypto.subtle.exportKey("raw", secret.keyPair.publicKey));
    const dir = mkdtempSync(join(tmpdir(), "cli-keys-"));
    const keyFile = join(dir, "keys.json");
    writeFileSync(keyFile, JSON.stringify({ X402_SOLANA_SECRET_KEY: [...bytes, ...pub] }));
    const { code, stdout, stderr } = await run(
      ["trenchesGraduating", "--limit", "2", "--yes", "--json", "--key-file", keyFile],
      {
        env: {},
      },
    );
    expect(code).toBe(0);
    const envelope = JSON.parse(stdout);
    expect(envelope.data.graduating.length).toBeLessThanOrEqual(2);
    expect(stderr).toContain(`POST ${services().analyticsUrl}/trenches/graduating`);
    expect(stderr).toMatch(/paid 0\.\d+ USDC on solana-devnet over x402 v2 \(PAYMENT-SIGNATURE\)/);
    expect(stderr).not.toContain("[y/N]");
  });

  it("pays over x402 v1 with --protocol v1, and by itself when the server offers only v1", async () => {
    const before = await settled();
    const forced = await run(["defiTvl", "--network", "base", "--protocol", "v1", "--yes"]);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain("on base-sepolia over x402 v1, to 0x");
    expect(forced.stdout).toMatch(/paid 0\.001 USDC on base-sepolia over x402 v1 \(X-PAYMENT\) · transaction ledger:/);
    const fallback = await run(["defiTvl", "--network", "skale", "--yes"], { fetch: v1Only() });
    expect(fallback.stdout).toMatch(/paid 0\.001 USDC on skale-base-sepolia over x402 v1 \(X-PAYMENT\)/);
    expect(await settled()).toBe(before + 2);
    const v2Only = await run(["defiTvl", "--network", "skale", "--protocol", "v2", "--yes"], { fetch: v1Only() });
    expect(v2Only).toMatchObject({ code: 1, stdout: expect.stringMatching(/Not paid \(version_not_offered\)/) });
    const unknown = await run(["defiTvl", "--protocol", "v3"]);
    expect(unknown).toMatchObject({
      code: 2,
      stdout: expect.stringContaining('--protocol must be v1, v2 or auto, got "v3"'),
    });
  });

  it("refuses a key passed as an argument, before anything else", async () => {
    for (const argv of [
      ["defiTvl", "--private-key", evmKey],
      ["defiTvl", `--evm-key=${evmKey}`],
      ["defiTvl", "--chain", evmKey],
    ]) {
      const { code, stdout } = await run(argv, { env: {} });
      expect(code).toBe(2);
      expect(stdout).toContain("keys are never taken from the command line");
    }
  });

  it("refuses above --max-usd without asking, and names a missing key", async () => {
    const capped = await run(["ask", "--query", "where is yield?", "--network", "base", "--max-usd", "0.01"]);
    expect(capped.code).toBe(1);
    expect(capped.stdout).toMatch(/Not paid \(cap_per_call\)/);
    expect(capped.stdout).not.toContain("[y/N]");
    const keyless = await run(["defiTvl", "--network", "skale"], { env: {} });
    expect(keyless).toMatchObject({ code: 2, stdout: expect.stringContaining("set X402_EVM_PRIVATE_KEY") });
  });

  it("lists the contract's operations with --help and coerces parameters by their schema types", async () => {
    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    for (const name of ["defiTvl", "lpPools", "trenchesGraduating", "smartmoneyTokenScreener", "ask"])
      expect(help.stdout).toContain(name);
    expect(help.stdout).toMatch(/--protocol v1\|v2 +pay in this x402 version only/);
    const params = await run(["smartmoneyTokenScreener", "--help"]);
    expect(params.stdout).toMatch(/--only_smart_money +boolean/);
    const badType = await run(["defiTvl", "--limit", "many"]);
    expect(badType).toMatchObject({ code: 2, stdout: expect.stringContaining("--limit must be integer") });
    const unknown = await run(["defiTvl", "--limt", "3"]);
    expect(unknown.stdout).toContain("defiTvl has no parameter --limt");
    const invalid = await run(["defiTvl", "--limit", "500", "--network", "base", "--yes"]);
    expect(invalid).toMatchObject({
      code: 1,
      // refused from the unpaid challenge, which names the field: nothing is signed for a request that cannot succeed
      stdout: expect.stringMatching(/HTTP 402 [^\n]*Fix limit[^\n]*\n {2}body limit: /),
    });
  });
});
