/**
 * Recovery: nothing stays locked after a crash, a facilitator failure or a request slower than its
 * deadline. Runs at start-up and then periodically, on every instance (each resolution is a
 * conditional write, so two instances cannot resolve one payment twice).
 *
 * - `verified` past its deadline: no answer was produced in time (the process stopped, or the
 *   request was abandoned). Nothing was delivered or settled: released, not charged.
 * - `settling` past its deadline: the answer was stored and settlement had started. Recovery asks
 *   where the money went: moved → settled (the stored answer then serves a retry); never moved and
 *   never can → released; still possible → asked again later. Never settled on a guess.
 * - Stored answers are dropped once their payment's validity window has passed, and A2A tasks deleted once expired
 *   (their table is in the ledger's database, which only this sweep keeps from growing).
 */
import type { Logger } from "pino";
import type { Clock } from "../../clock.js";
import type { TaskStore } from "../../tasks/task-store.js";
import { RECOVERY_RECORDS } from "../ledger/stages.js";
import type { LedgerStore, Move, PendingPayment, Split } from "../ledger/store.js";
import { type PaymentObserver, unobservedPayments } from "../reporting/payment-events.js";
import type { SettlementBackend } from "./settlement.js";

/** What recovery records on a payment it resolved (`npm run ledger` groups by it). */
export const RECOVERY = {
  releasedUnanswered: RECOVERY_RECORDS.expire,
  awaitingOtherBackend: "awaiting: settlement begun by another SETTLEMENT backend, which must resolve it",
  releasedUnsettled: RECOVERY_RECORDS.voidOnChain,
  settledConfirmed: RECOVERY_RECORDS.confirmOnChain,
  awaiting: "awaiting: settlement outcome still open",
} as const;

export interface RecoveryReport {
  released: number;
  settled: number;
  awaiting: number;
  answersDropped: number;
  /** A2A tasks deleted once expired; with a task store only. */
  tasksDropped?: number;
}

export interface RecoveryOptions {
  ledger: LedgerStore;
  backend: SettlementBackend;
  clock: Clock;
  logger: Logger;
  split: (network: string, amount: bigint) => Split;
  /** How soon a `settling` payment whose outcome is still open is asked about again. */
  retryMs?: number;
  /** Payments resolved per pass at most (the next pass takes the rest). */
  batch?: number;
  /** Told of every payment recovery resolved. */
  observer?: PaymentObserver;
  /** The A2A tasks in the ledger's database, whose expired ones each pass deletes. */
  tasks?: TaskStore;
}

/** What a recovery pass reads: the options, with their defaults filled in. */
type RecoveryRun = Required<Omit<RecoveryOptions, "observer" | "tasks">> & {
  observer: PaymentObserver;
  tasks?: TaskStore;
};

/** Counts a resolution in the pass's report and tells the observer. */
function resolved(run: RecoveryRun, payment: PendingPayment, report: RecoveryReport, as: "released" | "settled"): void {
  report[as]++;
  run.observer.payment({
    network: payment.network,
    version: "",
    outcome: "recovered",
    reason: as,
    ...(as === "settled" && { amount: payment.amount }),
  });
}

/**
 * Whether recovery's move was made. Refused by `stage` or `past deadline`, another writer came first (another instance's
 * recovery resolved or postponed the payment, or its request moved it in time): nothing to count, nothing wrong. Any
 * other refusal (`no such payment`: an entry `pending` listed) is not one recovery should meet, and is logged.
 */
function made(run: RecoveryRun, payment: PendingPayment, move: Move): boolean {
  if (move.moved) return true;
  if (move.refusedBy !== "stage" && move.refusedBy !== "past deadline")
    run.logger.warn({ payment: payment.key, entry: payment.entry, ...move }, "the ledger refused a move of recovery's");
  return false;
}

/** A `settling` payment past its deadline, resolved by where its money went: moved, never moved, or asked again later. */
async function resolveSettling(run: RecoveryRun, payment: PendingPayment, report: RecoveryReport): Promise<void> {
  const { ledger, backend, clock, logger, split, retryMs } = run;
  // The ledger backend settles in the commit that stores the answer and never leaves a payment `settling`: this one
  // was begun by a backend with an outside effect (before a restart with another SETTLEMENT, or by another instance),
  // and only that backend can read where its money went. Released here, a charged payment could read not charged.
  if (!backend.status) {
    logger.warn(
      { payment: payment.key },
      "a payment is settling under another SETTLEMENT backend; left for it to resolve",
    );
    if (made(run, payment, await ledger.postpone(payment.entry, clock.now() + retryMs, RECOVERY.awaitingOtherBackend)))
      report.awaiting++;
    return;
  }
  const state = await backend.status({
    network: payment.network,
    payer: payment.payer,
    payload: JSON.parse(payment.payload),
    expiresAt: payment.expiresAt,
    createdAt: payment.createdAt,
  });
  if (state.state === "settled") {
    const settlement = {
      transaction: state.transaction,
      simulated: false,
      split: split(payment.network, payment.amount),
    };
    if (made(run, payment, await ledger.confirmOnChain(payment.entry, settlement)))
      resolved(run, payment, report, "settled");
  } else if (state.state === "unsettled") {
    if (made(run, payment, await ledger.voidOnChain(payment.entry, state.why)))
      resolved(run, payment, report, "released");
  } else if (made(run, payment, await ledger.postpone(payment.entry, clock.now() + retryMs, RECOVERY.awaiting)))
    report.awaiting++;
}

/** One pass: every payment past its deadline resolved (as far as can be now), then the expired answers dropped. */
async function recoveryPass(run: RecoveryRun): Promise<RecoveryReport> {
  const { ledger, clock, logger, retryMs } = run;
  const report: RecoveryReport = { released: 0, settled: 0, awaiting: 0, answersDropped: 0 };
  for (const payment of await ledger.pending(clock.now(), run.batch)) {
    try {
      if (payment.status === "verified") {
        if (made(run, payment, await ledger.expire(payment.entry))) resolved(run, payment, report, "released");
      } else await resolveSettling(run, payment, report);
    } catch (error) {
      // The chain or the facilitator did not answer: the payment stays as it is, for the next pass.
      logger.warn({ err: error, payment: payment.key }, "recovery could not resolve a payment yet");
      // Left as it is when the ledger cannot be written either; not counted when another writer resolved it meanwhile.
      const postponed = await ledger
        .postpone(payment.entry, clock.now() + retryMs, RECOVERY.awaiting)
        .catch(() => undefined);
      if (!postponed || made(run, payment, postponed)) report.awaiting++;
    }
  }
  report.answersDropped = await ledger.dropExpiredAnswers(clock.now());
  if (run.tasks) report.tasksDropped = await run.tasks.dropExpired(clock.now());
  if (report.released || report.settled || report.awaiting) logger.info(report, "payment recovery");
  return report;
}

export function createRecovery(options: RecoveryOptions) {
  const run: RecoveryRun = {
    retryMs: 15_000,
    batch: 200,
    ...options,
    observer: options.observer ?? unobservedPayments,
  };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  return {
    run: () => recoveryPass(run),
    /** Runs a pass every `intervalMs` until `stop`; a pass still running when the next is due makes it skip. */
    start(intervalMs: number) {
      timer = setInterval(() => {
        running ??= recoveryPass(run)
          .catch((error) => run.logger.error({ err: error }, "payment recovery failed"))
          .finally(() => {
            running = undefined;
          });
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
