/**
 * Seeded identifiers of the embedded market: cheap integer hashing for scans over months of
 * launches, memo tables, base58 addresses that carry the index of what they name (found again
 * without a table), and transaction signatures.
 */
import { createHash } from "node:crypto";
import { rng } from "./random.js";

/** A 32-bit avalanche hash of two integers as a unit float: cheap enough to scan months of launches. */
export function unit(key: number, n: number): number {
  let h = (key ^ Math.imul(n, 0x9e3779b1)) | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

/** The value under `key`, computed and kept on first use (the market's memos cache pure results). */
export function remember<K, V>(map: Map<K, V>, key: K, compute: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = compute();
    map.set(key, value);
  }
  return value;
}

const keys = new Map<string, number>();

/** A 32-bit key for a label under a seed. */
export function keyOf(seed: string, label: string): number {
  const id = `${seed}:${label}`;
  return remember(keys, id, () => Math.floor(rng(id).next() * 4294967296));
}

const B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/** `count` base58 characters drawn from a label's SHA-512 (addresses, metadata URIs). */
export function base58Chars(label: string, count: number): string {
  const bytes = createHash("sha512").update(label).digest();
  let out = "";
  for (let k = 0; k < count; k++) out += B58[((bytes[k % 64] as number) + 29 * (k >> 6)) % 58];
  return out;
}

/** An 88-character transaction signature: an FNV hash of the label, five characters per hash (tapes hold many). */
export function signatureOf(seed: string, label: string): string {
  let h = keyOf(seed, "signature");
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193);
  const codes: number[] = [];
  for (let k = 0; codes.length < 88; k++) {
    let word = Math.floor(unit(h, k) * 656_356_768);
    for (let c = 0; c < 5; c++, word = Math.floor(word / 58)) codes.push(B58.charCodeAt(word % 58));
  }
  return String.fromCharCode(...codes.slice(0, 88));
}

const SCRAMBLE = 0x2c9277b5;
const UNSCRAMBLE = (() => {
  let x = SCRAMBLE;
  for (let i = 0; i < 5; i++) x = Math.imul(x, 2 - Math.imul(SCRAMBLE, x));
  return x >>> 0;
})();

/**
 * An address that carries an index (scrambled) in six characters before an optional suffix, so the
 * token it names is found again without a table (pump.fun mints end in `pump` and LaunchLab mints
 * in `bonk`, as vanity mints do on those launchpads).
 */
export function indexedAddress(seed: string, kind: string, index: number, suffix: string): string {
  let code = (Math.imul(index, SCRAMBLE) + keyOf(seed, kind)) >>> 0;
  let tail = "";
  for (let i = 0; i < 6; i++) {
    tail = B58[code % 58] + tail;
    code = Math.floor(code / 58);
  }
  return base58Chars(`${seed}:${kind}:${index}`, 38 - suffix.length) + tail + suffix;
}

/** The index an address of `kind` carries; undefined when it is not one. */
export function indexFromAddress(seed: string, kind: string, address: string, suffix: string): number | undefined {
  if (address.length !== 44 || !address.endsWith(suffix)) return undefined;
  let code = 0;
  for (const ch of address.slice(38 - suffix.length, 44 - suffix.length)) code = code * 58 + B58.indexOf(ch);
  const index = Math.imul(((code - keyOf(seed, kind)) >>> 0) | 0, UNSCRAMBLE) >>> 0;
  return indexedAddress(seed, kind, index, suffix) === address ? index : undefined;
}
