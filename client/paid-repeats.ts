/**
 * How a paying client repeats a paid call with the same payment (the paying fetch over HTTP, the
 * bridge over MCP): after every in-progress answer, waiting as told; after another answer that asks to
 * wait, and after a call whose answer was lost on the way, a limited number of times. Never with a new
 * payment: the service answers a repeat with the answer already bought, never a second charge.
 */

/** What an answer asks: to come back after `ms`, and whether its payment is in progress (held, or its settlement open). */
export interface AskedToWait {
  ms: number;
  inProgress: boolean;
}

export interface RepeatRules<T> {
  /** Repeats after a lost answer, or after a wait asked by an answer that is not in progress. */
  retries: number;
  /** The most all the waits of one call add up to (an in-progress answer counts a second at least). */
  maxWaitMs: number;
  /** What the answer asks, if it asks to come back. */
  asked(answer: T): Promise<AskedToWait | undefined> | AskedToWait | undefined;
  /** Whether a failed attempt may have lost its answer on the way (else it is thrown at once). */
  mayBeLost?(error: unknown): boolean;
  /** Lets go of an answer that will be asked again. */
  discard?(answer: T): Promise<unknown>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Makes `attempt`, again after every in-progress answer (as told), and after another asked wait or a lost answer (a
 * second later) up to `retries` times; the last failure is thrown. A wait beyond what is left of `maxWaitMs` is not
 * made: the answer that asked for it is returned.
 */
export async function repeatPaid<T>(attempt: () => Promise<T>, rules: RepeatRules<T>): Promise<T> {
  let failures = 0;
  let waited = 0;
  for (;;) {
    let answer: T;
    try {
      answer = await attempt();
    } catch (error) {
      if (rules.mayBeLost?.(error) === false || failures++ >= rules.retries) throw error;
      await sleep(1000);
      continue;
    }
    const asked = await rules.asked(answer);
    if (!asked || waited + asked.ms > rules.maxWaitMs || (!asked.inProgress && failures++ >= rules.retries))
      return answer;
    waited += Math.max(asked.ms, asked.inProgress ? 1000 : 0);
    await rules.discard?.(answer);
    await sleep(asked.ms);
  }
}
