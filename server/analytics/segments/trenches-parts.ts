/**
 * The parts of a Trenches token verdict, read from the chain: the `token` (holders and
 * authorities), the `snipers` (buyers of the first blocks) and the `curve` (progress and the
 * graduation estimate). The single-purpose endpoints answer one part each; the verdict all three.
 * A mint without a creation record on the chain is no launchpad token: 404.
 */
import { entityNotFound, invalidField } from "../../http/errors.js";
import { HOUR } from "../clock.js";
import type { DataOf } from "../contract/operation-types.js";
import type { CurveAccount } from "../markets/records.js";
import { type CurveFacts, curveFacts, estimateGraduationHours, sniperRisk } from "../rules/trenches.js";
import type { SegmentContext } from "./types.js";

/** Blocks after creation in which a buyer counts as a sniper: the creation block and the next two. */
const SNIPER_BLOCKS = 3;

export type TokenInfo = DataOf<"trenchesToken">["token"];
type Snipers = DataOf<"trenchesTokenSnipers">;
type Curve = DataOf<"trenchesCurve">;

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The mint's supply and creation record; 404 for an unknown mint or one that is no launchpad token. */
async function launchOf(ctx: SegmentContext, mint: string) {
  const chain = ctx.providers.chain_rpc;
  const [account, created] = await Promise.all([chain.mintAccount(mint), chain.mintCreation(mint)]);
  if (!account) throw entityNotFound("mint", mint);
  if (!created) throw entityNotFound("launchpad token", mint);
  return { account, created };
}

const balanceOf = async (ctx: SegmentContext, owner: string, mint: string) => {
  const balances = await ctx.providers.chain_rpc.tokenAccounts(owner, mint);
  return balances.reduce((sum, b) => sum + b.amount, 0);
};

/** Holder and authority facts: the `token` part of a verdict. */
export async function tokenInfo(ctx: SegmentContext, mint: string): Promise<TokenInfo> {
  const { account, created } = await launchOf(ctx, mint);
  const chain = ctx.providers.chain_rpc;
  const [meta, largest, holders, devBalance] = await Promise.all([
    chain.tokenMetadata(mint),
    chain.largestHolders(mint),
    chain.holderCount(mint),
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
export async function tokenSnipers(ctx: SegmentContext, mint: string): Promise<Snipers> {
  const { account, created } = await launchOf(ctx, mint);
  const window = { fromSlot: created.slot, toSlot: created.slot + SNIPER_BLOCKS - 1 };
  const early = await ctx.providers.chain_rpc.tokenTrades(mint, window);
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
  const totalPct = round(
    Math.min(100, ([...buyers.values()].reduce((sum, b) => sum + b.tokens, 0) / account.supply) * 100),
  );
  return {
    mint,
    snipers: { count: wallets.length, total_pct: totalPct, risk_level: sniperRisk(wallets.length, totalPct) },
    wallets,
  };
}

/**
 * Hours to graduation at the last hour's velocity: the net SOL the last hour's trades put in the
 * curve, turned into progress through the curve's own arithmetic.
 */
export async function graduationHours(
  ctx: SegmentContext,
  mint: string,
  facts: Pick<CurveFacts, "progressPct" | "solInCurve" | "complete" | "progressAt">,
) {
  if (facts.complete) return 0;
  const since = ctx.clock.now() - HOUR;
  const trades = await ctx.providers.chain_rpc.tokenTrades(mint, { since });
  const netSol = trades.reduce((sum, t) => sum + (t.side === "buy" ? t.solAmount : -t.solAmount), 0);
  const perHour = facts.progressPct - facts.progressAt(Math.max(0, facts.solInCurve - netSol));
  return estimateGraduationHours(facts.progressPct, perHour, false);
}

/** The bonding curve (pump.fun) or launch pool (LaunchLab) of a mint: the `curve` part of a verdict. */
export async function tokenCurve(ctx: SegmentContext, mint: string, curveKey: string | undefined): Promise<Curve> {
  if (!(await ctx.providers.chain_rpc.mintAccount(mint))) throw entityNotFound("mint", mint);
  const derived = ctx.providers.chain_rpc.curveAddresses(mint);
  if (curveKey !== undefined && curveKey !== derived.pump && curveKey !== derived.launchLab) {
    throw invalidField("body", "curve_key", "is not the bonding curve or launch pool of this mint");
  }
  let account: CurveAccount | undefined;
  for (const key of curveKey ? [curveKey] : [derived.pump, derived.launchLab]) {
    account ??= await ctx.providers.chain_rpc.curveAccount(key);
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
