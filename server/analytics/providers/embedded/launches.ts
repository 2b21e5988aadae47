/**
 * Embedded launch feed: the launches of the shared embedded market, read the way PumpPortal and a
 * LaunchLab log reader would deliver them at the clock's time. Curves are tracked for 72 hours after
 * launch; the market's long-lived tokens stay tracked for as long as they live.
 */
import type { Clock } from "../../clock.js";
import { PUMP_CURVE, virtualTokensAtSol } from "../../markets/pump-curve.js";
import type { LaunchLabLaunch, LaunchProvider, PumpCreateEvent, PumpCurveSnapshot } from "../launches.js";
import { launchLabPoolAccount, pumpCurveAccount } from "./launch-curves.js";
import { LAUNCH_EVERY, type Platform } from "./launch-token.js";
import { marketFor } from "./market.js";
import { signatureOf } from "./market-ids.js";
import { round } from "./random.js";

const TRACKED_MS = 72 * 3_600_000;
/** Seconds between a curve completing and its `migrate` frame. */
const MIGRATE_DELAY_MS = 45_000;

const capSol = (virtualSol: number, virtualTokens: number) => round((virtualSol / virtualTokens) * 1e9, 4);

export function createEmbeddedLaunches({ seed, clock }: { seed: string; clock: Clock }): LaunchProvider {
  const { launches } = marketFor(seed);
  const newest = (platform: Platform, limit: number) => {
    const now = clock.now();
    return launches.createdBetween(platform, now - (limit + 1) * LAUNCH_EVERY[platform], now).slice(0, limit);
  };
  return {
    source: "embedded-launches",
    launchLabSource: "embedded-launchlab",
    async recentCreates(limit): Promise<PumpCreateEvent[]> {
      return newest("pump", limit).map((t) => {
        const vTokens = round(virtualTokensAtSol(t.devSol), 6);
        const vSol = round(PUMP_CURVE.initialVirtualSolReserves + t.devSol, 9);
        return {
          signature: signatureOf(seed, `${t.mint}:create`),
          mint: t.mint,
          traderPublicKey: t.dev,
          name: t.name,
          symbol: t.symbol,
          uri: t.uri,
          initialBuy: round(t.devTokens, 6),
          solAmount: round(t.devSol, 9),
          bondingCurveKey: t.curve,
          vTokensInBondingCurve: vTokens,
          vSolInBondingCurve: vSol,
          marketCapSol: capSol(vSol, vTokens),
          receivedAt: t.createdAt,
        };
      });
    },
    async trackedCurves(): Promise<PumpCurveSnapshot[]> {
      const now = clock.now();
      const older = launches.longLived("pump", now).filter((t) => t.createdAt < now - TRACKED_MS);
      return [...launches.createdBetween("pump", now - TRACKED_MS, now), ...older].map((t) => {
        const curve = pumpCurveAccount(t, now);
        const migratedAt =
          t.completeAt !== null && t.completeAt + MIGRATE_DELAY_MS <= now ? t.completeAt + MIGRATE_DELAY_MS : null;
        return {
          mint: t.mint,
          name: t.name,
          symbol: t.symbol,
          bondingCurveKey: t.curve,
          vTokensInBondingCurve: curve.virtualTokenReserves,
          vSolInBondingCurve: curve.virtualSolReserves,
          marketCapSol: capSol(curve.virtualSolReserves, curve.virtualTokenReserves),
          updatedAt: now,
          migratedAt,
        };
      });
    },
    async recentLaunchLabLaunches(limit): Promise<LaunchLabLaunch[]> {
      const now = clock.now();
      return newest("launchlab", limit).map((t) => ({
        ...launchLabPoolAccount(t, now),
        name: t.name,
        symbol: t.symbol,
        createdAt: t.createdAt,
        initialBuySol: round(t.devSol, 9),
      }));
    },
  };
}
