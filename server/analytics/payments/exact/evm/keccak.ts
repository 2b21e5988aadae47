/**
 * Keccak-256 with the `keccak` package's native sponge (its own pure-JS sponge where no prebuilt
 * binary loads), faster than pure-JS hashing on the short inputs of an EVM payment, which hashes three
 * times (the authorization's struct, its EIP-712 digest, the signer's public key)
 * (docs/decisions/0002-native-crypto-and-recovery-thread.md).
 *
 * The package's API builds a Transform stream per hash; one sponge is reused instead, taken from the
 * one hash object the package builds here: `keccak256` runs to the end before any other call can start
 * (the event loop runs one at a time; each worker thread has its own module). The sponge is the
 * package's private `_state`, so it is checked when taken and the package's API used where it has
 * changed; the tests compare both with viem's keccak256.
 */
import createKeccakHash from "keccak";

/** Keccak-f[1600] with a 1088-bit rate and a 512-bit capacity: Keccak-256, padded with 0x01 on its first squeeze. */
const RATE = 1088;
const CAPACITY = 512;

interface Sponge {
  initialize(rate: number, capacity: number): void;
  absorb(data: Buffer): void;
  squeeze(length: number): Buffer;
}

const isSponge = (state: unknown): state is Sponge =>
  typeof state === "object" &&
  state !== null &&
  ["initialize", "absorb", "squeeze"].every(
    (method) => typeof (state as Record<string, unknown>)[method] === "function",
  );

/** Keccak-256 through the package's API: a hash object per call. */
export function keccak256ViaStream(data: Uint8Array): Buffer {
  return createKeccakHash("keccak256").update(toBuffer(data)).digest();
}

const toBuffer = (data: Uint8Array) =>
  Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);

const state: unknown = (createKeccakHash("keccak256") as unknown as { _state?: unknown })._state;
const sponge = isSponge(state) ? state : undefined;

/** Whether hashes reuse one sponge (else each builds the package's hash object). */
export const reusesSponge = sponge !== undefined;

export const keccak256: (data: Uint8Array) => Buffer = sponge
  ? (data) => {
      sponge.initialize(RATE, CAPACITY);
      sponge.absorb(toBuffer(data));
      return sponge.squeeze(32);
    }
  : keccak256ViaStream;
