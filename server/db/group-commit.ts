/**
 * Group commit on a synchronous SQLite connection: the writes that concurrent requests queue within
 * one turn of the event loop run in one `BEGIN IMMEDIATE … COMMIT`, and every caller's promise
 * settles only after the commit that holds its write. The commit is what costs (the write lock,
 * the WAL append, now and then a checkpoint), so a batch pays it once. Durability is unchanged:
 * nothing is answered before it is committed.
 *
 * A write that throws is undone alone: the batch runs first without savepoints (two statements per
 * write saved), and only if a write throws is that transaction rolled back and the batch run again
 * with each write in a savepoint of its own. The writes are closures over the connection's own
 * statements, so running one again after a rollback does what it would have done. Written here
 * because neither libsql nor better-sqlite3 batches transactions; the statements are prepared once,
 * not parsed per transaction (docs/decisions/0004-group-commit-and-statement-batches.md).
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

  type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

  /** The batch in one transaction, committed; undefined when a write threw outside a savepoint (all rolled back). */
  function attempt(batch: Queued[], isolated: boolean): Outcome[] | undefined {
    begin.run();
    const outcomes: Outcome[] = [];
    for (const { work } of batch) {
      if (isolated) savepoint.run();
      try {
        outcomes.push({ ok: true, value: work() });
      } catch (error) {
        if (!isolated) {
          rollback.run();
          return undefined;
        }
        undo.run();
        outcomes.push({ ok: false, error });
      }
      if (isolated) release.run();
    }
    commit.run();
    return outcomes;
  }

  function flush(): void {
    const batch = queue;
    queue = [];
    let outcomes: Outcome[];
    try {
      outcomes = attempt(batch, false) ?? (attempt(batch, true) as Outcome[]);
    } catch (error) {
      try {
        rollback.run();
      } catch {
        // BEGIN failed, or the failed commit ended the transaction already
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
