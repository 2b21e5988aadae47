/**
 * PumpPortal's data WebSocket (docs/upstreams.md §3.1): pump.fun's `create`, trade and `migrate`
 * frames on one shared connection, kept in a bounded in-memory window: the newest creates and the
 * latest curve state of the tokens created in the last 72 hours.
 */
import { z } from "zod";
import type { Clock } from "../../clock.js";
import type { PumpCreateEvent, PumpCurveSnapshot } from "../launches.js";
import { type FeedSocket, type FeedSocketOptions, openFeedSocket } from "./feed-socket.js";
import { numeric } from "./http.js";

export const PUMPPORTAL_WS_URL = "wss://pumpportal.fun/api/data";

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
    this.tracked.set(mint, {
      createdAt: at,
      curve: { mint, name, symbol, bondingCurveKey, ...stateOf(frame, at), migratedAt: null },
    });
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

export interface PumpPortalOptions {
  clock: Clock;
  url: string;
  /** A funded key: per-token trade frames keep the tracked curves current. */
  key?: string;
  maxCreates: number;
  maxTracked: number;
  socket?: Pick<FeedSocketOptions, "backoff" | "idleMs" | "random">;
}

/**
 * PumpPortal's data feed: subscribed to new tokens and migrations (and, with a key, to each tracked
 * token's trades, unsubscribed as tokens leave the window), its frames applied to a window.
 */
export function openPumpPortal({ clock, url, key, maxCreates, maxTracked, socket }: PumpPortalOptions): {
  window: LaunchWindow;
  feed: FeedSocket;
} {
  const window = new LaunchWindow({ maxCreates, maxTracked });
  const tradeKeys = (method: string, keys: string[]) =>
    Array.from({ length: Math.ceil(keys.length / KEYS_PER_MESSAGE) }, (_, i) => ({
      method,
      keys: keys.slice(i * KEYS_PER_MESSAGE, (i + 1) * KEYS_PER_MESSAGE),
    }));
  const feed = openFeedSocket({
    ...socket,
    url: key ? `${url}?api-key=${encodeURIComponent(key)}` : url,
    clock,
    subscribe: () => [
      { method: "subscribeNewToken" },
      { method: "subscribeMigration" },
      ...(key ? tradeKeys("subscribeTokenTrade", window.trackedMints()) : []),
    ],
    onMessage(text) {
      const frame = parseFrame(text);
      if (!frame) return;
      const dropped = window.apply(frame, clock.now());
      if (!key) return;
      if (frame.txType === "create") feed.send({ method: "subscribeTokenTrade", keys: [frame.mint] });
      for (const message of tradeKeys("unsubscribeTokenTrade", dropped)) feed.send(message);
    },
  });
  return { window, feed };
}
