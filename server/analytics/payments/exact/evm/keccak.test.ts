import { randomBytes } from "node:crypto";
import { keccak256 as viemKeccak256 } from "viem";
import { describe, expect, it } from "vitest";
import { keccak256, keccak256ViaStream, reusesSponge } from "./keccak.js";

const viem = (data: Uint8Array) => Buffer.from(viemKeccak256(data, "bytes"));

describe("keccak256", () => {
  it("reuses the package's sponge on this platform", () => {
    // a package update that moved it would fall back to a hash object per call, correct but slower: say so here
    expect(reusesSponge).toBe(true);
  });

  it("equals viem's keccak256 for inputs around and across the 136-byte block, one after another", () => {
    // lengths that end a block exactly, leave one byte for the padding, or span several blocks; each hash after
    // the one before, so that a sponge not reset would show
    for (const length of [0, 1, 31, 32, 64, 65, 135, 136, 137, 224, 271, 272, 273, 1000]) {
      const data = randomBytes(length);
      expect(keccak256(data).equals(viem(data)), `length ${length}`).toBe(true);
      expect(keccak256ViaStream(data).equals(viem(data)), `length ${length}, via the stream`).toBe(true);
    }
  });

  it("hashes a view into a larger buffer by its own bytes only", () => {
    const backing = randomBytes(100);
    const view = new Uint8Array(backing.buffer, backing.byteOffset + 10, 50);
    expect(keccak256(view).equals(viem(backing.subarray(10, 60)))).toBe(true);
  });

  it("hashes the empty input to Keccak-256's known digest", () => {
    expect(keccak256(new Uint8Array()).toString("hex")).toBe(
      "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470",
    );
  });
});
