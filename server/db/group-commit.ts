/**
 * Group commit on a synchronous SQLite connection: the writes that concurrent requests queue within
 * one turn of the event loop run in one `BEGIN IMMEDIATE … COMMIT`, each inside its own savepoint
 * (a write that throws is undone alone and rejects alone), and every caller's promise settles only
 * after the commit that holds its write. The commit is what costs (the write lock, the WAL append,
 * now and then a checkpoint), so a batch pays it once. Durability is unchanged: nothing is answered
 * before it is committed. Written here because neither libsql nor better-sqlite3 batches
 * transactions; the statements are prepared once, not parsed per transaction.
 */

/** What this needs of a libsql / better-sqlite3 connection. */
export interface SyncDatabase {
  prepare(sql: string): { run(...args: unknown[]): unknown };
}

interface Queued {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export type GroupCommit = <T>(work: () => T) => Promise<T>;

export function groupCommit(db: SyncDatabase): GroupCommit {
  const begin = db.prepare("BEGIN IMMEDIATE");
  const commit = db.prepare("COMMIT");
  const rollback = db.prepare("ROLLBACK");
  const savepoint = db.prepare("SAVEPOINT work");
  const release = db.prepare("RELEASE work");
  const undo = db.prepare("ROLLBACK TO work");
  let queue: Queued[] = [];

  function flush(): void {
    const batch = queue;
    queue = [];
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      begin.run();
    } catch (error) {
      for (const { reject } of batch) reject(error);
      return;
    }
    for (const { work } of batch) {
      savepoint.run();
      try {
        outcomes.push({ ok: true, value: work() });
      } catch (error) {
        undo.run();
        outcomes.push({ ok: false, error });
      }
      release.run();
    }
    try {
      commit.run();
    } catch (error) {
      try {
        rollback.run();
      } catch {
        // the failed commit may have ended the transaction already
      }
      for (const { reject } of batch) reject(error);
      return;
    }
    batch.forEach(({ resolve, reject }, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok) resolve(outcome.value);
      else reject(outcome?.error);
    });
  }

  return <T>(work: () => T) =>
    new Promise<T>((resolve, reject) => {
      if (queue.push({ work, resolve: resolve as (value: unknown) => void, reject }) === 1) setImmediate(flush);
    });
}
