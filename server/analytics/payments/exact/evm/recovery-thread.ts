/**
 * Signer recovery off the event loop. libsecp256k1's recovery is the largest single cost of a paid EVM request on the
 * event loop, and the event loop is what a service process runs out of first; on a thread of its own, the recovery
 * runs beside the next requests' parsing and ledger writes (docs/decisions/0002-native-crypto-and-recovery-thread.md).
 * One thread per process, shared by every service in it, started on first use. It holds the process open only while it
 * is inside native code (loading its addons, or answering a batch): a thread torn down there aborts the whole process,
 * and a process with nothing else to do would otherwise exit around it. Until it is ready, while it stops and after it
 * fails, recovery runs on the event loop: it is a pure function, so where it runs changes no verdict. The recoveries
 * asked for in one turn of the event loop go as one message.
 * Written by hand: one thread running one function needs no worker-pool library.
 */
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { stopBeforeExit } from "../../../../process-exit.js";
import { recoverSigner } from "./recover.js";

type Job = { digest: Uint8Array; signature: string; resolve: (signer: string | undefined) => void };
type Reply = "ready" | { batch: number; signers: (string | null)[] };

let thread: Worker | undefined;
let ready: Promise<boolean> = Promise.resolve(false);
let isReady = false;
/** Asked to stop and not yet ended: sent nothing more. */
let stopping = false;
/** A thread that failed (not one stopped) is not started again: recovery stays on the event loop. */
let failed = false;
let queued: Job[] = [];
const sent = new Map<number, Job[]>();
let batches = 0;

const onLoop = (job: Job) => job.resolve(recoverSigner(job.digest, job.signature));

/** Referenced while busy (loading, or a batch unanswered), so that no natural exit tears it down mid-call; idle, not. */
function holdWhileBusy(worker: Worker): void {
  if (!isReady || sent.size > 0 || stopping) worker.ref();
  else worker.unref();
}

function start(): void {
  stopBeforeExit(recoveryThread.stop);
  const worker = new Worker(fileURLToPath(new URL("./recovery-worker.mjs", import.meta.url)));
  thread = worker;
  ready = new Promise((resolve) => {
    const gone = (error?: Error) => {
      if (thread !== worker) return;
      if (error) failed = true;
      thread = undefined;
      isReady = false;
      stopping = false;
      resolve(false);
      // `ready()` after this says so, until another thread starts
      ready = Promise.resolve(false);
      // what it was asked and never answered is recovered here
      for (const jobs of sent.values()) for (const job of jobs) onLoop(job);
      sent.clear();
    };
    worker.on("error", gone);
    worker.on("exit", () => gone());
    worker.on("message", (reply: Reply) => {
      if (reply === "ready") {
        isReady = !stopping;
        holdWhileBusy(worker);
        return resolve(isReady);
      }
      const jobs = sent.get(reply.batch) ?? [];
      sent.delete(reply.batch);
      holdWhileBusy(worker);
      for (const [i, job] of jobs.entries()) job.resolve(reply.signers[i] ?? undefined);
    });
  });
}

function flush(): void {
  const jobs = queued;
  queued = [];
  if (!thread || !isReady) {
    for (const job of jobs) onLoop(job);
    return;
  }
  const batch = batches++;
  sent.set(batch, jobs);
  holdWhileBusy(thread);
  thread.postMessage({ batch, jobs: jobs.map(({ digest, signature }) => ({ digest, signature })) });
}

/** `recoverSigner`'s answer, computed on the recovery thread once it is ready. */
export function recoverSignerOffLoop(digest: Uint8Array, signature: string): Promise<string | undefined> {
  if (!thread && !failed) start();
  if (!isReady) return Promise.resolve(recoverSigner(digest, signature));
  return new Promise((resolve) => {
    if (!queued.length) setImmediate(flush);
    queued.push({ digest, signature, resolve });
  });
}

export const recoveryThread = {
  /** Starts the thread if it is not running; true once it is ready, false if it cannot be. */
  ready(): Promise<boolean> {
    if (!thread && !failed) start();
    return ready;
  },
  /**
   * Ends the thread once it has answered what it was asked; recoveries asked meanwhile run on the event loop, and the
   * next one after it has ended starts another thread. Never `terminate()`: the native keccak and secp256k1 (both on
   * node-addon-api) abort the whole process when their thread is torn down inside one of their calls.
   */
  async stop(): Promise<void> {
    const worker = thread;
    if (!worker) return;
    stopping = true;
    isReady = false;
    ready = Promise.resolve(false);
    const exited = new Promise((resolve) => worker.once("exit", resolve));
    // unreferenced, the thread would let a process with nothing else to do exit meanwhile, and end the thread with it
    worker.ref();
    worker.postMessage("stop");
    await exited;
  },
};
