// The recovery thread's body (recovery-thread.ts): the service runs TypeScript through tsx, which a worker thread
// does not inherit, so this plain module registers it before loading the one recovery function both threads use.
import { parentPort } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { recoverSigner } = await import("./recover.ts");
parentPort.on("message", (message) => {
  // asked to stop: the port closes between two batches, never inside a native call (recovery-thread.ts, `stop`)
  if (message === "stop") return parentPort.close();
  const { batch, jobs } = message;
  parentPort.postMessage({
    batch,
    signers: jobs.map(({ digest, signature }) => recoverSigner(digest, signature) ?? null),
  });
});
parentPort.postMessage("ready");
