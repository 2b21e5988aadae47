// `npm start`'s entry point refuses what cannot work or is unsafe, as a process: exit code 2 and one
// plain line on stderr naming the variable and what to do (never a JSON log line or a stack trace).

import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { freePort, runUntilExit, startService } from "../support/processes.js";
import { hasRedis, TEST_REDIS_URL } from "../support/services.js";

const dir = mkdtempSync(join(tmpdir(), "refusals-"));
const notADatabase = join(dir, "notes.txt");
writeFileSync(notADatabase, "not a database, just text that is long enough to have a header");
const files = { LEDGER_DB: join(dir, "ledger.db"), REGISTRY_DB: join(dir, "registry.db") };
const MAINNET = {
  X402_PROFILE: "mainnet",
  PAY_TO_EVM: "0x1111111111111111111111111111111111111111",
  TREASURY_EVM: "0x2222222222222222222222222222222222222222",
  PAY_TO_SOLANA: "So11111111111111111111111111111111111111112",
  TREASURY_SOLANA: "9Lxm71TpvpQEiQy3TekLZM98ukgPHYMmVuyqr9vMuRp8",
  SOLANA_FEE_PAYER: "J9Pd8fXB12ipb8dqRuQPpPXbd3V8mrLJwrN54HARLa6g",
  PUBLIC_BASE_URL: "https://api.example.com",
};

async function expectRefusal(env: Record<string, string>, line: string | RegExp) {
  const ports = { PORT: String(await freePort()), REGISTRY_PORT: String(await freePort()) };
  const { code, stderr } = await runUntilExit({ ...files, ...ports, ...env });
  expect(stderr.trimEnd().split("\n"), stderr).toHaveLength(1);
  if (typeof line === "string") expect(stderr.trim()).toBe(line);
  else expect(stderr.trim()).toMatch(line);
  expect(code).toBe(2);
}

describe("start-up refusals (exit 2, one line)", () => {
  const cases: [string, Record<string, string>, string | RegExp][] = [
    ["a port that is not a number", { PORT: "abc" }, 'PORT must be a port number from 1 to 65535, got "abc"'],
    [
      "an unknown log level",
      { LOG_LEVEL: "bogus" },
      'LOG_LEVEL must be fatal, error, warn, info, debug, trace, silent; got "bogus"',
    ],
    ["an unknown profile", { X402_PROFILE: "prod" }, 'X402_PROFILE must be testnet, mainnet; got "prod"'],
    [
      "an unknown settlement",
      { SETTLEMENT: "chain" },
      'SETTLEMENT must be ledger, facilitator, local-chain; got "chain"',
    ],
    ["a number that cannot work", { INSIGHT_ATTEMPTS: "0" }, 'INSIGHT_ATTEMPTS must be a positive integer, got "0"'],
    [
      "a short EVM address",
      { PAY_TO_EVM: "0x123" },
      'PAY_TO_EVM must be an EVM address (0x and 40 hex digits), got "0x123"',
    ],
    [
      "a mixed-case EVM address with a bad checksum",
      { TREASURY_EVM: "0xBAb484B2daAFAb4BF6eD642A847517d33d106535" },
      /^TREASURY_EVM has mixed case but not a valid EIP-55 checksum \(0xBab484B2daAFAb4BF6eD642A847517d33d106535 is\)/,
    ],
    [
      "a Solana address that is not base58 of 32 bytes",
      { PAY_TO_SOLANA: "0OIl" },
      'PAY_TO_SOLANA must be a Solana address (base58 of 32 bytes), got "0OIl"',
    ],
    [
      "a public origin that is not one",
      { PUBLIC_BASE_URL: "javascript://evil.example" },
      /^PUBLIC_BASE_URL must be an http\(s\) origin/,
    ],
    [
      "a receipt key that is no Ed25519 key",
      { RECEIPT_SIGNING_KEY: "not a key" },
      'RECEIPT_SIGNING_KEY must be an Ed25519 private key as a PKCS#8 PEM or a JWK with "d"',
    ],
    [
      "a duration longer than a timer can wait",
      { RECOVERY_INTERVAL_MS: "99999999999" },
      /^RECOVERY_INTERVAL_MS must be a positive integer up to 2147483647/,
    ],
    [
      "one port for both services",
      { PORT: "30999", REGISTRY_PORT: "30999" },
      "PORT and REGISTRY_PORT must differ; both are 30999",
    ],
    [
      "worker processes over an in-memory ledger",
      { WORKERS: "2", LEDGER_DB: ":memory:" },
      "WORKERS=2 needs a ledger the workers share; LEDGER_DB=:memory: gives each its own",
    ],
    [
      "a database setting without the database",
      { DATABASE_SCHEMA: "blue" },
      "DATABASE_SCHEMA is set but DATABASE_URL is not; set DATABASE_URL, or unset DATABASE_SCHEMA to keep the SQLite files",
    ],
    [
      "a ledger file that cannot be one",
      { LEDGER_DB: notADatabase },
      `LEDGER_DB ${notADatabase} cannot be opened as the ledger: file is not a database`,
    ],
    [
      "a registry file under a file",
      { REGISTRY_DB: join(notADatabase, "registry.db") },
      /^REGISTRY_DB .* cannot be opened as the registry: /,
    ],
    [
      "the development recipient on mainnet, in lowercase",
      { ...MAINNET, ALLOW_SIMULATED_SETTLEMENT: "true", PAY_TO_EVM: "0xbab484b2daafab4bf6ed642a847517d33d106535" },
      "the mainnet profile needs real addresses; set PAY_TO_EVM",
    ],
    [
      "mainnet with simulated settlement",
      MAINNET,
      "X402_PROFILE=mainnet with SETTLEMENT=ledger would serve paid answers without moving any money; set SETTLEMENT=facilitator, or ALLOW_SIMULATED_SETTLEMENT=true to accept it",
    ],
    // Refused when the Redis says so at start; without a Redis here, nothing can say it.
    ...(hasRedis()
      ? [
          [
            "a Redis database the server does not have",
            { CACHE_URL: new URL("/99", TEST_REDIS_URL).toString() },
            /^CACHE_URL names a database this Redis does not have/,
          ] as [string, Record<string, string>, RegExp],
        ]
      : []),
  ];
  it.concurrent.each(cases)("refuses %s", async (_what, env, line) => expectRefusal(env, line));

  it("refuses a port already in use, naming it", async () => {
    const holder = createServer();
    const port = await new Promise<number>((resolve) =>
      holder.listen(0, () => resolve((holder.address() as { port: number }).port)),
    );
    try {
      const { code, stderr } = await runUntilExit({
        ...files,
        PORT: String(port),
        REGISTRY_PORT: String(await freePort()),
      });
      expect(stderr.trim()).toBe(`PORT ${port} is already in use; stop what holds it or set PORT to a free port`);
      expect(code).toBe(2);
    } finally {
      holder.close();
    }
  });

  it("starts mainnet with simulated settlement only when allowed, and then warns at start and in GET /", async () => {
    const service = await startService({ ...files, ...MAINNET, ALLOW_SIMULATED_SETTLEMENT: "true" });
    try {
      const info = (await (await fetch(`${service.url}/`)).json()) as { profile: string; warnings: string[] };
      expect(info.profile).toBe("mainnet");
      expect(info.warnings).toEqual([
        "settlement is simulated (SETTLEMENT=ledger) on the mainnet profile: paid answers are given away",
        "RECEIPT_SIGNING_KEY is not set: v2 challenges carry no signed offers and v2 answers no signed receipts",
      ]);
      expect(service.stdout()).toContain(
        '"msg":"settlement is simulated (SETTLEMENT=ledger) on the mainnet profile: paid answers are given away"',
      );
      expect(await service.kill("SIGTERM")).toEqual({ code: 0, signal: null });
    } finally {
      await service.kill("SIGKILL");
    }
  });
});

describe("npm start's command line", () => {
  const start = (args: string[], env: Record<string, string> = {}) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        ["--import", "tsx", "server/main.ts", ...args],
        { cwd: fileURLToPath(new URL("../..", import.meta.url)), env: { ...process.env, ...env }, timeout: 60_000 },
        (error, stdout, stderr) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
      ),
    );

  it("prints its usage on --help and exits 0 instead of serving", async () => {
    const ports = { PORT: String(await freePort()), REGISTRY_PORT: String(await freePort()) };
    const { code, stdout } = await start(["--help"], { ...files, ...ports });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^usage: npm start/);
    expect(stdout).toContain("REGISTRY_PORT");
  });

  it("refuses an argument it does not take, with its usage, before reading its settings (exit 2)", async () => {
    const { code, stderr } = await start(["--port", "5000"], { ...files, PORT: "abc" });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^unknown option --port\n\nusage: npm start/);
  });
});
