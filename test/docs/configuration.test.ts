// docs/configuration.md and the configuration agree: every variable that `loadServiceConfig` reads is on the page,
// and every variable the page's tables name is read. The reads are recorded, not grepped, so a variable whose
// name is built (`SETTLEMENT_RPC_<NETWORK>`, `<PREFIX>_TIMEOUT_MS`) or read only in some settings counts too.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Env } from "../../server/config/env.js";
import { loadServiceConfig } from "../../server/config/index.js";

const PAGE = fileURLToPath(new URL("../../docs/configuration.md", import.meta.url));

/** Settings that between them reach every branch of the configuration that reads a variable. */
const SETTINGS: Record<string, Env> = {
  defaults: {},
  facilitator: { SETTLEMENT: "facilitator" },
  "mainnet on simulated settlement": {
    X402_PROFILE: "mainnet",
    PAY_TO_EVM: "0x1111111111111111111111111111111111111111",
    TREASURY_EVM: "0x2222222222222222222222222222222222222222",
    PAY_TO_SOLANA: "So11111111111111111111111111111111111111112",
    TREASURY_SOLANA: "9Lxm71TpvpQEiQy3TekLZM98ukgPHYMmVuyqr9vMuRp8",
    SOLANA_FEE_PAYER: "J9Pd8fXB12ipb8dqRuQPpPXbd3V8mrLJwrN54HARLa6g",
    PUBLIC_BASE_URL: "https://api.example.com",
    ALLOW_SIMULATED_SETTLEMENT: "true",
  },
  "shared stores": {
    DATABASE_URL: "postgres://intel@db.internal:5432/intel",
    CACHE_URL: "redis://cache.internal:6379",
  },
  "every provider live": {
    TVL_PROVIDER: "live",
    POOLS_PROVIDER: "live",
    LAUNCHES_PROVIDER: "live",
    CHAIN_RPC_PROVIDER: "live",
    WALLET_LABELS_PROVIDER: "live",
    SWAP_BRIDGE_PROVIDER: "live",
    SOLANA_RPC_URL: "https://rpc.example.com/?api-key=k",
    NANSEN_API_KEY: "key",
  },
};

/** The names `loadServiceConfig` reads in `env`, whatever it then does with them. */
function namesRead(env: Env): Set<string> {
  const read = new Set<string>();
  const recorder = new Proxy(env, {
    get: (target, name) => {
      if (typeof name === "string") read.add(name);
      return target[name as string];
    },
    has: (target, name) => {
      if (typeof name === "string") read.add(name);
      return name in target;
    },
  });
  loadServiceConfig(recorder);
  return read;
}

/** The variables named (in backticks) in the first column of the page's tables. */
function documented(markdown: string): Set<string> {
  const names = new Set<string>();
  for (const line of markdown.split("\n")) {
    const first = /^\|([^|]*)\|/.exec(line)?.[1] ?? "";
    for (const [, name] of first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(name as string);
  }
  return names;
}

describe("docs/configuration.md", () => {
  const read = new Set(Object.values(SETTINGS).flatMap((env) => [...namesRead(env)]));
  const page = documented(readFileSync(PAGE, "utf8"));

  it("records what the configuration reads (each setting loads without a refusal)", () => {
    expect(read).toContain("PORT");
    expect(read).toContain("FACILITATOR_URL");
    expect(read).toContain("SETTLEMENT_RPC_BASE_SEPOLIA");
    expect(read).toContain("CACHE_PREFIX");
  });

  it("documents every variable the configuration reads", () => {
    expect([...read].filter((name) => !page.has(name)).sort()).toEqual([]);
  });

  it("names no variable that nothing reads", () => {
    expect([...page].filter((name) => !read.has(name)).sort()).toEqual([]);
  });
});
