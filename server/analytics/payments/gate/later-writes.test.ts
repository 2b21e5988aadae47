import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { StoreUnavailable } from "../../../db/unavailable.js";
import { manualClock } from "../../clock.js";
import { laterWrites } from "./later-writes.js";

/** A ledger write that fails while `down`, counting attempts and the most that ran at once. */
function ledger() {
  const state = { down: true, attempts: 0, done: 0, running: 0, mostAtOnce: 0 };
  const write = async () => {
    state.attempts++;
    state.running++;
    state.mostAtOnce = Math.max(state.mostAtOnce, state.running);
    await Promise.resolve();
    state.running--;
    if (state.down) throw new StoreUnavailable("database");
    state.done++;
  };
  return { state, write };
}

describe("writes the ledger could not take", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("cost the database one attempt per round during an outage, however many requests failed, and all go through once it is back", async () => {
    const clock = manualClock(0);
    const later = laterWrites(clock);
    const { state, write } = ledger();
    for (let i = 0; i < 50; i++) later.add(write, 60_000);
    // Rounds at 250, 750, 1750, 3750 and 5750 ms.
    await vi.advanceTimersByTimeAsync(6_000);
    expect(state.attempts).toBe(5);
    state.down = false;
    await vi.advanceTimersByTimeAsync(2_000);
    expect(state.done).toBe(50);
    expect(state.mostAtOnce).toBe(1);
    // Nothing is left to try.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(state.attempts).toBe(5 + 50);
  });

  it("drops a write past its limit without trying it (recovery's from then on), and one that fails for another reason", async () => {
    const clock = manualClock(0);
    const later = laterWrites(clock);
    const { state, write } = ledger();
    state.down = false;
    const refused = vi.fn(async () => {
      throw new Error("constraint");
    });
    later.add(write, 100);
    later.add(refused, 10_000);
    later.add(write, 10_000);
    clock.advance(200);
    await vi.advanceTimersByTimeAsync(300);
    expect(state.attempts).toBe(1);
    expect(refused).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(refused).toHaveBeenCalledTimes(1);
    expect(state.attempts).toBe(1);
  });
});
