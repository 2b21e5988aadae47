/**
 * The 90/10 split of a payment between the service and the treasury, in exact integer micro-USDC.
 * Remainder rule: the treasury gets `floor(amount × treasuryBps / 10000)` and the service gets the
 * rest, so the two parts always add up to the amount and rounding never favours the treasury.
 */
export function splitPayment(amount: bigint, treasuryBps: number): { service: bigint; treasury: bigint } {
  if (amount < 0n) throw new RangeError("amount must not be negative");
  if (!Number.isInteger(treasuryBps) || treasuryBps < 0 || treasuryBps > 10_000)
    throw new RangeError("treasuryBps must be 0..10000");
  const treasury = (amount * BigInt(treasuryBps)) / 10_000n;
  return { service: amount - treasury, treasury };
}
