/** The live LaunchLab reader: new pools from the program's logs, their creation and state over JSON-RPC. */
import { z } from "zod";
import type { Clock } from "../../clock.js";
import { WSOL_MINT } from "../chain-rpc.js";
import type { LaunchLabLaunch } from "../launches.js";
import { type FeedSocket, type FeedSocketOptions, openFeedSocket } from "./feed-socket.js";
import type { JsonRpc } from "./json-rpc.js";
import { curveAddresses, decodeLaunchLabPool, LAUNCHLAB_PROGRAM, launchLabVaultAuthority } from "./solana-accounts.js";
import { readAccounts, readMetadata } from "./solana-reads.js";
import { base64Account, type Transaction, transactionSchema } from "./solana-schemas.js";

const logsNotification = z.object({
  method: z.literal("logsNotification"),
  params: z.object({
    result: z.object({
      value: z.object({ signature: z.string(), err: z.unknown().nullable(), logs: z.array(z.string()) }),
    }),
  }),
});

/** A new LaunchLab pool's signature, from a `logsNotification`; undefined for any other message. */
export function launchLabSignature(text: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = logsNotification.safeParse(body);
  if (!parsed.success) return undefined;
  const { signature, err, logs } = parsed.data.params.result.value;
  return err == null && logs.some((line) => /Instruction: Initialize/.test(line)) ? signature : undefined;
}

export interface LaunchLabCreation {
  mint: string;
  pool: string;
  creator: string;
  createdAt: number;
  initialBuySol: number;
}

/**
 * A pool creation: the token is the non-SOL mint the LaunchLab vault authority holds after it, the
 * first buy is the SOL that authority holds (0 without one), the creator is the fee payer.
 */
export function mapLaunchLabCreation(tx: Transaction, vaultAuthority: string): LaunchLabCreation | undefined {
  if (tx.meta.err != null || tx.blockTime === null) return undefined;
  const vaults = (tx.meta.postTokenBalances ?? []).filter((b) => b.owner === vaultAuthority);
  const token = vaults.find((b) => b.mint !== WSOL_MINT);
  if (!token) return undefined;
  return {
    mint: token.mint,
    pool: curveAddresses(token.mint).launchLab,
    creator: tx.transaction.message.accountKeys[0]?.pubkey as string,
    createdAt: tx.blockTime * 1000,
    initialBuySol: vaults.find((b) => b.mint === WSOL_MINT)?.uiTokenAmount.uiAmountString ?? 0,
  };
}

export interface LaunchLabOptions {
  clock: Clock;
  /** JSON-RPC for the creation transactions and the pool and metadata accounts. */
  rpc: JsonRpc;
  /** The RPC's WebSocket endpoint, for the program's logs. */
  wsUrl: string;
  /** Pools remembered, newest first. */
  maxLaunches: number;
  socket?: Pick<FeedSocketOptions, "backoff" | "idleMs" | "random">;
}

/**
 * Raydium LaunchLab launches (docs/upstreams.md §3.3): no public feed exists, so the RPC's WebSocket
 * streams the program's logs (`logsSubscribe`); an `Initialize` log marks a new pool, whose creation
 * transaction, pool account and metadata are read over JSON-RPC when the launches are asked for.
 */
export function openLaunchLab({ clock, rpc, wsUrl, maxLaunches, socket }: LaunchLabOptions): {
  feed: FeedSocket;
  recentLaunches(limit: number): Promise<LaunchLabLaunch[]>;
} {
  /** Pools seen in the logs, newest first; `creation` once its transaction was read. */
  const seen: { signature: string; creation?: LaunchLabCreation }[] = [];
  const feed = openFeedSocket({
    ...socket,
    url: wsUrl,
    clock,
    subscribe: () => [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "logsSubscribe",
        params: [{ mentions: [LAUNCHLAB_PROGRAM] }, { commitment: "confirmed" }],
      },
    ],
    onMessage(text) {
      const signature = launchLabSignature(text);
      if (!signature || seen.some((s) => s.signature === signature)) return;
      seen.unshift({ signature });
      seen.length = Math.min(seen.length, maxLaunches);
    },
  });

  /** Reads the creations not read yet; a transaction the RPC does not serve yet is tried again next time. */
  async function resolve(entries: typeof seen): Promise<void> {
    const authority = launchLabVaultAuthority();
    await Promise.all(
      entries
        .filter((e) => !e.creation)
        .map(async (entry) => {
          const params = [
            entry.signature,
            { encoding: "jsonParsed", maxSupportedTransactionVersion: 0, commitment: "confirmed" },
          ];
          const tx = await rpc.call("getTransaction", params, transactionSchema);
          const creation = tx && mapLaunchLabCreation(tx, authority);
          if (creation) entry.creation = creation;
          else if (tx) seen.splice(seen.indexOf(entry), 1);
        }),
    );
  }

  async function recentLaunches(limit: number): Promise<LaunchLabLaunch[]> {
    await resolve(seen.slice(0, limit));
    const created = seen.slice(0, limit).flatMap((e) => (e.creation ? [e.creation] : []));
    const [pools, metadata] = await Promise.all([
      readAccounts(
        rpc,
        created.map((c) => c.pool),
        "base64",
        base64Account,
      ),
      readMetadata(
        rpc,
        created.map((c) => c.mint),
      ),
    ]);
    return created.flatMap((c, i): LaunchLabLaunch[] => {
      const account = pools[i];
      const pool = account && decodeLaunchLabPool(c.pool, account.data);
      if (!pool) return [];
      const meta = metadata.get(c.mint);
      return [
        {
          ...pool,
          name: meta?.name ?? "Unknown",
          symbol: meta?.symbol ?? "?",
          createdAt: c.createdAt,
          initialBuySol: c.initialBuySol,
        },
      ];
    });
  }

  return { feed, recentLaunches };
}
