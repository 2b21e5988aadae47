/**
 * CPU time of this machine's PostgreSQL server processes (every process named `postgres`, from
 * /proc), for the deployment rows: on one machine the database shares the cores with the service
 * and the load generator, and its CPU per request is part of what a paid request costs there.
 * Undefined where /proc cannot be read.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc's utime and stime (Linux's USER_HZ, 100 on every architecture Node supports). */
const TICKS_PER_SECOND = 100;

export function postgresCpuSeconds(): number | undefined {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  let ticks = 0;
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // gone since the listing
    }
    const open = stat.indexOf("(");
    const close = stat.lastIndexOf(")");
    if (stat.slice(open + 1, close) !== "postgres") continue;
    // after the command: state, then fields 4 onwards; utime and stime are fields 14 and 15
    const fields = stat.slice(close + 2).split(" ");
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / TICKS_PER_SECOND;
}
