/**
 * SQLite's WAL checkpoints off the event loop. A checkpoint copies the WAL's pages back into the
 * database file and syncs it; run automatically, it runs inside the commit that crosses the WAL's
 * threshold, about one group commit in thirty, and blocks every request for milliseconds: about a
 * third of a paid request's ledger time. Here the connection's automatic checkpoints are off and a
 * worker thread with a connection of its own runs a passive checkpoint every `intervalMs` (it never
 * waits for a writer, and a writer never waits for it). Durability is SQLite's either way: a commit
 * is in the WAL before it is answered, checkpointed or not. If the thread fails, the connection
 * checkpoints for itself again, so that the WAL never grows without bound.
 */
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type Database from "libsql";

/** SQLite's own default threshold, in pages, restored when the thread is gone. */
const AUTOMATIC_PAGES = 1000;

export interface Checkpointer {
  stop(): Promise<void>;
}

export function checkpointOffThread(
  db: Database.Database,
  file: string,
  { synchronous, intervalMs = 100, onError }: { synchronous: string; intervalMs?: number; onError: (message: string) => void },
): Checkpointer {
  const worker = new Worker(fileURLToPath(new URL("./checkpoint-worker.mjs", import.meta.url)), {
    workerData: { file, synchronous, intervalMs },
  });
  worker.unref();
  db.pragma("wal_autocheckpoint = 0");
  let stopping = false;
  const fallBack = (why: string) => {
    if (stopping) return;
    stopping = true;
    db.pragma(`wal_autocheckpoint = ${AUTOMATIC_PAGES}`);
    onError(`the ledger's checkpoint thread stopped (${why}); its connection checkpoints for itself`);
  };
  worker.on("message", (message: { error?: string }) => message.error && onError(`a WAL checkpoint failed: ${message.error}`));
  worker.once("error", (error) => fallBack(String(error)));
  worker.once("exit", (code) => fallBack(`exit code ${code}`));
  return {
    async stop() {
      if (stopping) return;
      stopping = true;
      const exited = new Promise((resolve) => worker.once("exit", resolve));
      // unreferenced, the thread would not keep the process alive for this wait: a closing process would exit with it pending
      worker.ref();
      worker.postMessage("stop");
      await exited;
    },
  };
}
