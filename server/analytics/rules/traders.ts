/**
 * Traders rules: the wallet's statistics over a window, its archetype, copy-worthiness and
 * specialty, and the holdings signals of positions, whales and candles. Pure functions; thresholds
 * are documented where defined.
 *
 * A "trade" is a closed one, as the ledger of markets/ matches it: a sell (or liquidity withdrawal)
 * against the buys before it. Win rate, trade counts and frequency all count closed trades.
 */
import type { WalletTrade } from "../markets/records.js";
import { type ClosedTrade, isEntry } from "../markets/wallet-ledger.js";
import { confidence } from "./confidence.js";

export type Archetype = "sniper" | "swing_trader" | "accumulator" | "whale" | "degen" | "lp_farmer" | "inactive";
export type TraderSignal = "follow" | "ignore";
export type HoldingsSignal = "accumulate" | "distribute" | "ignore";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface WalletStats {
  days: number;
  /** Closed trades in the window. */
  trades: number;
  wins: number;
  losses: number;
  winRatePct: number;
  realizedUsd: number;
  bestUsd: number;
  worstUsd: number;
  avgHoldHours: number;
  /** USD of every swap and liquidity move in the window. */
  volumeUsd: number;
  tradesPerDay: number;
  /** Share of the window's executions that moved liquidity. */
  lpShare: number;
  avgExecutionUsd: number;
  /** Share of buys made within 5 minutes of the token's launch (launch times of launchpad tokens). */
  launchBuyShare: number;
  /** Buys per position opened (a position opens on a buy with nothing held). */
  buysPerPosition: number;
  /** Mean over standard deviation of trade returns. */
  riskAdjusted: number;
  /** Share of days with closed trades that ended in profit. */
  consistency: number;
  /** Deepest fall of a bankroll of ten average positions plus the cumulative realized PnL, percent. */
  maxDrawdownPct: number;
}

const LAUNCH_BUY_MS = 5 * 60_000;

/** A buy on a launchpad, whose token's launch time tells whether it was a sniper's. */
export const isLaunchpadBuy = (t: WalletTrade) => t.type === "buy" && (t.venue === "pump" || t.venue === "launchlab");

/**
 * Statistics of the window [from, to] from a wallet's trades and their ledger; the trades may reach
 * further back so that exits find their entries.
 */
export function walletStats(
  history: { trades: readonly WalletTrade[]; closed: readonly ClosedTrade[] },
  from: number,
  to: number,
  /** The launch time of each launchpad token looked up (undefined: not found); a profile looks up a bounded number. */
  launchTimes: ReadonlyMap<string, number | undefined>,
): WalletStats {
  const { trades } = history;
  const days = Math.max(1, (to - from) / DAY);
  const closed = history.closed.filter((c) => c.time >= from && c.time <= to);
  const inWindow = trades.filter((t) => t.blockTime >= from && t.blockTime <= to);
  const buys = inWindow.filter(isEntry);
  // Launchpad buys of tokens not looked up count at the rate of those that were.
  const launchpadBuys = buys.filter(isLaunchpadBuy);
  const lookedUp = launchpadBuys.filter((b) => launchTimes.has(b.mint));
  const atLaunch = lookedUp.filter(
    (b) => b.blockTime - (launchTimes.get(b.mint) ?? Number.NEGATIVE_INFINITY) <= LAUNCH_BUY_MS,
  );
  const wins = closed.filter((c) => c.pnlUsd > 0).length;
  const volumeUsd = inWindow.reduce((sum, t) => sum + t.valueUsd, 0);
  const sum = (list: number[]) => list.reduce((a, b) => a + b, 0);

  const held = new Map<string, number>();
  let positions = 0;
  for (const t of [...trades].sort((a, b) => a.blockTime - b.blockTime)) {
    const before = held.get(t.mint) ?? 0;
    if (isEntry(t) && before <= 0 && t.blockTime >= from && t.blockTime <= to) positions++;
    held.set(t.mint, Math.max(0, before + (isEntry(t) ? t.amount : -t.amount)));
  }

  const returns = closed.map((c) => c.returnPct);
  const mean = returns.length ? sum(returns) / returns.length : 0;
  const std = returns.length ? Math.sqrt(sum(returns.map((r) => (r - mean) ** 2)) / returns.length) : 0;

  const byDay = new Map<number, number>();
  for (const c of closed) byDay.set(Math.floor(c.time / DAY), (byDay.get(Math.floor(c.time / DAY)) ?? 0) + c.pnlUsd);

  const bankroll = 10 * (closed.length ? sum(closed.map((c) => c.costUsd)) / closed.length : 0);
  let equity = bankroll;
  let peak = bankroll;
  let drawdown = 0;
  for (const c of [...closed].sort((a, b) => a.time - b.time)) {
    equity += c.pnlUsd;
    peak = Math.max(peak, equity);
    if (peak > 0) drawdown = Math.max(drawdown, Math.min(1, (peak - equity) / peak));
  }

  return {
    days,
    trades: closed.length,
    wins,
    losses: closed.length - wins,
    winRatePct: closed.length ? (wins / closed.length) * 100 : 0,
    realizedUsd: sum(closed.map((c) => c.pnlUsd)),
    bestUsd: closed.length ? Math.max(...closed.map((c) => c.pnlUsd)) : 0,
    worstUsd: closed.length ? Math.min(...closed.map((c) => c.pnlUsd)) : 0,
    avgHoldHours: closed.length ? sum(closed.map((c) => c.holdHours)) / closed.length : 0,
    volumeUsd,
    tradesPerDay: closed.length / days,
    lpShare: inWindow.length
      ? inWindow.filter((t) => t.type === "deposit" || t.type === "withdraw").length / inWindow.length
      : 0,
    avgExecutionUsd: inWindow.length ? volumeUsd / inWindow.length : 0,
    launchBuyShare: lookedUp.length ? (atLaunch.length * launchpadBuys.length) / lookedUp.length / buys.length : 0,
    buysPerPosition: positions ? buys.length / positions : 0,
    riskAdjusted: returns.length > 1 && std > 0 ? mean / std : 0,
    consistency: byDay.size ? [...byDay.values()].filter((pnl) => pnl > 0).length / byDay.size : 0,
    maxDrawdownPct: drawdown * 100,
  };
}

/** Fewer closed trades than this in the window is `inactive`. */
export const INACTIVE_BELOW_TRADES = 5;

/**
 * The first behaviour that fits, in this order: fewer than 5 trades `inactive`; half or more of
 * the executions moving liquidity `lp_farmer`; an average execution of $50k or more `whale`; half
 * or more of the buys within 5 minutes of launch `sniper`; 5 or more trades a day held under 12
 * hours on average `degen`; 2.5 or more buys per position held 72 hours or more `accumulator`;
 * otherwise `swing_trader` (holds hours to days).
 */
export function archetype(s: WalletStats): Archetype {
  if (s.trades < INACTIVE_BELOW_TRADES) return "inactive";
  if (s.lpShare >= 0.5) return "lp_farmer";
  if (s.avgExecutionUsd >= 50_000) return "whale";
  if (s.launchBuyShare >= 0.5) return "sniper";
  if (s.tradesPerDay >= 5 && s.avgHoldHours < 12) return "degen";
  if (s.buysPerPosition >= 2.5 && s.avgHoldHours >= 72) return "accumulator";
  return "swing_trader";
}

const clamp10 = (v: number) => Math.min(10, Math.max(0, v));

/**
 * Copy-worthiness, 0 to 10, one decimal: each component is scored 0 to 10 and weighted win rate
 * 30%, risk-adjusted return 25%, consistency 20%, trade frequency 15%, max drawdown 10%. Win rate
 * scores 0 at 40% and 10 at 80%; risk-adjusted return (mean over standard deviation of trade
 * returns) 0 at 0 and 10 at 1; consistency 0 when 40% or fewer of the active days were profitable
 * and 10 when all were; frequency 10 between 0.5 and 5 trades a day, less below (too few to learn
 * from) and above (too fast to copy: 0 at 25 a day); drawdown 10 at none and 0 at 25% or more.
 */
export function copyWorthiness(s: WalletStats): { score: number; components: Record<string, number> } {
  const f = s.tradesPerDay;
  const components = {
    win_rate: clamp10(((s.winRatePct - 40) / 40) * 10),
    risk_adjusted: clamp10(s.riskAdjusted * 10),
    consistency: clamp10(((s.consistency - 0.4) / 0.6) * 10),
    frequency: clamp10(f < 0.5 ? f * 20 : f <= 5 ? 10 : 10 - (f - 5) / 2),
    drawdown: clamp10(10 * (1 - s.maxDrawdownPct / 25)),
  };
  const score =
    0.3 * components.win_rate +
    0.25 * components.risk_adjusted +
    0.2 * components.consistency +
    0.15 * components.frequency +
    0.1 * components.drawdown;
  return { score: Math.round(score * 10) / 10, components };
}

/** Strictly above this copy score a wallet is worth following. */
export const FOLLOW_ABOVE = 7;
/** Strictly below this copy score a wallet is not worth copying. */
const IGNORE_BELOW = 4;

/**
 * `follow` strictly above 7.0; `ignore` below 4.0 with a confidence that grows as the score falls;
 * from 4.0 to 7.0 (both included) the wallet is not proven, so `ignore` again but with a low
 * confidence (0.5 at 4.0 down to 0.4 at 7.0). The score compared is the rounded one shown.
 */
export function copySignal(score: number): { signal: TraderSignal; confidence: number } {
  if (score > FOLLOW_ABOVE) return { signal: "follow", confidence: confidence(0.6 + (score - FOLLOW_ABOVE) / 10) };
  if (score < IGNORE_BELOW) return { signal: "ignore", confidence: confidence(0.6 + (IGNORE_BELOW - score) / 10) };
  return { signal: "ignore", confidence: confidence(0.5 - (score - IGNORE_BELOW) / 30) };
}

const STABLES = new Set(["USDC", "USDT", "PYUSD", "USDS", "USDE"]);
const STAKED_SOL = new Set(["JITOSOL", "MSOL", "BSOL", "JUPSOL", "INF"]);
const MEMES = new Set(["BONK", "WIF", "POPCAT", "MEW", "BOME"]);

/** What a trade is in: liquidity, a launchpad token, or a family of established tokens. */
function category(t: WalletTrade): string {
  if (t.type === "deposit" || t.type === "withdraw") return "lp_positions";
  if (t.venue === "pump" || t.venue === "launchlab") return "launchpad_tokens";
  const symbol = t.symbol.toUpperCase();
  if (STABLES.has(symbol)) return "stablecoins";
  if (STAKED_SOL.has(symbol)) return "liquid_staking";
  if (MEMES.has(symbol)) return "memecoins";
  return "defi_blue_chips";
}

/** The category holding the most USD volume of the window; `none` without trades. */
export function specialty(trades: readonly WalletTrade[]): string {
  const volume = new Map<string, number>();
  for (const t of trades) volume.set(category(t), (volume.get(category(t)) ?? 0) + t.valueUsd);
  return [...volume.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? "none";
}

/**
 * Direction of a net flow against the holdings it moves: above `thresholdPct` of `baseUsd`
 * `accumulate`, below minus that `distribute`, else `ignore`. Confidence grows with the multiple
 * of the threshold reached.
 */
export function flowSignal(
  netUsd: number,
  baseUsd: number,
  thresholdPct: number,
): { signal: HoldingsSignal; confidence: number } {
  const ratio = baseUsd > 0 ? (netUsd / baseUsd) * 100 : 0;
  const strength = Math.abs(ratio) / thresholdPct;
  if (ratio > thresholdPct)
    return { signal: "accumulate", confidence: confidence(0.55 + Math.min(0.3, (strength - 1) * 0.1)) };
  if (ratio < -thresholdPct)
    return { signal: "distribute", confidence: confidence(0.55 + Math.min(0.3, (strength - 1) * 0.1)) };
  return { signal: "ignore", confidence: confidence(0.6 - strength * 0.1) };
}

/** A price move of at least this many percent over the candles counts. */
const CANDLE_MOVE_PCT = 5;

/**
 * Candles: a move of 5% or more (first open to last close) on volume that did not shrink (the
 * later half's candles traded at least as much on average as the earlier half's) reads as `accumulate` when up and
 * `distribute` when down; anything else, or fewer than 2 candles, `ignore`.
 */
export function candleSignal(candles: readonly { open: number; close: number; volume_usd: number }[]): {
  signal: HoldingsSignal;
  confidence: number;
} {
  const first = candles[0];
  const last = candles[candles.length - 1];
  if (!first || !last || candles.length < 2 || first.open <= 0) return { signal: "ignore", confidence: 0.5 };
  const move = ((last.close - first.open) / first.open) * 100;
  const half = Math.floor(candles.length / 2);
  const meanVolume = (list: readonly { volume_usd: number }[]) =>
    list.reduce((sum, c) => sum + c.volume_usd, 0) / list.length;
  const rising = meanVolume(candles.slice(half)) >= meanVolume(candles.slice(0, half));
  const conf = confidence(0.5 + Math.min(0.3, Math.abs(move) / 100));
  if (rising && move >= CANDLE_MOVE_PCT) return { signal: "accumulate", confidence: conf };
  if (rising && move <= -CANDLE_MOVE_PCT) return { signal: "distribute", confidence: conf };
  return { signal: "ignore", confidence: conf };
}
