/**
 * Signer recovery, the largest cost of verifying an EVM payment, with native libsecp256k1 rather than
 * viem's pure-JS recovery (docs/decisions/0002-native-crypto-and-recovery-thread.md). Only 65-byte
 * EOA signatures with a low `s` are accepted: the USDC contract rejects the others at settlement.
 */
import secp256k1 from "secp256k1";
import { keccak256 } from "./keccak.js";

/** secp256k1 group order / 2, big-endian: signatures with a larger `s` are malleable twins. */
const HALF_ORDER = Buffer.from("7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0", "hex");

/** The lowercase 0x address that signed `digest`, or undefined when the signature is not a valid low-s EOA signature. */
export function recoverSigner(digest: Uint8Array, signatureHex: string): string | undefined {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signatureHex)) return undefined;
  const signature = Buffer.from(signatureHex.slice(2), "hex");
  const v = signature[64] as number;
  const recovery = v >= 27 ? v - 27 : v;
  if (recovery !== 0 && recovery !== 1) return undefined;
  if (signature.compare(HALF_ORDER, 0, 32, 32, 64) > 0) return undefined;
  try {
    const publicKey = secp256k1.ecdsaRecover(signature.subarray(0, 64), recovery, digest, false);
    return `0x${keccak256(publicKey.subarray(1)).subarray(12).toString("hex")}`;
  } catch {
    return undefined;
  }
}
