/**
 * SQLite's WAL checkpoints off the event loop. A checkpoint copies the WAL's pages back into the
 * database file and syncs it; run automatically, it runs inside the commit that crosses the WAL's
 * threshold and blocks every request while it copies. Here a worker thread with a connection of its
 * own runs a passive checkpoint every `intervalMs` (it never waits for a writer, and a writer never
 * waits for it), and the connection's own automatic checkpoints wait for a WAL ten times SQLite's
 * default. Under steady writes a passive checkpoint never catches up with the last commit, so the WAL
 * is never started over and grows until that threshold: the connection's checkpoint there has only
 * the frames since the thread's last pass left to copy, and the WAL starts over. The same threshold
 * bounds the WAL should the thread run but fail to checkpoint; if the thread stops, the connection
 * checkpoints at SQLite's default again. Durability is SQLite's: a commit is in the WAL before it is
 * answered, checkpointed or not (docs/decisions/0004-group-commit-and-statement-batches.md).
 */
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type Database from "libsql";
import { stopBeforeExit } from "../process-exit.js";

/** SQLite's own default threshold, in pages, restored when the thread is gone. */
const AUTOMATIC_PAGES = 1000;
/** The connection's threshold while the thread runs (about 40 MB of WAL), where the WAL starts over (see the header). */
const BACKSTOP_PAGES = 10 * AUTOMATIC_PAGES;
/** How long a stop waits for a checkpoint under way before it ends the thread. */
const STOP_WAIT_MS = 5_000;

export interface Checkpointer {
  stop(): Promise<void>;
}

export function checkpointOffThread(
  db: Database.Database,
  file: string,
  {
    synchronous,
    intervalMs = 100,
    onError,
  }: { synchronous: string; intervalMs?: number; onError: (message: string) => void },
): Checkpointer {
  const worker = new Worker(fileURLToPath(new URL("./checkpoint-worker.mjs", import.meta.url)), {
    workerData: { file, synchronous, intervalMs },
  });
  worker.unref();
  db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  let stopping = false;
  const fallBack = (why: string) => {
    if (stopping) return;
    stopping = true;
    db.pragma(`wal_autocheckpoint = ${AUTOMATIC_PAGES}`);
    onError(`the ledger's checkpoint thread stopped (${why}); its connection checkpoints for itself`);
  };
  worker.on(
    "message",
    (message: { error?: string }) => message.error && onError(`a WAL checkpoint failed: ${message.error}`),
  );
  worker.once("error", (error) => fallBack(String(error)));
  worker.once("exit", (code) => fallBack(`exit code ${code}`));
  async function stop() {
    forget();
    if (stopping) return;
    stopping = true;
    const exited = new Promise((resolve) => worker.once("exit", resolve));
    // unreferenced, the thread would not keep the process alive for this wait: a closing process would exit with it pending
    worker.ref();
    worker.postMessage("stop");
    const stuck = setTimeout(() => void worker.terminate(), STOP_WAIT_MS);
    await exited;
    clearTimeout(stuck);
  }
  const forget = stopBeforeExit(stop);
  return { stop };
}
