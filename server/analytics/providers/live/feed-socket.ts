/**
 * One shared WebSocket of a live feed that reconnects with exponential backoff and resubscribes on
 * every connection. Timers never keep the process alive.
 */
import WebSocket from "ws";
import type { Clock } from "../../clock.js";

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

/** Opens the feed; it connects at once and stays connected until closed. */
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
