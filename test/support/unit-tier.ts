/**
 * Set up before every file of the unit tier: starting a process fails at once, naming the tier a test that needs one
 * belongs to, so that `npm run test:unit` stays the loop's tier (seconds, no process, no service). Worker threads are
 * allowed: they are part of the service's own process.
 */
import childProcess from "node:child_process";
import { syncBuiltinESMExports } from "node:module";

const STARTS = ["spawn", "spawnSync", "fork", "exec", "execSync", "execFile", "execFileSync"] as const;

for (const name of STARTS)
  Object.assign(childProcess, {
    [name]: () => {
      throw new Error(
        `child_process.${name} in the unit tier: a test that starts a process belongs to the process tier (vitest.config.ts)`,
      );
    },
  });
syncBuiltinESMExports();
