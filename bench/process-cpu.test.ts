import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseStat, processCpuSeconds } from "./process-cpu.js";

describe("parseStat", () => {
  it("reads utime and stime after a command holding spaces and parentheses", () => {
    const fields = Array.from({ length: 40 }, (_, i) => String(i + 3));
    fields[11] = "250"; // utime, field 14
    fields[12] = "75"; // stime, field 15
    fields[13] = "40"; // cutime, field 16
    fields[14] = "2"; // cstime, field 17
    expect(parseStat(`4242 (node (x) y) S ${fields.slice(1).join(" ")}`)).toEqual({
      command: "node (x) y",
      ticks: 325,
      reapedTicks: 42,
    });
  });

  it.runIf(process.platform === "linux")(
    "counts a child's CPU time in its parent's once it has exited and been waited for",
    () => {
      const reaped = () => parseStat(readFileSync("/proc/self/stat", "utf8")).reapedTicks;
      const before = reaped();
      // the child spins until it has counted 300 ms of its own CPU; spawnSync waits for it
      const spin =
        "const t = process.cpuUsage(); while ((({ user, system }) => user + system)(process.cpuUsage(t)) < 300000);";
      expect(spawnSync(process.execPath, ["-e", spin]).status).toBe(0);
      expect(reaped() - before).toBeGreaterThanOrEqual(28);
    },
  );
});

describe("processCpuSeconds", () => {
  it.runIf(process.platform === "linux")("agrees with the process's own count of its CPU time", () => {
    const before = processCpuSeconds(process.pid) as number;
    const own = process.cpuUsage();
    // spin until the process itself has counted 300 ms of CPU, however long that takes on a busy machine
    while ((({ user, system }) => user + system)(process.cpuUsage(own)) < 300_000);
    // /proc counts in ticks of 10 ms
    expect((processCpuSeconds(process.pid) as number) - before).toBeGreaterThanOrEqual(0.28);
  });

  it("is undefined for a process that is not there", () => {
    expect(processCpuSeconds(2 ** 22 + 1)).toBeUndefined();
  });
});
