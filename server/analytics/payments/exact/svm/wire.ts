/**
 * A direct parser of a serialized Solana transaction (legacy or version 0 message), returning views
 * into the original bytes. Verification compares 32-byte keys as bytes, so it never needs the
 * base58 round trips of a general-purpose decoder; any malformed input throws.
 */

export interface WireInstruction {
  programIndex: number;
  accounts: number[];
  data: Uint8Array;
}

export interface WireTransaction {
  /** One 64-byte slot per required signer, in account order; all zeros when not signed yet. */
  signatures: Uint8Array[];
  messageBytes: Uint8Array;
  /** `legacy` or the versioned message's version number. */
  version: "legacy" | number;
  numRequiredSignatures: number;
  accountKeys: Uint8Array[];
  recentBlockhash: Uint8Array;
  instructions: WireInstruction[];
  addressTableLookups: number;
}

class Reader {
  offset = 0;
  constructor(readonly bytes: Uint8Array) {}

  byte(): number {
    if (this.offset >= this.bytes.length) throw new RangeError("transaction truncated");
    return this.bytes[this.offset++] as number;
  }

  take(length: number): Uint8Array {
    if (this.offset + length > this.bytes.length) throw new RangeError("transaction truncated");
    const view = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return view;
  }

  /** Solana's compact-u16 length prefix. */
  shortVec(): number {
    let value = 0;
    for (let shift = 0; shift < 21; shift += 7) {
      const b = this.byte();
      value |= (b & 0x7f) << shift;
      if ((b & 0x80) === 0) return value;
    }
    throw new RangeError("compact-u16 too long");
  }
}

export function parseTransaction(bytes: Uint8Array): WireTransaction {
  const r = new Reader(bytes);
  const signatures = Array.from({ length: r.shortVec() }, () => r.take(64));
  const messageStart = r.offset;
  const first = r.byte();
  const version = first & 0x80 ? first & 0x7f : "legacy";
  const numRequiredSignatures = version === "legacy" ? first : r.byte();
  r.take(2); // read-only signed / unsigned counts
  const accountKeys = Array.from({ length: r.shortVec() }, () => r.take(32));
  const recentBlockhash = r.take(32);
  const instructions = Array.from({ length: r.shortVec() }, () => {
    const programIndex = r.byte();
    const accounts = Array.from({ length: r.shortVec() }, () => r.byte());
    return { programIndex, accounts, data: r.take(r.shortVec()) };
  });
  let addressTableLookups = 0;
  if (version !== "legacy") {
    addressTableLookups = r.shortVec();
    for (let i = 0; i < addressTableLookups; i++) {
      r.take(32);
      r.take(r.shortVec());
      r.take(r.shortVec());
    }
  }
  if (r.offset !== bytes.length) throw new RangeError("trailing bytes after the message");
  if (signatures.length !== numRequiredSignatures)
    throw new RangeError("signature count does not match the message header");
  const indexOk = (i: number) => i < accountKeys.length;
  if (!instructions.every((ix) => indexOk(ix.programIndex) && ix.accounts.every(indexOk)))
    throw new RangeError("account index out of range");
  return {
    signatures,
    messageBytes: bytes.subarray(messageStart),
    version,
    numRequiredSignatures,
    accountKeys,
    recentBlockhash,
    instructions,
    addressTableLookups,
  };
}
