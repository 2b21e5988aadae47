import { describe, expect, it } from "vitest";
import { parseStat, processCpuSeconds } from "./process-cpu.js";

describe("parseStat", () => {
  it("reads utime and stime after a command holding spaces and parentheses", () => {
    const fields = Array.from({ length: 40 }, (_, i) => String(i + 3));
    fields[11] = "250"; // utime, field 14
    fields[12] = "75"; // stime, field 15
    expect(parseStat(`4242 (node (x) y) S ${fields.slice(1).join(" ")}`)).toEqual({ command: "node (x) y", ticks: 325 });
  });
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
