/**
 * CPU time of processes the benchmark does not run its own code in, from /proc: the bare servers
 * (a process each), and this machine's PostgreSQL server processes (every process named `postgres`)
 * for the deployment rows, where the database shares the cores with the service and the load
 * generator, so that its CPU per request is part of what a paid request costs there. Undefined
 * where /proc cannot be read.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc's utime and stime (Linux's USER_HZ, 100 on every architecture Node supports). */
const TICKS_PER_SECOND = 100;

/** A /proc/PID/stat line's command and its user + system time in ticks. */
export function parseStat(stat: string): { command: string; ticks: number } {
  // the command is in parentheses and may hold spaces and parentheses itself: it ends at the last ")"
  const open = stat.indexOf("(");
  const close = stat.lastIndexOf(")");
  // after the command: state, then fields 4 onwards; utime and stime are fields 14 and 15
  const fields = stat.slice(close + 2).split(" ");
  return { command: stat.slice(open + 1, close), ticks: Number(fields[11]) + Number(fields[12]) };
}

const statOf = (pid: number | string) => {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return undefined; // gone, or no /proc
  }
};

export function processCpuSeconds(pid: number): number | undefined {
  const stat = statOf(pid);
  return stat && stat.ticks / TICKS_PER_SECOND;
}

export function postgresCpuSeconds(): number | undefined {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  let ticks = 0;
  for (const pid of pids) {
    const stat = statOf(pid);
    if (stat?.command === "postgres") ticks += stat.ticks;
  }
  return ticks / TICKS_PER_SECOND;
}
