/**
 * Keccak-256 with the `keccak` package's native binding (its own pure-JS code where no prebuilt
 * binary loads): about four times @noble/hashes on the short inputs of an EVM payment, which
 * hashes three times (the authorization's struct, its EIP-712 digest, the signer's public key).
 */
import createKeccakHash from "keccak";

export function keccak256(data: Uint8Array): Buffer {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return createKeccakHash("keccak256").update(bytes).digest();
}
