/**
 * Payer keys from the environment or a key file, never from the command line:
 * `X402_EVM_PRIVATE_KEY` (0x + 64 hex) and `X402_SOLANA_SECRET_KEY` (a JSON array of 64 bytes,
 * or their base58), either as environment variables or as fields of a JSON key file.
 */
import { readFileSync } from "node:fs";
import { createKeyPairSignerFromBytes, getBase58Encoder } from "@solana/kit";
import { privateKeyToAccount } from "viem/accounts";
import type { Family } from "./networks.js";
import { type BlockhashSource, evmPayer, type Payer, solanaPayer } from "./payers.js";

export const KEY_VARIABLES = { evm: "X402_EVM_PRIVATE_KEY", svm: "X402_SOLANA_SECRET_KEY" } as const satisfies Record<
  Family,
  string
>;

const EVM_KEY = /^0x[0-9a-fA-F]{64}$/;
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{80,90}$/;

export class KeyError extends Error {
  override readonly name = "KeyError";
}

/** Whether a command-line value looks like key material (so that it can be refused). */
export function looksLikeKey(value: string): boolean {
  const text = value.trim();
  return EVM_KEY.test(text) || BASE58.test(text) || /^\[\s*\d+(\s*,\s*\d+){31,}\s*\]$/.test(text);
}

function solanaSecret(value: unknown): Uint8Array {
  const bytes =
    typeof value === "string" && value.trim().startsWith("[")
      ? JSON.parse(value)
      : typeof value === "string"
        ? Array.from(getBase58Encoder().encode(value.trim()))
        : value;
  if (!Array.isArray(bytes) || bytes.length !== 64 || !bytes.every((b) => Number.isInteger(b) && b >= 0 && b <= 255))
    throw new KeyError(`${KEY_VARIABLES.svm} must be a 64-byte secret key: a JSON byte array or its base58`);
  return Uint8Array.from(bytes);
}

/** The raw key values: from `keyFile` when given, else from `env`. */
export function keySource(env: Record<string, string | undefined>, keyFile?: string): Partial<Record<Family, unknown>> {
  if (keyFile === undefined) return { evm: env[KEY_VARIABLES.evm], svm: env[KEY_VARIABLES.svm] };
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(readFileSync(keyFile, "utf8"));
  } catch (error) {
    throw new KeyError(`cannot read the key file ${keyFile}: ${(error as Error).message}`);
  }
  return { evm: parsed[KEY_VARIABLES.evm], svm: parsed[KEY_VARIABLES.svm] };
}

/** The payer of `family` from key material; `solana` says where a Solana payer gets its blockhash. */
export async function payerFromKeys(
  family: Family,
  keys: Partial<Record<Family, unknown>>,
  solana: () => Promise<BlockhashSource>,
): Promise<Payer> {
  const value = keys[family];
  if (value === undefined || value === "")
    throw new KeyError(`no ${family === "evm" ? "EVM" : "Solana"} key: set ${KEY_VARIABLES[family]}`);
  if (family === "evm") {
    if (typeof value !== "string" || !EVM_KEY.test(value.trim()))
      throw new KeyError(`${KEY_VARIABLES.evm} must be 0x followed by 64 hex digits`);
    return evmPayer(privateKeyToAccount(value.trim() as `0x${string}`));
  }
  const signer = await createKeyPairSignerFromBytes(solanaSecret(value));
  return solanaPayer(signer, await solana());
}
