/**
 * Live launch feed. pump.fun: PumpPortal's data WebSocket (upstream.md §3.1), one shared connection
 * subscribed to `subscribeNewToken` and `subscribeMigration` (and, with a funded API key, to each
 * tracked token's trades), reconnecting with backoff and resubscribing; frames fill a bounded
 * in-memory window. LaunchLab (§3.3): no public feed exists, so the RPC's WebSocket streams the
 * program's logs (`logsSubscribe`); an `Initialize` log marks a new pool, whose creation
 * transaction, pool account and metadata are read over JSON-RPC when the launches are asked for.
 * Reads fail as upstream errors while a feed has been down longer than `staleAfterMs`.
 */
import WebSocket from "ws";
import { z } from "zod";
import { upstreamError } from "../../../http/errors.js";
import type { Clock } from "../../clock.js";
import type { LaunchLabLaunch, LaunchProvider, PumpCreateEvent, PumpCurveSnapshot } from "../launches.js";
import { numeric } from "./http.js";
import { curveAddresses, decodeLaunchLabPool, LAUNCHLAB_PROGRAM, launchLabVaultAuthority } from "./solana-accounts.js";
import { base64Account, type JsonRpc, readAccounts, readMetadata, type Transaction, transactionSchema } from "./solana-rpc.js";

export const PUMPPORTAL_WS_URL = "wss://pumpportal.fun/api/data";

const WSOL = "So11111111111111111111111111111111111111112";
/** Tokens tracked after their creation (the role's 72 hours). */
const TRACKED_MS = 72 * 3_600_000;
/** Keys per `subscribeTokenTrade` message when resubscribing. */
const KEYS_PER_MESSAGE = 100;

const createFrame = z.object({
  txType: z.literal("create"),
  signature: z.string(),
  mint: z.string(),
  traderPublicKey: z.string(),
  name: z.string(),
  symbol: z.string(),
  uri: z.string().nullish(),
  initialBuy: numeric,
  solAmount: numeric,
  bondingCurveKey: z.string(),
  vTokensInBondingCurve: numeric,
  vSolInBondingCurve: numeric,
  marketCapSol: numeric,
  /** `pump`; other launchpads' creates (`bonk`) may share the stream. */
  pool: z.string().nullish(),
});
const tradeFrame = z.object({
  txType: z.enum(["buy", "sell"]),
  mint: z.string(),
  vTokensInBondingCurve: numeric,
  vSolInBondingCurve: numeric,
  marketCapSol: numeric,
});
const migrateFrame = z.object({ txType: z.literal("migrate"), mint: z.string() });
export const frameSchema = z.union([createFrame, tradeFrame, migrateFrame]);
export type Frame = z.infer<typeof frameSchema>;

/** A data frame of the feed; undefined for control messages (`{"message": ...}`) and anything unreadable. */
export function parseFrame(text: string): Frame | undefined {
  try {
    const parsed = frameSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

const stateOf = (frame: z.infer<typeof tradeFrame> | z.infer<typeof createFrame>, at: number) => ({
  vTokensInBondingCurve: frame.vTokensInBondingCurve,
  vSolInBondingCurve: frame.vSolInBondingCurve,
  marketCapSol: frame.marketCapSol,
  updatedAt: at,
});

/** The newest `maxCreates` create frames, and the curves of the tokens created in the last 72 hours (at most `maxTracked`). */
export class LaunchWindow {
  private readonly creates: PumpCreateEvent[] = [];
  /** In creation order, so the oldest come first. */
  private readonly tracked = new Map<string, { createdAt: number; curve: PumpCurveSnapshot }>();

  constructor(private readonly limits: { maxCreates: number; maxTracked: number }) {}

  /** Applies a frame received at `at`; returns the mints that stopped being tracked. */
  apply(frame: Frame, at: number): string[] {
    const known = this.tracked.get(frame.mint);
    if (frame.txType === "migrate") {
      if (known) known.curve.migratedAt = at;
      return [];
    }
    if (frame.txType !== "create") {
      if (known) Object.assign(known.curve, stateOf(frame, at));
      return [];
    }
    if (known || (frame.pool && frame.pool !== "pump")) return [];
    const { txType: _, uri, pool: __, ...create } = frame;
    this.creates.unshift({ ...create, uri: uri ?? "", receivedAt: at });
    this.creates.length = Math.min(this.creates.length, this.limits.maxCreates);
    const { mint, name, symbol, bondingCurveKey } = frame;
    this.tracked.set(mint, { createdAt: at, curve: { mint, name, symbol, bondingCurveKey, ...stateOf(frame, at), migratedAt: null } });
    return this.evict(at);
  }

  /** Drops the curves older than 72 hours, then the oldest beyond `maxTracked`. */
  evict(now: number): string[] {
    const dropped: string[] = [];
    for (const [mint, { createdAt }] of this.tracked) {
      if (now - createdAt <= TRACKED_MS && this.tracked.size <= this.limits.maxTracked) break;
      this.tracked.delete(mint);
      dropped.push(mint);
    }
    return dropped;
  }

  recentCreates(limit: number): PumpCreateEvent[] {
    return this.creates.slice(0, limit);
  }

  trackedCurves(): PumpCurveSnapshot[] {
    return [...this.tracked.values()].map(({ curve }) => ({ ...curve }));
  }

  trackedMints(): string[] {
    return [...this.tracked.keys()];
  }
}

export interface FeedSocketOptions {
  url: string;
  /** Messages sent on every (re)connection. */
  subscribe: () => unknown[];
  onMessage: (text: string) => void;
  clock: Clock;
  /** Reconnect delay: `baseMs` doubling per failed attempt up to `maxMs`, jittered down by up to half. */
  backoff?: { baseMs: number; maxMs: number };
  /** A connection silent this long is presumed dead and replaced. */
  idleMs?: number;
  random?: () => number;
}

export interface FeedSocket {
  /** Sent when connected; dropped otherwise (the next connection resubscribes). */
  send(message: unknown): void;
  /** Milliseconds since the feed went down (or since it started, until it first connects); undefined while connected. */
  downFor(): number | undefined;
  close(): void;
}

/** One shared WebSocket that reconnects with exponential backoff and resubscribes. Timers never keep the process alive. */
export function openFeedSocket({
  url,
  subscribe,
  onMessage,
  clock,
  backoff = { baseMs: 500, maxMs: 30_000 },
  idleMs = 60_000,
  random = Math.random,
}: FeedSocketOptions): FeedSocket {
  let socket: WebSocket | undefined;
  let closed = false;
  let failures = 0;
  let downSince: number | undefined = clock.now();
  let reconnect: NodeJS.Timeout | undefined;
  let idle: NodeJS.Timeout | undefined;

  const watch = (ws: WebSocket) => {
    clearTimeout(idle);
    idle = setTimeout(() => ws.terminate(), idleMs).unref();
  };

  function connect() {
    const ws = new WebSocket(url);
    socket = ws;
    ws.on("open", () => {
      downSince = undefined;
      watch(ws);
      for (const message of subscribe()) ws.send(JSON.stringify(message));
    });
    ws.on("message", (data) => {
      // A connection that delivers is healthy: the next failure starts the backoff over.
      failures = 0;
      watch(ws);
      onMessage(String(data));
    });
    // An error is always followed by `close`, which reconnects.
    ws.on("error", () => {});
    ws.on("close", () => {
      if (socket !== ws) return;
      socket = undefined;
      clearTimeout(idle);
      downSince ??= clock.now();
      if (closed) return;
      const delay = Math.min(backoff.maxMs, backoff.baseMs * 2 ** failures) * (1 - random() / 2);
      failures += 1;
      reconnect = setTimeout(connect, delay).unref();
    });
  }

  connect();
  return {
    send(message) {
      if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    },
    downFor: () => (downSince === undefined ? undefined : clock.now() - downSince),
    close() {
      closed = true;
      clearTimeout(reconnect);
      clearTimeout(idle);
      socket?.terminate();
      socket = undefined;
    },
  };
}

const logsNotification = z.object({
  method: z.literal("logsNotification"),
  params: z.object({
    result: z.object({ value: z.object({ signature: z.string(), err: z.unknown().nullable(), logs: z.array(z.string()) }) }),
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
  const token = vaults.find((b) => b.mint !== WSOL);
  if (!token) return undefined;
  return {
    mint: token.mint,
    pool: curveAddresses(token.mint).launchLab,
    creator: tx.transaction.message.accountKeys[0]?.pubkey as string,
    createdAt: tx.blockTime * 1000,
    initialBuySol: vaults.find((b) => b.mint === WSOL)?.uiTokenAmount.uiAmountString ?? 0,
  };
}

export interface LiveLaunchesOptions {
  clock: Clock;
  /** JSON-RPC for LaunchLab transactions and accounts, and its WebSocket endpoint for the logs. */
  rpc: JsonRpc;
  rpcWsUrl: string;
  pumpPortalUrl?: string;
  /** A funded PumpPortal key: per-token trade frames keep the tracked curves current. */
  pumpPortalKey?: string;
  maxCreates?: number;
  maxTracked?: number;
  maxLaunchLab?: number;
  /** Reads fail once a feed has been down this long. */
  staleAfterMs?: number;
  socket?: Pick<FeedSocketOptions, "backoff" | "idleMs" | "random">;
}

export function createLiveLaunches({
  clock,
  rpc,
  rpcWsUrl,
  pumpPortalUrl = PUMPPORTAL_WS_URL,
  pumpPortalKey,
  maxCreates = 500,
  maxTracked = 2_000,
  maxLaunchLab = 200,
  staleAfterMs = 60_000,
  socket: socketOptions = {},
}: LiveLaunchesOptions): LaunchProvider & { close(): void } {
  const window = new LaunchWindow({ maxCreates, maxTracked });
  const tradeKeys = (method: string, keys: string[]) =>
    Array.from({ length: Math.ceil(keys.length / KEYS_PER_MESSAGE) }, (_, i) => ({
      method,
      keys: keys.slice(i * KEYS_PER_MESSAGE, (i + 1) * KEYS_PER_MESSAGE),
    }));

  const pump = openFeedSocket({
    ...socketOptions,
    url: pumpPortalKey ? `${pumpPortalUrl}?api-key=${encodeURIComponent(pumpPortalKey)}` : pumpPortalUrl,
    clock,
    subscribe: () => [
      { method: "subscribeNewToken" },
      { method: "subscribeMigration" },
      ...(pumpPortalKey ? tradeKeys("subscribeTokenTrade", window.trackedMints()) : []),
    ],
    onMessage(text) {
      const frame = parseFrame(text);
      if (!frame) return;
      const dropped = window.apply(frame, clock.now());
      if (!pumpPortalKey) return;
      if (frame.txType === "create") pump.send({ method: "subscribeTokenTrade", keys: [frame.mint] });
      for (const message of tradeKeys("unsubscribeTokenTrade", dropped)) pump.send(message);
    },
  });

  /** LaunchLab pools seen in the logs, newest first; `creation` once its transaction was read. */
  const seen: { signature: string; creation?: LaunchLabCreation }[] = [];
  const launchLab = openFeedSocket({
    ...socketOptions,
    url: rpcWsUrl,
    clock,
    subscribe: () => [
      { jsonrpc: "2.0", id: 1, method: "logsSubscribe", params: [{ mentions: [LAUNCHLAB_PROGRAM] }, { commitment: "confirmed" }] },
    ],
    onMessage(text) {
      const signature = launchLabSignature(text);
      if (!signature || seen.some((s) => s.signature === signature)) return;
      seen.unshift({ signature });
      seen.length = Math.min(seen.length, maxLaunchLab);
    },
  });

  const ensureLive = (feed: FeedSocket, source: string) => {
    const down = feed.downFor();
    if (down !== undefined && down > staleAfterMs)
      throw upstreamError(source, `The ${source} feed has been disconnected for ${Math.round(down / 1000)} s.`);
  };

  /** Reads the creations not read yet; a transaction the RPC does not serve yet is tried again next time. */
  async function resolve(entries: typeof seen): Promise<void> {
    const authority = launchLabVaultAuthority();
    await Promise.all(
      entries
        .filter((e) => !e.creation)
        .map(async (entry) => {
          const params = [entry.signature, { encoding: "jsonParsed", maxSupportedTransactionVersion: 0, commitment: "confirmed" }];
          const tx = await rpc.call("getTransaction", params, transactionSchema);
          const creation = tx && mapLaunchLabCreation(tx, authority);
          if (creation) entry.creation = creation;
          else if (tx) seen.splice(seen.indexOf(entry), 1);
        }),
    );
  }

  return {
    source: "pumpportal",
    launchLabSource: "launchlab",
    async recentCreates(limit) {
      ensureLive(pump, "pumpportal");
      return window.recentCreates(limit);
    },
    async trackedCurves() {
      ensureLive(pump, "pumpportal");
      window.evict(clock.now());
      return window.trackedCurves();
    },
    async recentLaunchLabLaunches(limit) {
      ensureLive(launchLab, "launchlab");
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
          { ...pool, name: meta?.name ?? "Unknown", symbol: meta?.symbol ?? "?", createdAt: c.createdAt, initialBuySol: c.initialBuySol },
        ];
      });
    },
    close() {
      pump.close();
      launchLab.close();
    },
  };
}
