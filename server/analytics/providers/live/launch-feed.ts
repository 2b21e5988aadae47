/**
 * The live launch feed role: pump.fun launches from PumpPortal (pumpportal.ts) and Raydium LaunchLab
 * launches from the program's logs (launchlab.ts), each on its own WebSocket. Reads come from what
 * the feeds delivered, and fail as upstream errors while a feed has been down longer than
 * `staleAfterMs`.
 */
import { upstreamError } from "../../../http/errors.js";
import type { Clock } from "../../clock.js";
import type { LaunchProvider } from "../launches.js";
import type { FeedSocket, FeedSocketOptions } from "./feed-socket.js";
import type { JsonRpc } from "./json-rpc.js";
import { openLaunchLab } from "./launchlab.js";
import { openPumpPortal, PUMPPORTAL_WS_URL } from "./pumpportal.js";

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
  socket,
}: LiveLaunchesOptions): LaunchProvider & { close(): void } {
  const pump = openPumpPortal({ clock, url: pumpPortalUrl, key: pumpPortalKey, maxCreates, maxTracked, socket });
  const launchLab = openLaunchLab({ clock, rpc, wsUrl: rpcWsUrl, maxLaunches: maxLaunchLab, socket });

  const ensureLive = (feed: FeedSocket, source: string) => {
    const down = feed.downFor();
    if (down !== undefined && down > staleAfterMs)
      throw upstreamError(source, `The ${source} feed has been disconnected for ${Math.round(down / 1000)} s.`);
  };

  return {
    source: "pumpportal",
    launchLabSource: "launchlab",
    async recentCreates(limit) {
      ensureLive(pump.feed, "pumpportal");
      return pump.window.recentCreates(limit);
    },
    async trackedCurves() {
      ensureLive(pump.feed, "pumpportal");
      pump.window.evict(clock.now());
      return pump.window.trackedCurves();
    },
    async recentLaunchLabLaunches(limit) {
      ensureLive(launchLab.feed, "launchlab");
      return launchLab.recentLaunches(limit);
    },
    close() {
      pump.feed.close();
      launchLab.feed.close();
    },
  };
}
