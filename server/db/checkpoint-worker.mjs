// The WAL checkpoints of one SQLite file, on a thread of their own (checkpointer.ts): plain JavaScript, so that it
// loads the same under tsx, vitest and node. Passive checkpoints never wait for a writer, and a busy file is skipped.
import { parentPort, workerData } from "node:worker_threads";
import Database from "libsql";

const { file, synchronous, intervalMs } = workerData;
const db = new Database(file);
db.pragma("busy_timeout = 0");
db.pragma(`synchronous = ${synchronous}`);
const checkpoint = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");
// An error is reported once, until a checkpoint succeeds again (the connection's backstop bounds the WAL meanwhile).
let reported = false;
const timer = setInterval(() => {
  try {
    checkpoint.run();
    reported = false;
  } catch (error) {
    // Locked by a checkpoint of another process's thread, or by a writer switching the file: the next tick tries again.
    if (reported || /busy|locked/i.test(String(error))) return;
    parentPort?.postMessage({ error: String(error) });
    reported = true;
  }
}, intervalMs);
parentPort?.on("message", () => {
  clearInterval(timer);
  db.close();
  parentPort?.close();
});
