/**
 * Smart-money rules: the contract's wallet labels, the archetype of a labeled wallet, and the
 * baseline signals of the wallet, leaderboard, flow and screener answers. Pure functions;
 * thresholds are documented where they are defined.
 */
import type { DataOf, SignalOf } from "../contract/operation-types.js";
import { confidence } from "./confidence.js";

export type WalletLabel = DataOf<"smartmoneyWalletIntel">["labels"][number];
export type LabeledArchetype = DataOf<"smartmoneyWalletIntel">["archetype"];
type TraderSignal = SignalOf<"smartmoneyWalletIntel">;
type HoldingsSignal = SignalOf<"smartmoneyFlowIntel">;
type Baseline<S> = { signal: S; confidence: number };

/** The contract's labels, in display order. */
const WALLET_LABELS: readonly WalletLabel[] = [
  "Smart Money",
  "Whale",
  "Fund",
  "Early Adopter",
  "DEX Trader",
  "NFT Trader",
];

/** The provider's label names reduced to the contract's vocabulary: known ones only, once each, in display order. */
export function contractLabels(names: readonly string[]): WalletLabel[] {
  return WALLET_LABELS.filter((label) => names.includes(label));
}

/** Behaviour that earns `smart_trader` without the label: at least 20 trades, a 60% win rate, in profit. */
export const SMART_MIN_TRADES = 20;
export const SMART_MIN_WIN_RATE_PCT = 60;
/** Behaviour that earns `whale` without the label: a portfolio above USD 1M (the label's own line). */
export const WHALE_ABOVE_USD = 1e6;
/** Behaviour that earns `dex_trader` without the label: 100 trades or more in the window. */
export const DEX_MIN_TRADES = 100;

interface WalletFacts {
  labels: readonly WalletLabel[];
  win_rate_pct: number;
  total_trades: number;
  total_pnl_usd: number;
  portfolio_value_usd: number;
}

/**
 * The first that fits: `fund` (the label: an institution, whatever it trades); `smart_trader` (the
 * Smart Money label, or the behaviour above); `whale` (label or portfolio); `dex_trader` (label or
 * trade count); `nft_trader`, `early_adopter` (their labels); else `casual`.
 */
export function labeledArchetype(w: WalletFacts): LabeledArchetype {
  const has = (label: WalletLabel) => w.labels.includes(label);
  if (has("Fund")) return "fund";
  const skilled = w.total_trades >= SMART_MIN_TRADES && w.win_rate_pct >= SMART_MIN_WIN_RATE_PCT && w.total_pnl_usd > 0;
  if (has("Smart Money") || skilled) return "smart_trader";
  if (has("Whale") || w.portfolio_value_usd > WHALE_ABOVE_USD) return "whale";
  if (has("DEX Trader") || w.total_trades >= DEX_MIN_TRADES) return "dex_trader";
  if (has("NFT Trader")) return "nft_trader";
  if (has("Early Adopter")) return "early_adopter";
  return "casual";
}

/** A record worth copying: at least 10 trades (a record, not luck), in profit, winning at least 55% of them. */
export const FOLLOW_MIN_TRADES = 10;
export const FOLLOW_MIN_WIN_RATE_PCT = 55;

type TrackRecord = { win_rate_pct: number; total_trades: number; total_pnl_usd: number };

export function followWorthy(r: TrackRecord): boolean {
  return r.total_trades >= FOLLOW_MIN_TRADES && r.total_pnl_usd > 0 && r.win_rate_pct >= FOLLOW_MIN_WIN_RATE_PCT;
}

/**
 * `follow` a follow-worthy wallet, else `ignore`. Confidence grows with the record's length (up to
 * 200 trades), and a Smart Money label backs a follow.
 */
export function walletSignal(w: TrackRecord & { labels: readonly WalletLabel[] }): Baseline<TraderSignal> {
  const follow = followWorthy(w);
  const backed = follow && w.labels.includes("Smart Money") ? 0.1 : 0;
  return {
    signal: follow ? "follow" : "ignore",
    confidence: confidence(0.55 + 0.25 * Math.min(w.total_trades / 200, 1) + backed),
  };
}

/**
 * The leaders are worth following when a strict majority of the top 5 are follow-worthy (3 of 5);
 * confidence grows with how one-sided the split is.
 */
export function leaderboardSignal(entries: readonly TrackRecord[]): Baseline<TraderSignal> {
  const top = entries.slice(0, 5);
  if (top.length === 0) return { signal: "ignore", confidence: 0.5 };
  const share = top.filter(followWorthy).length / top.length;
  return { signal: share > 0.5 ? "follow" : "ignore", confidence: confidence(0.55 + 0.3 * Math.abs(2 * share - 1)) };
}

/** How much each category's net flow counts: smart traders lead, whales follow, KOLs count least. */
export const FLOW_WEIGHTS = { smart_traders: 1, whales: 0.6, kols: 0.3 } as const;
/** Weighted net flow within ±10% of the weighted gross volume is noise. */
export const FLOW_DEAD_BAND = 0.1;

type Bucket = { net_flow_usd: number; buy_volume_usd: number; sell_volume_usd: number };

/**
 * The weighted net flow as a share of the weighted gross volume: `accumulate` at +10% or more,
 * `distribute` at −10% or less, `ignore` between (and without any volume). Confidence grows with
 * the share beyond the band, up to +/-50%.
 */
export function flowSignal(flows: { [K in keyof typeof FLOW_WEIGHTS]: Bucket }): Baseline<HoldingsSignal> {
  let net = 0;
  let gross = 0;
  for (const key of Object.keys(FLOW_WEIGHTS) as (keyof typeof FLOW_WEIGHTS)[]) {
    net += FLOW_WEIGHTS[key] * flows[key].net_flow_usd;
    gross += FLOW_WEIGHTS[key] * (flows[key].buy_volume_usd + flows[key].sell_volume_usd);
  }
  if (gross === 0) return { signal: "ignore", confidence: 0.4 };
  const share = net / gross;
  if (Math.abs(share) < FLOW_DEAD_BAND) return { signal: "ignore", confidence: 0.5 };
  const strength = Math.min((Math.abs(share) - FLOW_DEAD_BAND) / (0.5 - FLOW_DEAD_BAND), 1);
  return { signal: share > 0 ? "accumulate" : "distribute", confidence: confidence(0.55 + 0.35 * strength) };
}

/** Share of the listed tokens that must see smart-money inflow (or outflow) to give a direction. */
export const SCREENER_BREADTH = 0.6;

/**
 * Breadth of the listed tokens' 7-day smart-money net flows: `accumulate` when at least 60% flow
 * in, `distribute` when at least 60% flow out, else `ignore`. Confidence grows with the imbalance
 * and with the number of tokens (up to 10).
 */
export function screenerSignal(tokens: readonly { smart_money_net_flow_7d_usd: number }[]): Baseline<HoldingsSignal> {
  if (tokens.length === 0) return { signal: "ignore", confidence: 0.5 };
  const inflow = tokens.filter((t) => t.smart_money_net_flow_7d_usd > 0).length / tokens.length;
  const outflow = tokens.filter((t) => t.smart_money_net_flow_7d_usd < 0).length / tokens.length;
  const conf = confidence(0.45 + 0.25 * Math.abs(inflow - outflow) + 0.15 * Math.min(tokens.length / 10, 1));
  if (inflow >= SCREENER_BREADTH) return { signal: "accumulate", confidence: conf };
  if (outflow >= SCREENER_BREADTH) return { signal: "distribute", confidence: conf };
  return { signal: "ignore", confidence: conf };
}
