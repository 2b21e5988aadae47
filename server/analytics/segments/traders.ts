/**
 * Traders segment: Solana wallet profiles from the chain (swaps matched into trades, balances,
 * prices) and token-level trader views (whales, candles). Wallet endpoints signal follow/ignore
 * on copy-worthiness; holdings endpoints accumulate/distribute/ignore on flows and price action.
 * A wallet's archetype and copy score always describe its last 30 days.
 */
import { entityNotFound } from "../../http/errors.js";
import { DAY, HOUR } from "../clock.js";
import type { DataOf, OperationName, RequestOf, Validated } from "../contract/operation-types.js";
import type { WalletTrade } from "../markets/records.js";
import { type ClosedTrade, ledger, type OpenLot } from "../markets/wallet-ledger.js";
import { type TokenBalance, WSOL_MINT } from "../providers/chain-rpc.js";
import {
  archetype,
  candleSignal,
  copySignal,
  copyWorthiness,
  FOLLOW_ABOVE,
  flowSignal,
  isLaunchpadBuy,
  specialty,
  walletStats,
} from "../rules/traders.js";
import { pct, usd } from "./format.js";
import type { SegmentContext, SegmentHandlers, TraderPeriod, TraderRow } from "./types.js";

const PERIOD_MS = { "1d": DAY, "7d": 7 * DAY, "30d": 30 * DAY } as const;
/** History read per wallet: the 30-day window plus 30 days so that exits in it find their entries. */
const HISTORY_MS = 60 * DAY;
/** Candidates ranked by the top-wallets list. */
const CANDIDATES = 200;
/** Net flow, percent of the holdings it moves, that counts as a direction: 7-day wallet flow, 24-hour whale flow. */
const WALLET_FLOW_PCT = 10;
const WHALE_FLOW_PCT = 2;

type Holding = DataOf<"tradersWalletPositions">["positions"][number];

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** What the wallet reads need: the providers and the clock (also the derived reads, which compute from them). */
type Reads = Pick<SegmentContext, "providers" | "clock">;

interface History {
  trades: WalletTrade[];
  closed: ClosedTrade[];
  open: Map<string, OpenLot[]>;
}

async function history(ctx: Reads, address: string): Promise<History> {
  const trades = await ctx.providers.chain_rpc.walletTrades(address, ctx.clock.now() - HISTORY_MS);
  return { trades, ...ledger(trades) };
}

/**
 * Launchpad tokens whose launch time one profile looks up, the most recently bought first. Each
 * lookup pages a mint's signatures on the chain (up to thousands of reads for a busy one): without
 * a bound, one call on a wallet that bought hundreds of launches cost over a thousand reads. Buys of
 * the tokens past it count at the rate of those looked up (`walletStats`).
 */
export const MAX_LAUNCH_LOOKUPS = 25;

/** Launch times of the launchpad tokens the wallet bought most recently (`trades` newest first): what tells a sniper. */
async function launchTimes(ctx: Reads, trades: readonly WalletTrade[]): Promise<Map<string, number | undefined>> {
  const mints = [...new Set(trades.filter(isLaunchpadBuy).map((t) => t.mint))].slice(0, MAX_LAUNCH_LOOKUPS);
  const created = await Promise.all(mints.map((mint) => ctx.providers.chain_rpc.mintCreation(mint)));
  return new Map(mints.map((mint, i) => [mint, created[i]?.blockTime]));
}

/** The wallet's 30-day profile: statistics, archetype and copy score. */
async function profile(ctx: Reads, address: string) {
  const h = await history(ctx, address);
  const now = ctx.clock.now();
  const from = now - PERIOD_MS["30d"];
  // only the window's buys are counted: lookups for older ones would be spent for nothing
  const stats = walletStats(
    h,
    from,
    now,
    await launchTimes(
      ctx,
      h.trades.filter((t) => t.blockTime >= from),
    ),
  );
  return { history: h, stats, archetype: archetype(stats), copy: copyWorthiness(stats).score };
}

/**
 * A balance valued at the current price, its cost from the open lots; any part the lots do not
 * cover (received by transfer) is costed at the current price.
 */
function toHolding(balance: TokenBalance, lots: readonly OpenLot[], price: number, now: number): Holding {
  const covered = Math.min(balance.amount, sum(lots.map((l) => l.amount)));
  const lotCost = sum(lots.map((l) => l.costUsd)) * (covered / (sum(lots.map((l) => l.amount)) || 1));
  const cost = lotCost + (balance.amount - covered) * price;
  const value = balance.amount * price;
  const first = lots[0];
  return {
    mint: balance.mint,
    symbol: balance.symbol,
    amount: balance.amount,
    value_usd: round(value),
    avg_entry_price_usd: balance.amount > 0 ? Number((cost / balance.amount).toPrecision(6)) : 0,
    current_price_usd: price,
    unrealized_pnl_usd: round(value - cost),
    unrealized_pnl_pct: cost > 0 ? round(((value - cost) / cost) * 100) : 0,
    held_hours: first ? round((now - first.time) / HOUR, 1) : 0,
  };
}

/** Open positions, largest value first; balances without a price are left out. */
async function holdings(ctx: SegmentContext, address: string, open: Map<string, OpenLot[]>): Promise<Holding[]> {
  const balances = await ctx.providers.chain_rpc.tokenAccounts(address);
  const priced = await ctx.providers.chain_rpc.prices(balances.map((b) => b.mint));
  const now = ctx.clock.now();
  return balances
    .flatMap((b) => {
      const price = priced.get(b.mint);
      return price === undefined ? [] : [toHolding(b, open.get(b.mint) ?? [], price, now)];
    })
    .sort((a, b) => b.value_usd - a.value_usd || a.mint.localeCompare(b.mint));
}

async function mintOrThrow(ctx: SegmentContext, mint: string) {
  const [account, meta] = await Promise.all([
    ctx.providers.chain_rpc.mintAccount(mint),
    ctx.providers.chain_rpc.tokenMetadata(mint),
  ]);
  if (!account) throw entityNotFound("mint", mint);
  return { account, symbol: meta?.symbol ?? "?" };
}

const signed = (value: number) => `${value >= 0 ? "+" : ""}${value.toFixed(1)}%`;

/** Every Traders operation of the contract: a new one fails type-checking until it has a handler. */
type TradersOps = Extract<OperationName, `traders${string}`>;

/**
 * Every active trader of `period`, ranked on what the window's closed trades realized (what a copier
 * could have captured); archetype and copy score stay the wallet's 30-day ones. Hundreds of wallet
 * histories: a derived read, cached (derived.ts).
 */
export async function traderRows(ctx: Reads, period: TraderPeriod): Promise<TraderRow[]> {
  const now = ctx.clock.now();
  const from = now - PERIOD_MS[period];
  const candidates = await ctx.providers.chain_rpc.activeTraders(from, CANDIDATES);
  return Promise.all(
    candidates.map(async (address) => {
      const p = await profile(ctx, address);
      const s = period === "30d" ? p.stats : walletStats(p.history, from, now, new Map());
      return {
        address,
        archetype: p.archetype,
        net_pnl_usd: round(s.realizedUsd),
        win_rate_pct: round(s.winRatePct, 1),
        total_trades: s.trades,
        volume_usd: round(s.volumeUsd),
        copy_worthiness: p.copy,
      };
    }),
  );
}

export const tradersHandlers: SegmentHandlers<TradersOps> = {
  async tradersWalletPnl(request, ctx) {
    const { address, period } = request as Validated<RequestOf<"tradersWalletPnl">, "period">;
    const h = await history(ctx, address);
    const now = ctx.clock.now();
    const from = now - PERIOD_MS[period];
    const stats = walletStats(h, from, now, new Map());
    const positions = await holdings(ctx, address, h.open);
    const tokens = new Map<
      string,
      { mint: string; symbol: string; realized_pnl_usd: number; unrealized_pnl_usd: number; trades: number }
    >();
    const row = (mint: string, symbol: string) =>
      tokens.get(mint) ?? { mint, symbol, realized_pnl_usd: 0, unrealized_pnl_usd: 0, trades: 0 };
    for (const c of h.closed.filter((t) => t.time >= from)) {
      const r = row(c.mint, c.symbol);
      tokens.set(c.mint, { ...r, realized_pnl_usd: r.realized_pnl_usd + c.pnlUsd, trades: r.trades + 1 });
    }
    for (const p of positions)
      tokens.set(p.mint, { ...row(p.mint, p.symbol), unrealized_pnl_usd: p.unrealized_pnl_usd });
    const breakdown = [...tokens.values()]
      .map((t) => ({
        ...t,
        realized_pnl_usd: round(t.realized_pnl_usd),
        unrealized_pnl_usd: round(t.unrealized_pnl_usd),
      }))
      .sort(
        (a, b) =>
          Math.abs(b.realized_pnl_usd + b.unrealized_pnl_usd) - Math.abs(a.realized_pnl_usd + a.unrealized_pnl_usd) ||
          a.mint.localeCompare(b.mint),
      )
      .slice(0, 20);
    const realized = round(stats.realizedUsd);
    const unrealized = round(sum(positions.map((p) => p.unrealized_pnl_usd)));
    const data = {
      address,
      period,
      realized_pnl_usd: realized,
      unrealized_pnl_usd: unrealized,
      total_pnl_usd: round(realized + unrealized),
      win_rate_pct: round(stats.winRatePct, 1),
      total_trades: stats.trades,
      winning_trades: stats.wins,
      losing_trades: stats.losses,
      best_trade_pnl_usd: round(stats.bestUsd),
      worst_trade_pnl_usd: round(stats.worstUsd),
      tokens: breakdown,
    };
    const brief = stats.trades
      ? `${usd(realized)} realized and ${usd(unrealized)} open over ${period} from ${stats.wins} winners against ${stats.losses} losers (${pct(data.win_rate_pct)} win rate).`
      : `No closed trade in the last ${period}; ${usd(unrealized)} of unrealized PnL sits in open positions.`;
    return {
      data,
      sources: [ctx.providers.chain_rpc.source],
      baseline: copySignal(copyWorthiness(stats).score),
      brief,
    };
  },

  async tradersWalletPositions(request, ctx) {
    const { address } = request;
    const h = await history(ctx, address);
    const positions = await holdings(ctx, address, h.open);
    const total = round(sum(positions.map((p) => p.value_usd)));
    const weekAgo = ctx.clock.now() - PERIOD_MS["7d"];
    const netFlow = sum(
      h.trades
        .filter((t) => t.blockTime >= weekAgo)
        .map((t) => (t.type === "buy" || t.type === "deposit" ? t.valueUsd : -t.valueUsd)),
    );
    const top = positions[0];
    const brief = top
      ? `${positions.length} open position${positions.length === 1 ? "" : "s"} worth ${usd(total)}; the largest is ${top.symbol} at ${usd(top.value_usd)}, ${signed(top.unrealized_pnl_pct)} after ${Math.round(top.held_hours)} h.`
      : "The wallet holds no priced token position.";
    return {
      data: { address, positions, total_value_usd: total },
      sources: [ctx.providers.chain_rpc.source],
      baseline: flowSignal(netFlow, total, WALLET_FLOW_PCT),
      brief,
    };
  },

  async tradersTopWallets(request, ctx) {
    const { period, sort, limit } = request as Validated<RequestOf<"tradersTopWallets">, "period" | "sort" | "limit">;
    const rows = await ctx.derived.traderRows(period);
    const key = { pnl: "net_pnl_usd", win_rate: "win_rate_pct", volume: "volume_usd" } as const;
    const wallets = rows
      .filter((r) => r.total_trades > 0)
      .sort(
        (a, b) => b[key[sort]] - a[key[sort]] || b.total_trades - a.total_trades || a.address.localeCompare(b.address),
      )
      .slice(0, limit)
      .map((r, i) => ({ rank: i + 1, ...r }));
    const lead = wallets[0];
    const brief = lead
      ? `The leader made ${usd(lead.net_pnl_usd)} in ${period} on ${lead.total_trades} trades at a ${pct(lead.win_rate_pct)} win rate, with a ${lead.copy_worthiness.toFixed(1)} copy score (${lead.archetype.replace("_", " ")}).`
      : `No wallet closed a trade in the last ${period}.`;
    return {
      data: { period, sort, wallets },
      sources: [ctx.providers.chain_rpc.source],
      baseline: lead ? copySignal(lead.copy_worthiness) : copySignal(0),
      brief,
    };
  },

  async tradersTokenWhales(request, ctx) {
    const { mint, limit } = request as Validated<RequestOf<"tradersTokenWhales">, "limit">;
    const { account, symbol } = await mintOrThrow(ctx, mint);
    const since = ctx.clock.now() - DAY;
    const [largest, priced, trades] = await Promise.all([
      ctx.providers.chain_rpc.largestHolders(mint),
      ctx.providers.chain_rpc.prices([mint]),
      ctx.providers.chain_rpc.tokenTrades(mint, { since }),
    ]);
    const price = priced.get(mint) ?? 0;
    const change = new Map<string, number>();
    for (const t of trades)
      change.set(t.wallet, (change.get(t.wallet) ?? 0) + (t.side === "buy" ? t.tokenAmount : -t.tokenAmount));
    const wallets = largest.filter((h) => h.ownerKind === "wallet").sort((a, b) => b.amount - a.amount);
    const whales = wallets.slice(0, limit).map((h) => ({
      address: h.owner,
      balance: h.amount,
      pct_of_supply: round(Math.min(100, (h.amount / account.supply) * 100), 3),
      value_usd: round(h.amount * price),
      net_change_24h: round(change.get(h.owner) ?? 0, 6),
    }));
    const top10 = round(Math.min(100, (sum(wallets.slice(0, 10).map((h) => h.amount)) / account.supply) * 100));
    const net = sum(whales.map((w) => w.net_change_24h * price));
    const mover = [...whales].sort((a, b) => Math.abs(b.net_change_24h) - Math.abs(a.net_change_24h))[0];
    const brief = mover
      ? `The top 10 wallets hold ${pct(top10)} of ${symbol}; the biggest 24 h mover (${pct(mover.pct_of_supply)} of supply) ${mover.net_change_24h >= 0 ? "added" : "sold"} ${usd(Math.abs(mover.net_change_24h * price))}.`
      : `No wallet holds ${symbol} outside program accounts.`;
    return {
      data: { mint, symbol, whales, top_10_pct: top10 },
      sources: [ctx.providers.chain_rpc.source],
      baseline: flowSignal(net, sum(whales.map((w) => w.value_usd)), WHALE_FLOW_PCT),
      brief,
    };
  },

  async tradersTokenOhlcv(request, ctx) {
    const { mint, interval, limit } = request as Validated<RequestOf<"tradersTokenOhlcv">, "interval" | "limit">;
    const { symbol } = await mintOrThrow(ctx, mint);
    const raw = await ctx.providers.chain_rpc.candles(mint, interval, limit);
    const candles = raw.map((c) => ({
      time: new Date(c.time).toISOString(),
      open: c.open,
      high: c.high,
      low: c.low,
      close: c.close,
      volume_usd: c.volumeUsd,
    }));
    const first = candles[0];
    const last = candles[candles.length - 1];
    const brief =
      first && last
        ? `Over ${candles.length} ${interval} candles ${symbol} moved ${signed(((last.close - first.open) / first.open) * 100)} (${first.open} to ${last.close} USD), with ${usd(sum(candles.map((c) => c.volume_usd)))} traded.`
        : `${symbol} has no candle yet.`;
    return {
      data: { mint, symbol, interval, candles },
      sources: [ctx.providers.chain_rpc.source],
      baseline: candleSignal(candles),
      brief,
    };
  },

  async tradersWalletIntel(request, ctx) {
    const { address } = request;
    const p = await profile(ctx, address);
    const [positions, sol, solPrice] = await Promise.all([
      holdings(ctx, address, p.history.open),
      ctx.providers.chain_rpc.solBalance(address),
      ctx.providers.chain_rpc.prices([WSOL_MINT]),
    ]);
    const { stats } = p;
    const now = ctx.clock.now();
    const windowTrades = p.history.trades.filter((t) => t.blockTime >= now - PERIOD_MS["30d"]);
    const data = {
      address,
      period: "30d" as const,
      archetype: p.archetype,
      win_rate_pct: round(stats.winRatePct, 1),
      total_trades: stats.trades,
      avg_hold_hours: round(stats.avgHoldHours, 1),
      net_pnl_usd: round(stats.realizedUsd + sum(positions.map((h) => h.unrealized_pnl_usd))),
      best_trade_pnl_usd: round(stats.bestUsd),
      worst_trade_pnl_usd: round(stats.worstUsd),
      specialty: specialty(windowTrades),
      copy_worthiness: p.copy,
      current_positions: positions.length,
      portfolio_value_usd: round(sum(positions.map((h) => h.value_usd)) + sol * (solPrice.get(WSOL_MINT) ?? 0)),
    };
    const brief =
      data.archetype === "inactive"
        ? `An inactive wallet: ${data.total_trades} closed trade${data.total_trades === 1 ? "" : "s"} in 30 days and ${usd(data.portfolio_value_usd)} held; nothing to copy.`
        : `A ${data.archetype.replace("_", " ")} winning ${pct(data.win_rate_pct)} of ${data.total_trades} trades for ${usd(data.net_pnl_usd)} net in 30 days; a ${data.copy_worthiness.toFixed(1)} copy score ${data.copy_worthiness > FOLLOW_ABOVE ? "clears" : "misses"} the follow bar.`;
    return { data, sources: [ctx.providers.chain_rpc.source], baseline: copySignal(data.copy_worthiness), brief };
  },
};
