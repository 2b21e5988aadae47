/**
 * Batching of one statement for a database reached over the network: calls made while earlier
 * batches are still on their way run together as one statement, and each caller's promise settles
 * when the statement that holds its item has completed (one statement is one transaction: nothing
 * is answered before its commit). At low load a call waits one turn of the event loop and runs
 * alone; under load the batches grow by themselves, up to `maxBatch`, while at most `maxInFlight`
 * are on the wire. A round trip, its socket writes and a commit then serve many requests instead of
 * one.
 *
 * A batch whose statement fails for a reason other than the database being out of reach (a
 * deadlock, a refused row) runs again item by item, so each caller gets its own outcome. Written
 * here because node-postgres sends each query as a round trip of its own and batches nothing
 * (docs/decisions/0004-group-commit-and-statement-batches.md).
 */
import { isLinkLoss, StoreUnavailable } from "./unavailable.js";

export interface BatchOptions<I, O> {
  /**
   * One statement for many items (when it throws, none of it happened): each item's outcome in the
   * items' order, or `undefined` for an item it left to `one` (a key already held, say).
   */
  many(items: I[]): Promise<(O | undefined)[]>;
  /** The statement for one item: alone, for an item `many` left, and for each item of a batch that failed. */
  one(item: I): Promise<O>;
  maxBatch: number;
  maxInFlight: number;
}

interface Queued<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

export function batched<I, O>({ many, one, maxBatch, maxInFlight }: BatchOptions<I, O>): (item: I) => Promise<O> {
  let queue: Queued<I, O>[] = [];
  let inFlight = 0;
  let scheduled = false;

  // A statement whose connection was lost or cut off fails the calls queued behind it too: none of
  // theirs was sent, and each would otherwise wait, with no bound, for the statements ahead of it to
  // time out in turn on connections most likely cut off as well (a network partition). A busy server
  // (a statement timeout, too many connections) still answers: the queue goes on.
  function unreachable(error: unknown): void {
    if (error instanceof StoreUnavailable && isLinkLoss(error.cause))
      for (const { reject } of queue.splice(0)) reject(error);
  }

  const alone = ({ item, resolve, reject }: Queued<I, O>) =>
    one(item).then(resolve, (error: unknown) => {
      reject(error);
      unreachable(error);
    });

  async function run(batch: Queued<I, O>[]): Promise<void> {
    if (batch.length === 1) return alone(batch[0] as Queued<I, O>);
    let outcomes: (O | undefined)[];
    try {
      outcomes = await many(batch.map((queued) => queued.item));
    } catch (error) {
      if (error instanceof StoreUnavailable) {
        for (const { reject } of batch) reject(error);
        unreachable(error);
      } else await Promise.all(batch.map(alone));
      return;
    }
    // Each item left to `one` succeeds or fails on its own: the batch's other callers are answered already.
    await Promise.all(
      batch.map((queued, i) => {
        const outcome = outcomes[i];
        if (outcome !== undefined) return queued.resolve(outcome);
        return alone(queued);
      }),
    );
  }

  function flush(): void {
    scheduled = false;
    while (queue.length && inFlight < maxInFlight) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      inFlight++;
      void run(batch).finally(() => {
        inFlight--;
        flush();
      });
    }
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!scheduled && inFlight < maxInFlight) {
        scheduled = true;
        setImmediate(flush);
      }
    });
}
