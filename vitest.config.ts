import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", "generated/**", "dist/**"],
    // Finds PostgreSQL and Redis for the store suites (skipped with one line when absent, fatal with CI=true).
    globalSetup: ["test/support/services-setup.ts"],
    // One worker per core, not vitest's one less: many suites spend their time waiting on the processes they start,
    // PostgreSQL or Chromium, and a second worker fills that wait.
    maxWorkers: availableParallelism(),
    // Generous: the first request to each route compiles its schemas, and CI has two shared cores.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
