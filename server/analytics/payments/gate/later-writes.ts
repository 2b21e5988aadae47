/**
 * Writes that free a payment's key (a release, an abandoned reservation) which the ledger could not
 * take because it was out of reach, tried again in the background until each one's own limit. One
 * queue per gate, drained one write at a time: during an outage the database gets one attempt per
 * round however many requests failed, and once it is back the backlog goes through without a burst
 * of concurrent statements. A write past its limit is dropped, and so is the oldest one when a new one
 * would exceed `MAX_PENDING`: recovery frees the payment all the same.
 */
import { StoreUnavailable } from "../../../db/unavailable.js";
import type { Clock } from "../../clock.js";

/** Waits between rounds while the ledger stays out of reach. */
const RETRY_MS = [250, 500, 1_000, 2_000];
/** A bound on memory during a long outage (each entry is a closure over one payment). */
const MAX_PENDING = 10_000;

export interface LaterWrites {
  /** Queues `write` to be tried from the next round on, until epoch ms `until`. */
  add(write: () => Promise<unknown>, until: number): void;
}

export function laterWrites(clock: Clock): LaterWrites {
  const pending: { write: () => Promise<unknown>; until: number }[] = [];
  let round = 0;
  let timer: NodeJS.Timeout | undefined;

  function schedule(): void {
    if (timer || !pending.length) return;
    timer = setTimeout(drain, RETRY_MS[Math.min(round, RETRY_MS.length - 1)]).unref();
  }

  async function drain(): Promise<void> {
    // `timer` stays set while draining: writes added meanwhile join this round.
    for (let next = pending[0]; next; next = pending[0]) {
      if (clock.now() < next.until) {
        try {
          await next.write();
        } catch (error) {
          if (error instanceof StoreUnavailable) {
            round++;
            timer = undefined;
            return schedule();
          }
          // Any other failure will not go better next round.
        }
      }
      pending.shift();
    }
    round = 0;
    timer = undefined;
  }

  return {
    add(write, until) {
      if (pending.length >= MAX_PENDING) pending.shift();
      pending.push({ write, until });
      schedule();
    },
  };
}
