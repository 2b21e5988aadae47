/** Batched account reads over JSON-RPC, shared by the chain, pool and launch adapters: accounts, mints and metadata. */
import { z } from "zod";
import type { MintAccount, TokenMetadata } from "../chain-rpc.js";
import type { JsonRpc } from "./json-rpc.js";
import { decodeMetadata, metadataAddress } from "./solana-accounts.js";
import { mapMintAccount } from "./solana-mappers.js";
import { base64Account, parsedAccount } from "./solana-schemas.js";

/** `getMultipleAccounts` takes at most 100 keys. */
const MAX_KEYS = 100;

/** `getMultipleAccounts`, 100 keys a call, in the order of `keys`. */
export async function readAccounts<T>(
  rpc: JsonRpc,
  keys: readonly string[],
  encoding: "jsonParsed" | "base64",
  schema: z.ZodType<T>,
): Promise<(T | null)[]> {
  const chunks = Array.from({ length: Math.ceil(keys.length / MAX_KEYS) }, (_, i) =>
    keys.slice(i * MAX_KEYS, (i + 1) * MAX_KEYS),
  );
  const pages = await Promise.all(
    chunks.map((chunk) =>
      rpc.call("getMultipleAccounts", [chunk, { encoding }], z.object({ value: z.array(schema.nullable()) })),
    ),
  );
  return pages.flatMap((p) => p.value);
}

/** Mints by address; absent or non-mint accounts are left out. */
export async function readMints(rpc: JsonRpc, mints: readonly string[]): Promise<Map<string, MintAccount>> {
  const unique = [...new Set(mints)];
  const found = await readAccounts(rpc, unique, "jsonParsed", parsedAccount);
  const out = new Map<string, MintAccount>();
  found.forEach((account, i) => {
    const mint = mapMintAccount(unique[i] as string, account);
    if (mint) out.set(mint.mint, mint);
  });
  return out;
}

/** Metaplex metadata of mints, by mint; mints without a metadata account are left out. */
export async function readMetadata(rpc: JsonRpc, mints: readonly string[]): Promise<Map<string, TokenMetadata>> {
  const unique = [...new Set(mints)];
  const found = await readAccounts(rpc, unique.map(metadataAddress), "base64", base64Account);
  const out = new Map<string, TokenMetadata>();
  found.forEach((account, i) => {
    const decoded = account && decodeMetadata(unique[i] as string, account.data);
    if (decoded) out.set(decoded.mint, decoded);
  });
  return out;
}
