/**
 * Trenches segment: fresh launches (pump.fun and LaunchLab), bonding curves, holders, snipers and
 * the token verdict, from the launch feed and the chain. The verdict is built from exactly the
 * `token`, `snipers` and `curve` objects of the three single-purpose endpoints (trenches-parts.ts);
 * the briefs are in trenches-briefs.ts.
 */

import type { OperationName, RequestOf, Validated } from "../contract/operation-types.js";
import { PUMP_CURVE, pumpProgressAtSol, pumpProgressPct } from "../markets/pump-curve.js";
import type { PumpCreateEvent } from "../providers/launches.js";
import {
  curveFacts,
  graduationSignal,
  isGraduating,
  launchListSignal,
  MAX_ESTIMATE_HOURS,
  tokenVerdict,
  urgency,
} from "../rules/trenches.js";
import {
  curveBrief,
  graduatingBrief,
  launchListBrief,
  snipersBrief,
  tokenBrief,
  verdictBrief,
} from "./trenches-briefs.js";
import { graduationHours, tokenCurve, tokenInfo, tokenSnipers } from "./trenches-parts.js";
import type { SegmentHandlers } from "./types.js";

/** Launches read from the feed, whatever the list's limit: one feed read serves every limit. */
const FEED_SIZE = 100;

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** What a launch list shows of a launch, in the pump.fun feed's terms (LaunchLab launches are mapped to them). */
type LaunchFacts = Pick<
  PumpCreateEvent,
  "mint" | "name" | "symbol" | "solAmount" | "marketCapSol" | "receivedAt" | "bondingCurveKey" | "traderPublicKey"
>;

/** A fresh-launch list: the rows, the list's signal and its brief. */
function launchAnswer<P extends "pumpfun" | "launchlab">(
  platform: P,
  launches: LaunchFacts[],
  source: string,
  launchpad: string,
  now: number,
) {
  const tokens = launches.map((l) => ({
    mint: l.mint,
    name: l.name,
    symbol: l.symbol,
    platform,
    initial_buy_sol: round(l.solAmount, 4),
    market_cap_sol: round(l.marketCapSol),
    created_at: new Date(l.receivedAt).toISOString(),
    bonding_curve_key: l.bondingCurveKey,
    dev_wallet: l.traderPublicKey,
  }));
  return {
    data: { tokens },
    sources: [source],
    baseline: launchListSignal(tokens),
    brief: launchListBrief(tokens, launchpad, now),
  };
}

/** Every Trenches operation of the contract: a new one fails type-checking until it has a handler. */
type TrenchesOps = Extract<OperationName, `trenches${string}`>;

export const trenchesHandlers: SegmentHandlers<TrenchesOps> = {
  async trenchesNewTokens(request, ctx) {
    const { limit } = request as Validated<RequestOf<"trenchesNewTokens">, "limit">;
    const { launches } = ctx.providers;
    const [creates, curves] = await Promise.all([launches.recentCreates(FEED_SIZE), launches.trackedCurves()]);
    const latest = new Map(curves.map((c) => [c.mint, c.marketCapSol]));
    const facts = creates.slice(0, limit).map((c) => ({ ...c, marketCapSol: latest.get(c.mint) ?? c.marketCapSol }));
    return launchAnswer("pumpfun", facts, launches.source, "pump.fun", ctx.clock.now());
  },

  async trenchesAltNewTokens(request, ctx) {
    const { limit } = request as Validated<RequestOf<"trenchesAltNewTokens">, "limit">;
    const { launches } = ctx.providers;
    const pools = await launches.recentLaunchLabLaunches(FEED_SIZE);
    const facts = pools.slice(0, limit).map((p) => ({
      mint: p.mint,
      name: p.name,
      symbol: p.symbol,
      solAmount: p.initialBuySol,
      marketCapSol: curveFacts(p).marketCapSol,
      receivedAt: p.createdAt,
      bondingCurveKey: p.address,
      traderPublicKey: p.creator,
    }));
    return launchAnswer("launchlab", facts, launches.launchLabSource, "LaunchLab", ctx.clock.now());
  },

  async trenchesCurve(request, ctx) {
    const data = await tokenCurve(ctx, request.mint, request.curve_key);
    const { curve } = data;
    const baseline = graduationSignal({
      progressPct: curve.progress_pct,
      hours: curve.estimated_graduation_hours,
      complete: data.complete,
    });
    return { data, sources: [ctx.providers.chain_rpc.source], baseline, brief: curveBrief(data) };
  },

  async trenchesToken(request, ctx) {
    const token = await tokenInfo(ctx, request.mint);
    const { signal, confidence } = tokenVerdict({ token });
    return {
      data: { token },
      sources: [ctx.providers.chain_rpc.source],
      baseline: { signal, confidence },
      brief: tokenBrief(token),
    };
  },

  async trenchesTokenSnipers(request, ctx) {
    const data = await tokenSnipers(ctx, request.mint);
    const { signal, confidence } = tokenVerdict({ snipers: data.snipers });
    return {
      data,
      sources: [ctx.providers.chain_rpc.source],
      baseline: { signal, confidence },
      brief: snipersBrief(data),
    };
  },

  async trenchesGraduating(request, ctx) {
    const { limit } = request as Validated<RequestOf<"trenchesGraduating">, "limit">;
    const curves = await ctx.providers.launches.trackedCurves();
    const listed = curves
      .filter((c) => c.migratedAt === null)
      .map((c) => ({
        c,
        progress: round(pumpProgressPct(c.vTokensInBondingCurve)),
        sol: c.vSolInBondingCurve - PUMP_CURVE.initialVirtualSolReserves,
      }))
      .filter((x) => isGraduating(x.progress))
      .sort((a, b) => b.progress - a.progress || a.c.mint.localeCompare(b.c.mint));
    const graduating = await Promise.all(
      listed.slice(0, limit).map(async ({ c, progress, sol }) => ({
        mint: c.mint,
        name: c.name,
        symbol: c.symbol,
        progress_pct: progress,
        sol_in_curve: round(sol, 4),
        estimated_hours_remaining: await graduationHours(ctx, c.mint, {
          progressPct: progress,
          solInCurve: sol,
          complete: false,
          progressAt: pumpProgressAtSol,
        }),
        holders: await ctx.providers.chain_rpc.holderCount(c.mint),
        urgency: urgency(progress),
      })),
    );
    const soonest = [...graduating].sort((a, b) => a.estimated_hours_remaining - b.estimated_hours_remaining)[0];
    const baseline = soonest
      ? graduationSignal({
          progressPct: soonest.progress_pct,
          hours: soonest.estimated_hours_remaining,
          complete: false,
        })
      : graduationSignal({ progressPct: 0, hours: MAX_ESTIMATE_HOURS, complete: false });
    return {
      data: { graduating, total_found: listed.length },
      sources: [ctx.providers.launches.source, ctx.providers.chain_rpc.source],
      baseline,
      brief: graduatingBrief(soonest, listed.length),
    };
  },

  async trenchesTokenVerdict(request, ctx) {
    const [token, snipers, curve] = await Promise.all([
      tokenInfo(ctx, request.mint),
      tokenSnipers(ctx, request.mint),
      tokenCurve(ctx, request.mint, request.curve_key),
    ]);
    const data = { token, snipers: snipers.snipers, curve: curve.curve };
    const { signal, confidence } = tokenVerdict(data);
    return {
      data,
      sources: [ctx.providers.chain_rpc.source],
      baseline: { signal, confidence },
      brief: verdictBrief(data),
    };
  },
};
