import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import secp256k1 from "secp256k1";
import { bytesToHex, type Hex } from "viem";
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts";
import { describe, expect, it, vi } from "vitest";
import { recoverSigner } from "./recover.js";
import { recoverSignerOffLoop, recoveryThread } from "./recovery-thread.js";

/** A thread that starts, then fails as a real one does (an "error", then its "exit") on the first batch it is sent. */
const threads = vi.hoisted(() => ({ started: 0, sent: 0 }));
vi.mock("node:worker_threads", () => ({
  Worker: class extends EventEmitter {
    constructor() {
      super();
      threads.started++;
      setImmediate(() => this.emit("message", "ready"));
    }
    postMessage() {
      threads.sent++;
      setImmediate(() => {
        this.emit("error", new Error("the recovery thread failed"));
        this.emit("exit", 1);
      });
    }
    ref() {}
    unref() {}
  },
}));

function signedBy(key: Hex) {
  const digest = randomBytes(32);
  const { signature, recid } = secp256k1.ecdsaSign(digest, Buffer.from(key.slice(2), "hex"));
  return {
    digest,
    signature: `${bytesToHex(signature)}${(27 + recid).toString(16)}`,
    signer: privateKeyToAddress(key).toLowerCase(),
  };
}

describe("signer recovery when its thread fails", () => {
  it("answers what the failed thread was asked on the event loop, and recovers there from then on without starting another", async () => {
    expect(await recoveryThread.ready()).toBe(true);
    const jobs = Array.from({ length: 6 }, () => signedBy(generatePrivateKey()));
    const forged = { ...(jobs[0] as (typeof jobs)[0]), digest: randomBytes(32) };
    const answers = await Promise.all(
      [...jobs, forged].map(({ digest, signature }) => recoverSignerOffLoop(digest, signature)),
    );
    expect(threads.sent).toBe(1);
    expect(answers.slice(0, 6)).toEqual(jobs.map(({ signer }) => signer));
    expect(answers[6]).toBe(recoverSigner(forged.digest, forged.signature));
    expect(answers[6]).not.toBe(forged.signer);

    expect(await recoveryThread.ready()).toBe(false);
    const later = signedBy(generatePrivateKey());
    expect(await recoverSignerOffLoop(later.digest, later.signature)).toBe(later.signer);
    expect(threads).toEqual({ started: 1, sent: 1 });
  });
});
