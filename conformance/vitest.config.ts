// `npm run conformance`: the target-parameterized suite only, with one target per run (see global-setup.ts).
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["conformance/{paid,payment-enforced,methods,partial,free,registry,negative,fuzz,mcp}.test.ts"],
    globalSetup: ["conformance/global-setup.ts"],
    // One worker per core: the target (in-process services, Prism) answers from processes of its own.
    maxWorkers: availableParallelism(),
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
