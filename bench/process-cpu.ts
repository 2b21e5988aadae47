/**
 * CPU time of processes the benchmark does not run its own code in, from /proc: the bare servers
 * (a process each), and this machine's PostgreSQL server processes (every process named `postgres`)
 * for the deployment rows, where the database shares the cores with the service and the load
 * generator, so that its CPU per request is part of what a paid request costs there. Undefined
 * where /proc cannot be read.
 *
 * PostgreSQL's count takes in the time of its processes that have exited: a backend that ends
 * between two readings (the service's pool closing a connection left idle) would otherwise take its
 * time out of the second sum, and a round's difference could come out low, or below zero. An exited
 * backend's time moves into its parent's count of reaped children (the postmaster's cutime and
 * cstime), which this sum includes.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc's utime and stime (Linux's USER_HZ, 100 on every architecture Node supports). */
const TICKS_PER_SECOND = 100;

/**
 * A /proc/PID/stat line's command, its user + system time in ticks, and that of its children that have exited and
 * been waited for.
 */
export function parseStat(stat: string): { command: string; ticks: number; reapedTicks: number } {
  // the command is in parentheses and may hold spaces and parentheses itself: it ends at the last ")"
  const open = stat.indexOf("(");
  const close = stat.lastIndexOf(")");
  // after the command: state, then fields 4 onwards; utime and stime are fields 14 and 15, cutime and cstime 16 and 17
  const fields = stat.slice(close + 2).split(" ");
  return {
    command: stat.slice(open + 1, close),
    ticks: Number(fields[11]) + Number(fields[12]),
    reapedTicks: Number(fields[13]) + Number(fields[14]),
  };
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
    if (stat?.command === "postgres") ticks += stat.ticks + stat.reapedTicks;
  }
  return ticks / TICKS_PER_SECOND;
}
