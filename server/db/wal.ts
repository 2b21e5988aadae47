/**
 * SQLite files shared by several processes run in WAL mode. Switching a file to WAL needs it to
 * itself, and SQLite does not apply its busy timeout to that switch: workers starting together on
 * a new file would fail with "database is locked". The switch is retried for as long as the busy
 * timeout waits for any other statement.
 */
import type Database from "libsql";

const BUSY_TIMEOUT_MS = 5_000;

/** Sets the connection's busy timeout, then switches its file to WAL, waiting for another process's lock. */
export function useWal(db: Database.Database): void {
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      db.pragma("journal_mode = WAL");
      return;
    } catch (error) {
      if (!/database is locked|busy/i.test(String(error)) || Date.now() > deadline) throw error;
      // start-up only: the connection is synchronous, so is the wait
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
    }
  }
}
