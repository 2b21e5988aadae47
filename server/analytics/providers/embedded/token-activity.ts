/**
 * Who holds a market token and the trades that got them there. Each token has twenty large holders
 * whose balances step at their own rhythm as shares of the supply in circulation; launch tokens
 * add the curve (or, after completion, pool) vault, the dev and the snipers. The trade tape is
 * built from the same facts: the dev's first buy, the snipers' buys and sells, the dev's dump,
 * a few early buyers, every holder step, and retail fills that make each 5-minute bucket's net SOL
 * equal the curve's movement, so velocity read from trades agrees with the curve.
 */
import { curvePriceSol, PUMP_CURVE, virtualTokensAtSol } from "../../markets/pump-curve.js";
import type { TokenTrade } from "../chain-rpc.js";
import type { BlueChip } from "./blue-chips.js";
import { priceSol, solInCurve } from "./launch-curves.js";
import type { LaunchMarket } from "./launch-market.js";
import { COMPLETE_SOL, type LaunchToken } from "./launch-token.js";
import { keyOf, remember, signatureOf, unit } from "./market-ids.js";
import { rng, round, solanaAddress } from "./random.js";
import { slotAt } from "./slots.js";

const TOKEN_SUPPLY = PUMP_CURVE.tokenTotalSupply;
const TOKENS_FOR_SALE = PUMP_CURVE.initialRealTokenReserves;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const BUCKET = 5 * MINUTE;
const HOLDERS = 20;
const CHIP_ANCHOR = Date.UTC(2025, 0, 1);

export type MarketAsset = { kind: "launch"; token: LaunchToken } | { kind: "chip"; chip: BlueChip };

export interface HolderEntry {
  owner: string;
  ownerKind: "wallet" | "program";
  amount: number;
}

interface HolderSpec {
  owner: string;
  weight: number;
  start: number;
  period: number;
  key: number;
}

interface Known extends TokenTrade {
  /** Part of the curve's movement after its opening buys (the dev's first buy and the snipes are in `openSol`). */
  moves: boolean;
}

export const mintOf = (asset: MarketAsset) => (asset.kind === "launch" ? asset.token.mint : asset.chip.mint);
export const symbolOf = (asset: MarketAsset) => (asset.kind === "launch" ? asset.token.symbol : asset.chip.symbol);

/** What the activity of every token is drawn from: the market, its seed, and each token's holders, drawn on first use. */
interface ActivityContext {
  market: LaunchMarket;
  seed: string;
  specs: Map<string, HolderSpec[]>;
}

/** An asset's price in SOL at time t (a blue chip's USD price over SOL's). */
const priceOf = (market: LaunchMarket, asset: MarketAsset, t: number) =>
  asset.kind === "launch" ? priceSol(asset.token, t) : asset.chip.priceUsd(t) / market.solUsd(t);

/** Tokens sold off the curve (launch) or into the pool after completion. */
function vault(token: LaunchToken, t: number): number {
  if (token.completeAt === null || t < token.completeAt)
    return virtualTokensAtSol(solInCurve(token, t)) - (virtualTokensAtSol(0) - TOKENS_FOR_SALE);
  const completion = curvePriceSol(COMPLETE_SOL[token.platform]);
  return Math.min(0.95 * TOKEN_SUPPLY, (TOKEN_SUPPLY - TOKENS_FOR_SALE) * Math.sqrt(completion / priceSol(token, t)));
}

/** What the twenty large holders share at time t. */
function pool(asset: MarketAsset, t: number): number {
  if (asset.kind === "chip") return 0.3 * asset.chip.supply;
  const token = asset.token;
  const circulating =
    (token.completeAt !== null && t >= token.completeAt ? TOKEN_SUPPLY : TOKENS_FOR_SALE) - vault(token, t);
  const opening = token.devTokens + token.snipes.reduce((sum, s) => sum + s.tokens, 0);
  return 0.6 * Math.max(0, circulating - opening);
}

/** The twenty large holders of an asset (weights, rhythm, first step), drawn once per mint. */
const holderSpecs = ({ seed, specs }: ActivityContext, asset: MarketAsset): HolderSpec[] =>
  remember(specs, mintOf(asset), () => {
    const mint = mintOf(asset);
    const r = rng(`${seed}:holders:${mint}`);
    const raw = Array.from({ length: HOLDERS }, (_, j) => (1 / (j + 1)) ** 0.9 * r.range(0.7, 1.3));
    const total = raw.reduce((a, b) => a + b, 0);
    return raw.map((w, j) => {
      const period = asset.kind === "launch" ? r.range(2, 10) * HOUR : r.range(4, 30) * HOUR;
      const start =
        asset.kind === "launch" ? asset.token.createdAt + r.range(2, 360) * MINUTE : CHIP_ANCHOR + r.range(0, period);
      return {
        owner: solanaAddress(seed, `${mint}:holder:${j}`),
        weight: w / total,
        start,
        period,
        key: keyOf(seed, `${mint}:holder:${j}`),
      };
    });
  });

/** A holder's balance after step n: launch-token holders swing ±40% and exit 8% of the time, blue-chip holders ±10% and 2%. */
function stepBalance(asset: MarketAsset, h: HolderSpec, n: number): number {
  const [swing, exit] = asset.kind === "launch" ? [0.8, 0.08] : [0.2, 0.02];
  if (n < 0 || unit(h.key, n) < exit) return 0;
  return h.weight * (1 - swing / 2 + swing * unit(h.key ^ 0x5bd1e995, n)) * pool(asset, h.start + n * h.period);
}

/** The step a holder's balance is at at time t (negative before its first). */
const stepAt = (h: HolderSpec, t: number) => Math.floor((t - h.start) / h.period);

/** The holders with a balance at time t: a launch's vault, dev and snipers first, then the large holders. */
function holders(ctx: ActivityContext, asset: MarketAsset, t: number): HolderEntry[] {
  const out: HolderEntry[] = [];
  if (asset.kind === "launch") {
    const token = asset.token;
    if (t < token.createdAt) return [];
    const graduated = token.completeAt !== null && t >= token.completeAt;
    out.push({
      owner: graduated ? solanaAddress(ctx.seed, `pool:${token.mint}`) : token.curve,
      ownerKind: "program",
      amount: vault(token, t),
    });
    out.push({
      owner: token.dev,
      ownerKind: "wallet",
      amount: t < token.devSellAt ? token.devTokens : token.devTokens * token.devKeep,
    });
    for (const s of token.snipes)
      if (s.boughtAt <= t && t < s.soldAt) out.push({ owner: s.wallet, ownerKind: "wallet", amount: s.tokens });
  }
  for (const h of holderSpecs(ctx, asset))
    out.push({ owner: h.owner, ownerKind: "wallet", amount: stepBalance(asset, h, stepAt(h, t)) });
  return out.filter((e) => e.amount > 0);
}

/** How many hold the asset at time t: the listed holders plus a launch's retail, which grows with its curve and age. */
function holderCount(ctx: ActivityContext, asset: MarketAsset, t: number): number {
  const listed = holders(ctx, asset, t).length;
  if (asset.kind === "chip") return Math.round(asset.chip.holders * (1 + 0.02 * Math.sin(t / (30 * DAY))));
  const token = asset.token;
  if (t < token.createdAt) return 0;
  const afterDays = token.completeAt !== null && t >= token.completeAt ? (t - token.completeAt) / DAY : 0;
  return listed + Math.round(solInCurve(token, t) * token.holderDensity * (1 + 0.4 * Math.sqrt(afterDays)));
}

/** One trade of the tape, its signature drawn from its label. */
const trade = (
  seed: string,
  label: string,
  t: number,
  wallet: string,
  side: "buy" | "sell",
  tokenAmount: number,
  solAmount: number,
  moves: boolean,
): Known => ({
  signature: signatureOf(seed, label),
  slot: slotAt(t),
  blockTime: t,
  wallet,
  side,
  tokenAmount: round(tokenAmount, 6),
  solAmount: round(solAmount, 9),
  moves,
});

/** A launch's own trades in [from, to]: the dev's first buy and dump, the snipers' buys and sells, a few early buys. */
function launchTrades(seed: string, token: LaunchToken, from: number, to: number): Known[] {
  const out: Known[] = [];
  const within = (t: number) => t >= from && t <= to;
  const mint = token.mint;
  if (within(token.createdAt))
    out.push(trade(seed, `${mint}:create`, token.createdAt, token.dev, "buy", token.devTokens, token.devSol, false));
  const dumped = token.devTokens * (1 - token.devKeep);
  if (dumped > 0 && within(token.devSellAt)) {
    out.push(
      trade(
        seed,
        `${mint}:dev-sell`,
        token.devSellAt,
        token.dev,
        "sell",
        dumped,
        dumped * priceSol(token, token.devSellAt),
        true,
      ),
    );
  }
  for (const s of token.snipes) {
    if (within(s.boughtAt))
      out.push(trade(seed, `${mint}:snipe:${s.trader}`, s.boughtAt, s.wallet, "buy", s.tokens, s.sol, false));
    if (within(s.soldAt))
      out.push(
        trade(
          seed,
          `${mint}:snipe-sell:${s.trader}`,
          s.soldAt,
          s.wallet,
          "sell",
          s.tokens,
          s.tokens * priceSol(token, s.soldAt),
          true,
        ),
      );
  }
  const early = rng(`${seed}:early:${mint}`);
  for (let k = 0; k < 3; k++) {
    const t = token.createdAt + early.int(3, 15) * 400;
    const sol = early.range(0.1, 1);
    if (within(t))
      out.push(
        trade(
          seed,
          `${mint}:early:${k}`,
          t,
          solanaAddress(seed, `${mint}:early:${k}`),
          "buy",
          sol / priceSol(token, t),
          sol,
          true,
        ),
      );
  }
  return out;
}

/** The large holders' balance steps in [from, to], each a buy or a sell of the change. */
function holderStepTrades(ctx: ActivityContext, asset: MarketAsset, from: number, to: number): Known[] {
  const out: Known[] = [];
  const mint = mintOf(asset);
  const within = (t: number) => t >= from && t <= to;
  for (const [j, h] of holderSpecs(ctx, asset).entries()) {
    for (let n = Math.max(0, stepAt(h, from)); n <= stepAt(h, to); n++) {
      const t = h.start + n * h.period;
      const delta = stepBalance(asset, h, n) - stepBalance(asset, h, n - 1);
      if (!within(t) || Math.abs(delta) < 1e-6) continue;
      out.push(
        trade(
          ctx.seed,
          `${mint}:holder:${j}:${n}`,
          t,
          h.owner,
          delta > 0 ? "buy" : "sell",
          Math.abs(delta),
          Math.abs(delta) * priceOf(ctx.market, asset, t),
          true,
        ),
      );
    }
  }
  return out;
}

/** Every non-retail trade in [from, to]. */
function knownTrades(ctx: ActivityContext, asset: MarketAsset, from: number, to: number): Known[] {
  const opening = asset.kind === "launch" ? launchTrades(ctx.seed, asset.token, from, to) : [];
  return [...opening, ...holderStepTrades(ctx, asset, from, to)];
}

/**
 * Retail fills of the curve's 5-minute buckets (aligned to the clock) whose fill time falls in
 * [from, to]: each bucket's fills, stamped just before it closes, make its net SOL match the curve.
 */
function retailFills(seed: string, token: LaunchToken, from: number, to: number, known: Known[]): Known[] {
  const out: Known[] = [];
  const end = Math.min(to + 1, token.completeAt ?? Number.POSITIVE_INFINITY);
  for (let b = Math.floor(Math.max(from, token.createdAt) / BUCKET); b * BUCKET < end; b++) {
    const start = Math.max(b * BUCKET, token.createdAt);
    const close = Math.min((b + 1) * BUCKET, token.completeAt ?? Number.POSITIVE_INFINITY);
    const at = close - 1;
    if (at < from || at > to) continue;
    const inside = known.filter((k) => k.moves && k.blockTime >= start && k.blockTime < close);
    const net =
      solInCurve(token, close) -
      solInCurve(token, start) -
      inside.reduce((sum, k) => sum + (k.side === "buy" ? k.solAmount : -k.solAmount), 0);
    const churn = Math.abs(net) * (0.2 + 0.6 * unit(token.index, b)) + 0.02;
    const price = priceSol(token, at);
    const fill = (k: number, side: "buy" | "sell", sol: number) =>
      trade(
        seed,
        `${token.mint}:retail:${b}:${k}`,
        at,
        solanaAddress(seed, `${token.mint}:retail:${b}:${k}`),
        side,
        sol / price,
        sol,
        true,
      );
    out.push(fill(0, net >= 0 ? "buy" : "sell", Math.abs(net) + churn), fill(1, net >= 0 ? "sell" : "buy", churn));
  }
  return out;
}

/** The tape in [from, to], oldest first. */
function trades(ctx: ActivityContext, asset: MarketAsset, from: number, to: number): TokenTrade[] {
  const known = knownTrades(ctx, asset, from - BUCKET, to);
  const fills = asset.kind === "launch" ? retailFills(ctx.seed, asset.token, from, to, known) : [];
  return [...known.filter((k) => k.blockTime >= from), ...fills]
    .sort((a, b) => a.blockTime - b.blockTime || a.signature.localeCompare(b.signature))
    .map(({ moves: _, ...t }) => t);
}

export function createTokenActivity(market: LaunchMarket) {
  const ctx: ActivityContext = { market, seed: market.seed, specs: new Map() };
  return {
    holders: (asset: MarketAsset, t: number): HolderEntry[] => holders(ctx, asset, t),
    holderCount: (asset: MarketAsset, t: number): number => holderCount(ctx, asset, t),
    trades: (asset: MarketAsset, from: number, to: number): TokenTrade[] => trades(ctx, asset, from, to),
    priceOf: (asset: MarketAsset, t: number) => priceOf(market, asset, t),
  };
}

export type TokenActivity = ReturnType<typeof createTokenActivity>;
