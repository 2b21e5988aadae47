import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", "generated/**"],
    // Generous: the first request to each route compiles its schemas, and CI has two shared cores.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
