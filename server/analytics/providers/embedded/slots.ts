/** The embedded chain's slot clock: 400 ms slots from a fixed epoch, so that slots and times map both ways. */

const SLOT_EPOCH = Date.UTC(2021, 11, 1);
const SLOT_MS = 400;

/** Solana slot at a time. */
export const slotAt = (t: number) => Math.floor((t - SLOT_EPOCH) / SLOT_MS);

/** Start time of a slot. */
export const slotTime = (slot: number) => SLOT_EPOCH + slot * SLOT_MS;
