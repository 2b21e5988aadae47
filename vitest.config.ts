import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/**
 * The tiers, one vitest project each (`npm run test:unit`, `test:contract`, `test:stores`, `test:process`,
 * `test:docs`; `vitest run` runs them all). A file belongs to the first tier whose globs name it, else to `unit`.
 */
const TIERS = {
  /** Real processes: started, killed, installed from a tarball, or a browser driven. */
  process: [
    "test/crash/**/*.test.ts",
    "test/startup/**/*.test.ts",
    "test/multi-instance/**/*.test.ts",
    "test/packages/**/*.test.ts",
    "test/browser/**/*.test.ts",
    "test/mcp/conformance-runner.test.ts",
    "test/mcp/paying-bridge.test.ts",
    "test/mcp/paying-bridge-current.test.ts",
    "server/main.test.ts",
    "server/cluster.test.ts",
    "server/reference-page/**/*.test.ts",
    "server/registry/import.test.ts",
    "server/analytics/payments/ledger/sqlite-ledger.test.ts",
    "server/analytics/payments/x402/receipts/offer-receipt.test.ts",
    "client/demo.test.ts",
    "bench/process-cpu.test.ts",
    "server/process-exit.test.ts",
    "server/db/checkpointer.test.ts",
    "server/analytics/payments/exact/evm/recovery-thread.test.ts",
  ],
  /** The machine's PostgreSQL and Redis. */
  stores: [
    "server/**/postgres-*.test.ts",
    "server/analytics/cache/redis-cache.test.ts",
    "server/db/database.test.ts",
    "server/db/clock-skew.test.ts",
  ],
  /** The contract end to end in this process: the conformance suite on the in-process target, the third-party clients. */
  contract: [
    "conformance/{paid,payment-enforced,not-found,methods,partial,free,registry,negative,fuzz,mcp,a2a,indexer-probe,discovery,payment-lookup}.test.ts",
    "test/interop/**/*.test.ts",
    "test/mcp/**/*.test.ts",
    "test/a2a/**/*.test.ts",
  ],
  /** The manual: its links, its tables against the code, the import graph it draws. */
  docs: ["test/docs/**/*.test.ts", "test/import-graph.test.ts"],
};

/** Unit files that replace a module (`vi.mock`): they get modules of their own, the rest of the unit tier shares them. */
const MOCKING = ["server/analytics/payments/exact/evm/recovery-thread-failure.test.ts"];

/**
 * Unit files that hold pure logic to many inputs, and reach Node only through what the rest of the tier reaches it
 * by (node:http under supertest, JSON, Buffer): `npm run test:node24` (SECOND_NODE=1) leaves them out, since what a
 * Node upgrade breaks (native modules, drivers, built-in APIs) the files it keeps would show. Each is the same code
 * on every Node: the paid input check against express-openapi-validator on fuzzed inputs, the Bazaar extension of
 * every route against @x402/extensions, and every operation's example against the embedded dataset.
 */
const SAME_ON_EVERY_NODE = [
  "server/analytics/paid/input-check.test.ts",
  "server/analytics/payments/x402/bazaar.test.ts",
  "server/analytics/segments/examples.test.ts",
];
const secondNode = process.env.SECOND_NODE === "1";

const EXCLUDE = ["node_modules/**", "generated/**", "dist/**"];
const claimed = (before: (keyof typeof TIERS)[]) => before.flatMap((tier) => TIERS[tier]);
const ORDER = Object.keys(TIERS) as (keyof typeof TIERS)[];

export default defineConfig({
  test: {
    exclude: EXCLUDE,
    // One worker more than the cores, not vitest's one less: many suites spend their time waiting on the processes
    // they start, PostgreSQL or Chromium, and the extra worker fills that wait (CI's two cores: three workers).
    maxWorkers: availableParallelism() + 1,
    // Generous: the first request to each route compiles its schemas, and CI has two shared cores.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["**/*.test.ts"],
          exclude: [...EXCLUDE, ...claimed(ORDER), ...MOCKING, ...(secondNode ? SAME_ON_EVERY_NODE : [])],
          // The loop's tier starts no process and reaches no service: a test that tries is told where it belongs.
          setupFiles: ["test/support/unit-tier.ts"],
          // Its files share each worker's modules: importing the service's graph once per worker, not once per file,
          // is most of what makes the tier fast. A file that replaces a module goes in MOCKING.
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: "unit-mocking", include: MOCKING, setupFiles: ["test/support/unit-tier.ts"] },
      },
      ...ORDER.map((name, at) => ({
        extends: true as const,
        test: {
          name,
          include: TIERS[name],
          exclude: [...EXCLUDE, ...claimed(ORDER.slice(0, at))],
          // Finds PostgreSQL and Redis (skipped with one line when absent, fatal with CI=true).
          globalSetup: name === "stores" || name === "process" ? ["test/support/services-setup.ts"] : [],
          // The contract tier's files share each worker's modules, as the unit tier's do: each builds the services and
          // the conformance suite, and the contract's compiled validators, once per worker instead of once per file.
          // None of them replaces a module; one that does needs a tier of its own, as MOCKING for the unit tier.
          isolate: name !== "contract",
        },
      })),
    ],
  },
});
