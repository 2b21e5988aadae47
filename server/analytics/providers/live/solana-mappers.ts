/**
 * Solana RPC answers as the chain role's records: a mint account, a token's trade, a wallet's swap.
 * Pure; amounts in UI units and SOL, times in epoch milliseconds.
 */
import type { z } from "zod";
import type { WalletTrade } from "../../markets/records.js";
import { type MintAccount, type TokenTrade, WSOL_MINT } from "../chain-rpc.js";
import { LAUNCHLAB_PROGRAM, PUMP_PROGRAM } from "./solana-accounts.js";
import { mintData, type parsedAccount, type Transaction, type uiTokenBalance } from "./solana-schemas.js";

export const LAMPORTS = 1e9;

/** Programs a wallet trade goes through, by the name the role uses. */
const VENUES: Record<string, string> = {
  [PUMP_PROGRAM]: "pump",
  [LAUNCHLAB_PROGRAM]: "launchlab",
  JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4: "jupiter",
  LBUZKhRxPF3XUpBCjp4YzTKgLccjZhTSDM9YuVaPwxo: "meteora",
};
const STABLES = new Set([
  "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
  "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB",
]);

/** The mint as `getAccountInfo(jsonParsed)` reads it; undefined when the account is absent or not a mint. */
export function mapMintAccount(mint: string, account: z.infer<typeof parsedAccount> | null): MintAccount | undefined {
  const parsed = mintData.safeParse(account?.data);
  if (!parsed.success) return undefined;
  const { decimals, supply, mintAuthority, freezeAuthority } = parsed.data.parsed.info;
  return {
    mint,
    program: parsed.data.program,
    decimals,
    supply: Number(BigInt(supply)) / 10 ** decimals,
    mintAuthority: mintAuthority ?? null,
    freezeAuthority: freezeAuthority ?? null,
  };
}

/** Net change of `owner`'s balance of each mint in a transaction, UI units. */
export function tokenDeltas(tx: Transaction, owner: string): Map<string, number> {
  const deltas = new Map<string, number>();
  const add = (rows: z.infer<typeof uiTokenBalance>[] | null | undefined, sign: number) => {
    for (const row of rows ?? []) {
      if (row.owner === owner)
        deltas.set(row.mint, (deltas.get(row.mint) ?? 0) + sign * row.uiTokenAmount.uiAmountString);
    }
  };
  add(tx.meta.preTokenBalances, -1);
  add(tx.meta.postTokenBalances, 1);
  return deltas;
}

/** The fee payer's SOL change before the network fee: what a trade moved, in SOL. */
const solMoved = (tx: Transaction) =>
  ((tx.meta.postBalances[0] ?? 0) - (tx.meta.preBalances[0] ?? 0) + tx.meta.fee) / LAMPORTS;

/** A trade of `mint` by the fee payer; undefined for a failed transaction or one that moved none of it. */
export function mapTokenTrade(tx: Transaction, mint: string): TokenTrade | undefined {
  if (tx.meta.err != null || tx.blockTime === null) return undefined;
  const wallet = tx.transaction.message.accountKeys[0]?.pubkey as string;
  const tokens = tokenDeltas(tx, wallet).get(mint) ?? 0;
  if (tokens === 0) return undefined;
  return {
    signature: tx.transaction.signatures[0] as string,
    slot: tx.slot,
    blockTime: tx.blockTime * 1000,
    wallet,
    side: tokens > 0 ? "buy" : "sell",
    tokenAmount: Math.abs(tokens),
    solAmount: Math.abs(solMoved(tx)),
  };
}

/**
 * A wallet's swap: the token whose balance moved most (SOL, wrapped SOL and stablecoins price it),
 * valued by the stablecoin leg or by the SOL leg at `solUsd`. Liquidity moves are not told apart.
 */
export function mapWalletTrade(
  tx: Transaction,
  wallet: string,
  solUsd: number,
  symbols: Map<string, string>,
): WalletTrade | undefined {
  if (tx.meta.err != null || tx.blockTime === null || tx.transaction.message.accountKeys[0]?.pubkey !== wallet)
    return undefined;
  const deltas = tokenDeltas(tx, wallet);
  const traded = [...deltas]
    .filter(([mint, d]) => mint !== WSOL_MINT && !STABLES.has(mint) && d !== 0)
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))[0];
  if (!traded) return undefined;
  const [mint, amount] = traded;
  const stableUsd = [...deltas].filter(([m]) => STABLES.has(m)).reduce((sum, [, d]) => sum + Math.abs(d), 0);
  const sol = Math.abs(solMoved(tx) + (deltas.get(WSOL_MINT) ?? 0));
  const venue = tx.transaction.message.instructions.map((i) => VENUES[i.programId]).find(Boolean) ?? "other";
  return {
    signature: tx.transaction.signatures[0] as string,
    blockTime: tx.blockTime * 1000,
    type: amount > 0 ? "buy" : "sell",
    venue,
    mint,
    symbol: symbols.get(mint) ?? "?",
    amount: Math.abs(amount),
    valueUsd: stableUsd > 0 ? stableUsd : sol * solUsd,
  };
}
