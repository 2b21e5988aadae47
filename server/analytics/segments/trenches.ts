/**
 * Trenches segment: fresh launches (pump.fun and LaunchLab), bonding curves, holders, snipers and
 * the token verdict, from the launch feed and the chain. The verdict is built from exactly the
 * `token`, `snipers` and `curve` objects of the three single-purpose endpoints (same functions).
 * Trenches endpoints know launchpad tokens: a mint without a creation record on the chain is 404.
 *
 * Cache TTLs: the launch feed 10 s (it is live; a token launches every few minutes); curve states
 * 15 s (every trade moves them); the last hour of trades behind the graduation estimate 30 s; mint
 * accounts and metadata 5 minutes (authorities are revoked rarely, names never change); holders
 * and holder counts 2 minutes; balances 1 minute; a token's creation and first blocks 1 hour (that
 * history never changes).
 */
import { entityNotFound, invalidField } from "../../http/errors.js";
import { MINUTE } from "../cache.js";
import { EMPTY_CURVE_CAP_SOL, PUMP_CURVE, pumpProgressAtSol, pumpProgressPct } from "../markets/pump-curve.js";
import type { CurveAccount } from "../markets/records.js";
import type { DataOf, OperationName, RequestOf, Validated } from "../operation-types.js";
import type { PumpCreateEvent } from "../providers/launches.js";
import {
  type CurveFacts,
  curveFacts,
  estimateGraduationHours,
  graduationSignal,
  isGraduating,
  launchListSignal,
  MAX_ESTIMATE_HOURS,
  sniperRisk,
  tokenVerdict,
  urgency,
} from "../rules/trenches.js";
import { pct } from "./format.js";
import type { SegmentContext, SegmentHandlers } from "./types.js";

const FEED_TTL = 10_000;
const CURVE_TTL = 15_000;
const VELOCITY_TTL = 30_000;
const MINT_TTL = 5 * MINUTE;
const HOLDERS_TTL = 2 * MINUTE;
const BALANCE_TTL = MINUTE;
const HISTORY_TTL = 60 * MINUTE;

const HOUR = 60 * MINUTE;
/** Blocks after creation in which a buyer counts as a sniper: the creation block and the next two. */
const SNIPER_BLOCKS = 3;

type TokenInfo = DataOf<"trenchesToken">["token"];
type Snipers = DataOf<"trenchesTokenSnipers">;
type Curve = DataOf<"trenchesCurve">;

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const iso = (ms: number) => new Date(ms).toISOString();

const mintAccount = (ctx: SegmentContext, mint: string) =>
  ctx.cache.wrap(`chain:mint:${mint}`, MINT_TTL, () => ctx.providers.chain_rpc.mintAccount(mint));

const creation = (ctx: SegmentContext, mint: string) =>
  ctx.cache.wrap(`chain:creation:${mint}`, HISTORY_TTL, () => ctx.providers.chain_rpc.mintCreation(mint));

/** The mint's supply and creation record; 404 for an unknown mint or one that is no launchpad token. */
async function launchOf(ctx: SegmentContext, mint: string) {
  const [account, created] = await Promise.all([mintAccount(ctx, mint), creation(ctx, mint)]);
  if (!account) throw entityNotFound("mint", mint);
  if (!created) throw entityNotFound("launchpad token", mint);
  return { account, created };
}

const balanceOf = async (ctx: SegmentContext, owner: string, mint: string) => {
  const balances = await ctx.cache.wrap(`chain:balance:${owner}:${mint}`, BALANCE_TTL, () =>
    ctx.providers.chain_rpc.tokenAccounts(owner, mint),
  );
  return balances.reduce((sum, b) => sum + b.amount, 0);
};

const holderCount = (ctx: SegmentContext, mint: string) =>
  ctx.cache.wrap(`chain:holder-count:${mint}`, HOLDERS_TTL, () => ctx.providers.chain_rpc.holderCount(mint));

/** Holder and authority facts: the `token` part of a verdict. */
async function tokenInfo(ctx: SegmentContext, mint: string): Promise<TokenInfo> {
  const { account, created } = await launchOf(ctx, mint);
  const [meta, largest, holders, devBalance] = await Promise.all([
    ctx.cache.wrap(`chain:metadata:${mint}`, MINT_TTL, () => ctx.providers.chain_rpc.tokenMetadata(mint)),
    ctx.cache.wrap(`chain:largest:${mint}`, HOLDERS_TTL, () => ctx.providers.chain_rpc.largestHolders(mint)),
    holderCount(ctx, mint),
    balanceOf(ctx, created.creator, mint),
  ]);
  const top5 = largest
    .filter((h) => h.ownerKind === "wallet")
    .sort((a, b) => b.amount - a.amount)
    .slice(0, 5)
    .reduce((sum, h) => sum + h.amount, 0);
  return {
    mint,
    name: meta?.name ?? "Unknown",
    symbol: meta?.symbol ?? "?",
    holders,
    top_holders_pct: round(Math.min(100, (top5 / account.supply) * 100)),
    dev_wallet: created.creator,
    dev_holds_pct: round(Math.min(100, (devBalance / account.supply) * 100)),
    freeze_authority: account.freezeAuthority,
    mint_authority: account.mintAuthority,
  };
}

/** Buyers of the first 3 blocks other than the creator: the `snipers` part of a verdict. */
async function tokenSnipers(ctx: SegmentContext, mint: string): Promise<Snipers> {
  const { account, created } = await launchOf(ctx, mint);
  const window = { fromSlot: created.slot, toSlot: created.slot + SNIPER_BLOCKS - 1 };
  const early = await ctx.cache.wrap(`chain:first-blocks:${mint}`, HISTORY_TTL, () => ctx.providers.chain_rpc.tokenTrades(mint, window));
  const buyers = new Map<string, { offset: number; sol: number; tokens: number }>();
  for (const t of early) {
    if (t.side !== "buy" || t.wallet === created.creator) continue;
    const seen = buyers.get(t.wallet) ?? { offset: t.slot - created.slot, sol: 0, tokens: 0 };
    buyers.set(t.wallet, {
      offset: Math.min(seen.offset, t.slot - created.slot),
      sol: seen.sol + t.solAmount,
      tokens: seen.tokens + t.tokenAmount,
    });
  }
  const wallets = await Promise.all(
    [...buyers.entries()].map(async ([wallet, b]) => ({
      wallet,
      block_offset: b.offset,
      sol_spent: round(b.sol, 4),
      bought_pct: round((b.tokens / account.supply) * 100),
      still_holding: (await balanceOf(ctx, wallet, mint)) > 0,
    })),
  );
  wallets.sort((a, b) => b.bought_pct - a.bought_pct || a.wallet.localeCompare(b.wallet));
  const totalPct = round(Math.min(100, ([...buyers.values()].reduce((sum, b) => sum + b.tokens, 0) / account.supply) * 100));
  return { mint, snipers: { count: wallets.length, total_pct: totalPct, risk_level: sniperRisk(wallets.length, totalPct) }, wallets };
}

/**
 * Hours to graduation at the last hour's velocity: the net SOL the last hour's trades put in the
 * curve, turned into progress through the curve's own arithmetic.
 */
async function graduationHours(
  ctx: SegmentContext,
  mint: string,
  facts: Pick<CurveFacts, "progressPct" | "solInCurve" | "complete" | "progressAt">,
) {
  if (facts.complete) return 0;
  const since = ctx.clock.now() - HOUR;
  const trades = await ctx.cache.wrap(`chain:trades-1h:${mint}`, VELOCITY_TTL, () => ctx.providers.chain_rpc.tokenTrades(mint, { since }));
  const netSol = trades.reduce((sum, t) => sum + (t.side === "buy" ? t.solAmount : -t.solAmount), 0);
  const perHour = facts.progressPct - facts.progressAt(Math.max(0, facts.solInCurve - netSol));
  return estimateGraduationHours(facts.progressPct, perHour, false);
}

/** The bonding curve (pump.fun) or launch pool (LaunchLab) of a mint: the `curve` part of a verdict. */
async function tokenCurve(ctx: SegmentContext, mint: string, curveKey: string | undefined): Promise<Curve> {
  if (!(await mintAccount(ctx, mint))) throw entityNotFound("mint", mint);
  const derived = ctx.providers.chain_rpc.curveAddresses(mint);
  if (curveKey !== undefined && curveKey !== derived.pump && curveKey !== derived.launchLab) {
    throw invalidField("body", "curve_key", "is not the bonding curve or launch pool of this mint");
  }
  let account: CurveAccount | undefined;
  for (const key of curveKey ? [curveKey] : [derived.pump, derived.launchLab]) {
    account ??= await ctx.cache.wrap(`chain:curve:${key}`, CURVE_TTL, () => ctx.providers.chain_rpc.curveAccount(key));
  }
  if (!account) throw entityNotFound("bonding curve", curveKey ?? mint);
  const facts = curveFacts(account);
  return {
    mint,
    curve_key: account.address,
    curve: {
      progress_pct: facts.progressPct,
      sol_in_curve: facts.solInCurve,
      estimated_graduation_hours: await graduationHours(ctx, mint, facts),
    },
    reserves: facts.reserves,
    market_cap_sol: facts.marketCapSol,
    complete: facts.complete,
  };
}

function hoursText(hours: number): string {
  if (hours === 0) return "it has completed and graduated";
  if (hours >= MAX_ESTIMATE_HOURS) return "it has not moved forward in the last hour";
  return `at the last hour's pace it completes in about ${hours < 10 ? hours.toFixed(1) : Math.round(hours)} h`;
}

function authoritiesText(token: TokenInfo): string {
  const live = [token.freeze_authority && "freeze", token.mint_authority && "mint"].filter(Boolean);
  return live.length ? `a live ${live.join(" and ")} authority` : "both authorities revoked";
}

/** What a launch list shows of a launch, in the pump.fun feed's terms (LaunchLab launches are mapped to them). */
type LaunchFacts = Pick<
  PumpCreateEvent,
  "mint" | "name" | "symbol" | "solAmount" | "marketCapSol" | "receivedAt" | "bondingCurveKey" | "traderPublicKey"
>;

/** A fresh-launch list: the rows, the list's signal, and a brief on its size, its newest token and its traction. */
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
    created_at: iso(l.receivedAt),
    bonding_curve_key: l.bondingCurveKey,
    dev_wallet: l.traderPublicKey,
  }));
  const newest = tokens[0];
  const oldest = tokens[tokens.length - 1];
  const minutes = oldest ? Math.max(1, Math.round((now - Date.parse(oldest.created_at)) / MINUTE)) : 0;
  const doubled = tokens.filter((t) => t.market_cap_sol >= 2 * EMPTY_CURVE_CAP_SOL).length;
  const brief = newest
    ? `${tokens.length} ${launchpad} launch${tokens.length === 1 ? "" : "es"} in the last ${minutes} min; the newest, ${newest.symbol}, ` +
      `opened with a ${newest.initial_buy_sol.toFixed(2)} SOL dev buy and sits at a ${newest.market_cap_sol.toFixed(1)} SOL cap. ` +
      `${doubled} of them already doubled the empty-curve cap.`
    : `No ${launchpad} launch in the feed yet.`;
  return { data: { tokens }, sources: [source], baseline: launchListSignal(tokens), brief };
}

/** Every Trenches operation of the contract: a new one fails type-checking until it has a handler. */
type TrenchesOps = Extract<OperationName, `trenches${string}`>;

export const trenchesHandlers: SegmentHandlers<TrenchesOps> = {
  async trenchesNewTokens(request, ctx) {
    const { limit } = request as Validated<RequestOf<"trenchesNewTokens">, "limit">;
    const { launches } = ctx.providers;
    const [creates, curves] = await Promise.all([
      ctx.cache.wrap("launches:creates", FEED_TTL, () => launches.recentCreates(100)),
      ctx.cache.wrap("launches:curves", CURVE_TTL, () => launches.trackedCurves()),
    ]);
    const latest = new Map(curves.map((c) => [c.mint, c.marketCapSol]));
    const facts = creates.slice(0, limit).map((c) => ({ ...c, marketCapSol: latest.get(c.mint) ?? c.marketCapSol }));
    return launchAnswer("pumpfun", facts, launches.source, "pump.fun", ctx.clock.now());
  },

  async trenchesAltNewTokens(request, ctx) {
    const { limit } = request as Validated<RequestOf<"trenchesAltNewTokens">, "limit">;
    const { launches } = ctx.providers;
    const pools = await ctx.cache.wrap("launches:launchlab", FEED_TTL, () => launches.recentLaunchLabLaunches(100));
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
    const brief = `The curve is ${pct(curve.progress_pct)} complete with ${curve.sol_in_curve.toFixed(2)} SOL in and a ${data.market_cap_sol.toFixed(1)} SOL cap; ${hoursText(curve.estimated_graduation_hours)}.`;
    return { data, sources: [ctx.providers.chain_rpc.source], baseline, brief };
  },

  async trenchesToken(request, ctx) {
    const token = await tokenInfo(ctx, request.mint);
    const { signal, confidence } = tokenVerdict({ token });
    const brief = `${token.symbol} has ${authoritiesText(token)}; the dev holds ${pct(token.dev_holds_pct)} and the top 5 wallets ${pct(token.top_holders_pct)} across ${token.holders} holders.`;
    return { data: { token }, sources: [ctx.providers.chain_rpc.source], baseline: { signal, confidence }, brief };
  },

  async trenchesTokenSnipers(request, ctx) {
    const data = await tokenSnipers(ctx, request.mint);
    const { count, total_pct, risk_level } = data.snipers;
    const holding = data.wallets.filter((w) => w.still_holding).length;
    const brief = count
      ? `${count} wallet${count === 1 ? "" : "s"} bought ${pct(total_pct)} of the supply in the first 3 blocks and ${holding} still hold: ${risk_level} sniper risk.`
      : "No wallet bought in the first 3 blocks: no sniper pressure.";
    const { signal, confidence } = tokenVerdict({ snipers: data.snipers });
    return { data, sources: [ctx.providers.chain_rpc.source], baseline: { signal, confidence }, brief };
  },

  async trenchesGraduating(request, ctx) {
    const { limit } = request as Validated<RequestOf<"trenchesGraduating">, "limit">;
    const curves = await ctx.cache.wrap("launches:curves", CURVE_TTL, () => ctx.providers.launches.trackedCurves());
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
        holders: await holderCount(ctx, c.mint),
        urgency: urgency(progress),
      })),
    );
    const soonest = [...graduating].sort((a, b) => a.estimated_hours_remaining - b.estimated_hours_remaining)[0];
    const baseline = soonest
      ? graduationSignal({ progressPct: soonest.progress_pct, hours: soonest.estimated_hours_remaining, complete: false })
      : graduationSignal({ progressPct: 0, hours: MAX_ESTIMATE_HOURS, complete: false });
    const brief = soonest
      ? `${soonest.symbol} is ${pct(soonest.progress_pct)} through its curve with ${soonest.sol_in_curve.toFixed(1)} SOL in; ${hoursText(soonest.estimated_hours_remaining)}. ${listed.length} token${listed.length === 1 ? " is" : "s are"} above 85%.`
      : "No token is above 85% of its curve right now.";
    return {
      data: { graduating, total_found: listed.length },
      sources: [ctx.providers.launches.source, ctx.providers.chain_rpc.source],
      baseline,
      brief,
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
    const brief =
      `${token.symbol}: ${authoritiesText(token)}, ${pct(data.snipers.total_pct)} sniped (${data.snipers.risk_level} risk), ` +
      `the dev at ${pct(token.dev_holds_pct)} and the top 5 at ${pct(token.top_holders_pct)}, with the curve at ${pct(data.curve.progress_pct)}.`;
    return { data, sources: [ctx.providers.chain_rpc.source], baseline: { signal, confidence }, brief };
  },
};
