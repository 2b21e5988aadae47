// Leaving the process with threads that run native code: they end between two calls first, within a bound.
import { describe, expect, it } from "vitest";
import { runModule, specifier } from "../test/support/processes.js";

const exit = specifier(new URL("./process-exit.ts", import.meta.url));

describe("exitProcess", () => {
  it("lets the recovery thread answer its batch before the process exits, with the code asked for", () => {
    // 2,000 recoveries are tens of milliseconds of the thread's time: an exit that tore it down would land inside them
    const child = runModule(`
      import { randomBytes } from "node:crypto";
      import { exitProcess } from ${exit};
      import { recoverSignerOffLoop, recoveryThread } from ${specifier(new URL("./analytics/payments/exact/evm/recovery-thread.ts", import.meta.url))};
      const keep = setTimeout(() => {}, 60_000);
      await recoveryThread.ready();
      let answered = 0;
      for (let i = 0; i < 2000; i++)
        void recoverSignerOffLoop(randomBytes(32), "0x" + "11".repeat(64) + "1b").then(() => answered++);
      await new Promise((resolve) => setImmediate(resolve));
      process.on("exit", () => console.log("answered", answered));
      await exitProcess(1);`);
    expect({ status: child.status, stdout: child.stdout }).toEqual({ status: 1, stdout: "answered 2000" });
    expect(child.stderr).not.toMatch(/FATAL|terminate called/);
  });

  it("exits with its code once its bound has passed, whatever the stops do; a stop taken back is not run", () => {
    const child = runModule(`
      import { exitProcess, stopBeforeExit } from ${exit};
      stopBeforeExit(() => new Promise(() => {}));
      stopBeforeExit(async () => { throw new Error("refused"); });
      stopBeforeExit(async () => console.log("ran"));
      const takenBack = stopBeforeExit(async () => console.log("taken back, yet ran"));
      takenBack();
      const started = Date.now();
      process.on("exit", () => console.log("bounded", Date.now() - started >= 200));
      await exitProcess(3, 200);`);
    expect({ status: child.status, stdout: child.stdout }).toEqual({ status: 3, stdout: "ran\nbounded true" });
  });
});
