// `npm run conformance`: the target-parameterized suite only, with one target per run (see global-setup.ts). The
// conformance package ships this config and the suite compiled to JavaScript beside it: `ext` is the files' own.
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

const ext = import.meta.url.endsWith(".js") ? "js" : "ts";

export default defineConfig({
  test: {
    include: [
      `conformance/{paid,payment-enforced,not-found,methods,partial,free,registry,negative,fuzz,mcp,a2a,indexer-probe,discovery,payment-lookup}.test.${ext}`,
    ],
    globalSetup: [`conformance/global-setup.${ext}`],
    // One worker per core: the target (in-process services, Prism) answers from processes of its own.
    maxWorkers: availableParallelism(),
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
