import { randomBytes } from "node:crypto";
import secp256k1 from "secp256k1";
import { bytesToHex, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import { afterAll, describe, expect, it, vi } from "vitest";
import { runModule, specifier } from "../../../../../test/support/processes.js";
import { recoverSigner } from "./recover.js";
import { recoverSignerOffLoop, recoveryThread } from "./recovery-thread.js";

/** Counts the recoveries run on the event loop (the thread loads its own, unmocked recover.ts). */
const onLoop = vi.hoisted(() => ({ recoveries: 0 }));
vi.mock("./recover.js", async (original) => {
  const module = await original<typeof import("./recover.js")>();
  return {
    recoverSigner: (digest: Uint8Array, signature: string) => {
      onLoop.recoveries++;
      return module.recoverSigner(digest, signature);
    },
  };
});

/** secp256k1's order: n - s is the high-s twin of a signature. */
const N = BigInt("0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");

function signed(key: Hex, digest: Uint8Array): string {
  const { signature, recid } = secp256k1.ecdsaSign(digest, Buffer.from(key.slice(2), "hex"));
  return `${bytesToHex(signature)}${(27 + recid).toString(16)}`;
}

/** Signatures of every kind the verifier meets: good ones from several wallets, a high-s twin, wrong lengths and v's. */
function cases(): { digest: Uint8Array; signature: string; signer?: string }[] {
  const out: { digest: Uint8Array; signature: string; signer?: string }[] = [];
  for (let i = 0; i < 24; i++) {
    const key = generatePrivateKey();
    const digest = randomBytes(32);
    out.push({ digest, signature: signed(key, digest), signer: privateKeyToAddress(key).toLowerCase() });
  }
  const digest = randomBytes(32);
  const good = signed(generatePrivateKey(), digest);
  const s = BigInt(`0x${good.slice(66, 130)}`);
  const v = good.slice(130) === "1b" ? "1c" : "1b";
  out.push(
    { digest, signature: `${good.slice(0, 66)}${(N - s).toString(16).padStart(64, "0")}${v}` },
    { digest, signature: `${good.slice(0, 130)}1d` },
    { digest, signature: good.slice(0, 128) },
    { digest, signature: `${good.slice(0, 66)}${"0".repeat(64)}1b` },
    { digest: randomBytes(32), signature: good },
  );
  return out;
}

afterAll(() => recoveryThread.stop());

describe("signer recovery off the event loop", () => {
  it("answers as recovery on the event loop does, for each of many recoveries asked for at once", async () => {
    expect(await recoveryThread.ready()).toBe(true);
    const all = cases();
    const answers = await Promise.all(all.map(({ digest, signature }) => recoverSignerOffLoop(digest, signature)));
    for (const [i, { digest, signature, signer }] of all.entries()) {
      expect(answers[i]).toBe(recoverSigner(digest, signature));
      if (signer) expect(answers[i]).toBe(signer);
    }
    // the high-s twin, the bad v, the short signature and the zero s recover no one; another digest recovers someone else
    expect(answers.slice(24, 28)).toEqual([undefined, undefined, undefined, undefined]);
    expect(answers[28]).not.toBe(all[28]?.signer);
  });

  it("stops once it has answered what it was asked, recovers on the event loop meanwhile, and starts another after", async () => {
    expect(await recoveryThread.ready()).toBe(true);
    const one = cases();
    // tens of milliseconds of work for the thread: a stop that ended it at once would land inside the batch
    const all = Array.from({ length: 40 }, () => one).flat();
    onLoop.recoveries = 0;
    const pending = all.map(({ digest, signature }) => recoverSignerOffLoop(digest, signature));
    await new Promise((resolve) => setImmediate(resolve));
    const stopped = recoveryThread.stop();
    const { digest, signature, signer } = one[0] as (typeof one)[0];
    expect(await recoverSignerOffLoop(digest, signature)).toBe(signer);
    expect(onLoop.recoveries).toBe(1);
    await stopped;
    const answers = await Promise.all(pending);
    // the thread answered every recovery of its batch itself
    expect(onLoop.recoveries).toBe(1);
    expect(answers).toEqual(all.map(({ digest, signature }) => recoverSigner(digest, signature)));

    expect(await recoverSignerOffLoop(digest, signature)).toBe(signer);
    expect(await recoveryThread.ready()).toBe(true);
    expect(await recoverSignerOffLoop(digest, signature)).toBe(signer);
  });

  it("stopped while it starts, is never ready and takes no recovery", async () => {
    await recoveryThread.stop();
    const starting = recoveryThread.ready();
    const stopped = recoveryThread.stop();
    const { digest, signature, signer } = cases()[0] as ReturnType<typeof cases>[0];
    onLoop.recoveries = 0;
    expect(await recoverSignerOffLoop(digest, signature)).toBe(signer);
    expect(await starting).toBe(false);
    expect(await recoverSignerOffLoop(digest, signature)).toBe(signer);
    expect(onLoop.recoveries).toBe(2);
    await stopped;
  });

  it("does not hold the process open: one whose work is done exits with the thread running", () => {
    const child = runScript(`
      const keep = setTimeout(() => {}, 60_000);
      const ready = await recoveryThread.ready();
      await recoverSignerOffLoop(randomBytes(32), "0x" + "11".repeat(64) + "1b");
      clearTimeout(keep);
      console.log("ready", ready);`);
    expect(child).toEqual({ status: 0, stdout: "ready true" });
  });

  it("holds the process open while it loads: a process that started it and has nothing else to do exits once it is ready", () => {
    // torn down while it loads its native addons, the thread would abort the whole process (FATAL napi_create_reference)
    const child = runScript(`
      let ready = "not yet";
      recoveryThread.ready().then((answer) => { ready = answer; });
      process.on("exit", () => console.log("ready at exit", ready));`);
    expect(child).toEqual({ status: 0, stdout: "ready at exit true" });
  });

  it("holds the process open while it works: recoveries asked for and never awaited are answered before the process exits", () => {
    const child = runScript(`
      const keep = setTimeout(() => {}, 60_000);
      await recoveryThread.ready();
      clearTimeout(keep);
      let answered = 0;
      for (let i = 0; i < 2000; i++) recoverSignerOffLoop(randomBytes(32), "0x" + "11".repeat(64) + "1b").then(() => answered++);
      process.on("exit", () => console.log("answered at exit", answered));`);
    expect(child).toEqual({ status: 0, stdout: "answered at exit 2000" });
  });

  it("holds the process open while it stops: one whose last work is a stop waits for the thread to end", () => {
    const child = runScript(`
      const keep = setTimeout(() => {}, 60_000);
      await recoveryThread.ready();
      clearTimeout(keep);
      const pending = Array.from({ length: 2000 }, () => recoverSignerOffLoop(randomBytes(32), "0x" + "11".repeat(64) + "1b"));
      await new Promise((resolve) => setImmediate(resolve));
      await recoveryThread.stop();
      console.log("stopped", (await Promise.all(pending)).length);`);
    expect(child).toEqual({ status: 0, stdout: "stopped 2000" });
  });
});

/** Runs a module importing the recovery thread in a process of its own; its exit status and output. */
function runScript(body: string): { status: number | null; stdout: string } {
  const { status, stdout } = runModule(`import { randomBytes } from "node:crypto";
    import { recoverSignerOffLoop, recoveryThread } from ${specifier(new URL("./recovery-thread.ts", import.meta.url))};
    ${body}`);
  return { status, stdout };
}
