/**
 * Deterministic randomness for the embedded dataset: the same seed gives the same market, so
 * tests can pin numbers and a restarted service shows the same pools and wallets.
 */
import { createHash } from "node:crypto";

export type Rng = {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [min, max). */
  range(min: number, max: number): number;
  /** Integer in [min, max]. */
  int(min: number, max: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** True with probability p. */
  chance(p: number): boolean;
};

/** sfc32 seeded from a SHA-256 of the seed string: fast, good enough for synthetic data, never for keys. */
export function rng(seed: string): Rng {
  const h = createHash("sha256").update(seed).digest();
  let a = h.readUInt32LE(0);
  let b = h.readUInt32LE(4);
  let c = h.readUInt32LE(8);
  let d = h.readUInt32LE(12);
  const next = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  const range = (min: number, max: number) => min + (max - min) * next();
  return {
    next,
    range,
    int: (min, max) => Math.floor(range(min, max + 1)),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T,
    chance: (p) => next() < p,
  };
}

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/** A believable 44-character base58 Solana address derived from a label (stable for a seed and label). */
export function solanaAddress(seed: string, label: string): string {
  const bytes = createHash("sha256").update(`${seed}:${label}`).digest();
  let n = BigInt(`0x${bytes.toString("hex")}`);
  let out = "";
  while (n > 0n) {
    out = BASE58[Number(n % 58n)] + out;
    n /= 58n;
  }
  return out
    .padStart(44, "1")
    .slice(0, 44)
    .replace(/^1+/, (ones) => "2".repeat(ones.length));
}

/** A lowercase 0x EVM address derived from a label. */
export function evmAddress(seed: string, label: string): string {
  return `0x${createHash("sha256").update(`${seed}:evm:${label}`).digest("hex").slice(0, 40)}`;
}

/** Rounds to `digits` decimals (money and percentages in the dataset are shown rounded). */
export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
