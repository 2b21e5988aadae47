/**
 * Smart-money segment: labeled wallet profiles, flows by wallet category, the token screener and
 * the PnL leaderboard, from the wallet-labels provider. A profile's PnL covers 30 days, the
 * leaderboard's default window, so a wallet's profile and its leaderboard row agree.
 */
import { entityNotFound } from "../../http/errors.js";
import type { DataOf, RequestOf, Validated } from "../contract/operation-types.js";
import type { CategoryFlowRecord, LabeledChain, PnlSummaryRecord, TradeRecord } from "../providers/wallet-labels.js";
import {
  contractLabels,
  flowSignal,
  followWorthy,
  labeledArchetype,
  leaderboardSignal,
  screenerSignal,
  walletSignal,
} from "../rules/smartmoney.js";
import { pct, usd } from "./format.js";
import type { SegmentHandlers } from "./types.js";

/** Trades shown on a profile (the contract's maximum). */
const RECENT_TRADES = 10;

/** The address in the provider's form: EVM lowercase (its form was checked by the operation's input rule). */
const providerAddress = (chain: LabeledChain, address: string) =>
  chain === "solana" ? address : address.toLowerCase();

const cents = (value: number) => Math.round(value * 100) / 100;
const netVerb = (net: number) => (net >= 0 ? "bought" : "sold");
const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

function pnlSummaryOf(r: PnlSummaryRecord): DataOf<"smartmoneyWalletIntel">["pnl_summary"] {
  return {
    realized_pnl_usd: r.realizedPnlUsd,
    unrealized_pnl_usd: r.unrealizedPnlUsd,
    total_pnl_usd: cents(r.realizedPnlUsd + r.unrealizedPnlUsd),
    win_rate_pct: Math.round(r.winRate * 1000) / 10,
    total_trades: r.tradedTimes,
  };
}

function smartTradeOf(t: TradeRecord): DataOf<"smartmoneyWalletIntel">["recent_smart_trades"][number] {
  return {
    token: t.tokenSymbol,
    action: t.side,
    amount_usd: t.valueUsd,
    timestamp: new Date(t.timestamp).toISOString(),
    pnl_usd: t.pnlUsd,
  };
}

function bucketOf(r: CategoryFlowRecord): DataOf<"smartmoneyFlowIntel">["flows"]["smart_traders"] {
  return {
    net_flow_usd: r.netFlowUsd,
    buy_volume_usd: r.buyVolumeUsd,
    sell_volume_usd: r.sellVolumeUsd,
    unique_wallets: r.walletCount,
  };
}

function walletBrief(data: DataOf<"smartmoneyWalletIntel">): string {
  const { labels, pnl_summary: pnl, archetype } = data;
  const subject = labels.length ? `This ${labels.join(", ")} wallet` : "This unlabeled wallet";
  const last = data.recent_smart_trades[0];
  return (
    `${subject} (${archetype}) holds ${usd(data.portfolio_value_usd)} and has ${usd(pnl.total_pnl_usd)} of 30-day PnL ` +
    `at a ${pct(pnl.win_rate_pct)} win rate over ${plural(pnl.total_trades, "trade")}` +
    (last
      ? `; last seen ${last.action === "buy" ? "buying" : "selling"} ${usd(last.amount_usd)} of ${last.token}.`
      : ".")
  );
}

export const smartmoneyHandlers: SegmentHandlers<
  "smartmoneyTokenScreener" | "smartmoneyFlowIntel" | "smartmoneyPnlLeaderboard" | "smartmoneyWalletIntel"
> = {
  async smartmoneyTokenScreener(request, ctx) {
    const { chains, only_smart_money, token_age_days, market_cap_min, market_cap_max, limit } = request as Validated<
      RequestOf<"smartmoneyTokenScreener">,
      "chains" | "only_smart_money" | "limit"
    >;
    // The schema's pattern admits only the four chain names.
    const list = [...new Set(chains.split(","))] as LabeledChain[];
    const sorted = [...list].sort();
    const rows = await ctx.providers.wallet_labels.tokenScreener(sorted, "7d");
    const matches = rows
      .filter((r) => !only_smart_money || r.smartMoneyTraders > 0)
      .filter((r) => token_age_days === undefined || r.tokenAgeDays <= token_age_days)
      .filter((r) => market_cap_min === undefined || r.marketCapUsd >= market_cap_min)
      .filter((r) => market_cap_max === undefined || r.marketCapUsd <= market_cap_max)
      .sort((a, b) => b.smartMoneyNetflowUsd - a.smartMoneyNetflowUsd);
    const tokens = matches.slice(0, limit).map((r) => ({
      symbol: r.tokenSymbol,
      chain: r.chain,
      address: r.tokenAddress,
      market_cap_usd: r.marketCapUsd,
      price_usd: r.priceUsd,
      smart_money_net_flow_7d_usd: r.smartMoneyNetflowUsd,
      smart_money_wallets: r.smartMoneyTraders,
      whale_wallets: r.whaleTraders,
      token_age_days: r.tokenAgeDays,
    }));
    const lead = tokens[0];
    const inflows = tokens.filter((t) => t.smart_money_net_flow_7d_usd > 0).length;
    const brief = lead
      ? `${lead.symbol} (${lead.chain}) leads ${plural(matches.length, "match", "matches")} with a ${usd(lead.smart_money_net_flow_7d_usd)} ` +
        `7-day smart-money net flow from ${plural(lead.smart_money_wallets, "wallet")}; ${inflows} of the ${tokens.length} listed see inflows.`
      : "No token matches these filters.";
    return {
      data: {
        tokens,
        total_matches: matches.length,
        filters: {
          chains: list,
          only_smart_money,
          market_cap_min: market_cap_min ?? null,
          market_cap_max: market_cap_max ?? null,
          token_age_days: token_age_days ?? null,
        },
      },
      sources: [ctx.providers.wallet_labels.source],
      baseline: screenerSignal(tokens),
      brief,
    };
  },

  async smartmoneyFlowIntel(request, ctx) {
    const { chain, token_address, timeframe } = request as Validated<RequestOf<"smartmoneyFlowIntel">, "timeframe">;
    const tokenAddress = providerAddress(chain, token_address);
    const record = await ctx.providers.wallet_labels.flowIntelligence({ chain, tokenAddress }, timeframe);
    if (!record) throw entityNotFound(`${chain} token`, token_address);
    const flows = {
      smart_traders: bucketOf(record.smartTrader),
      whales: bucketOf(record.whale),
      kols: bucketOf(record.publicFigure),
    };
    const total = cents(flows.smart_traders.net_flow_usd + flows.whales.net_flow_usd + flows.kols.net_flow_usd);
    const part = (b: typeof flows.whales, who: string) =>
      `${plural(b.unique_wallets, who)} net ${netVerb(b.net_flow_usd)} ${usd(Math.abs(b.net_flow_usd))}`;
    const brief =
      `Over ${timeframe}, ${part(flows.smart_traders, "smart trader")}, ${part(flows.whales, "whale")} and ${part(flows.kols, "KOL")}; ` +
      `total net flow ${usd(total)}.`;
    return {
      data: { token: token_address, chain, timeframe, flows, total_net_flow_usd: total },
      sources: [ctx.providers.wallet_labels.source],
      baseline: flowSignal(flows),
      brief,
    };
  },

  async smartmoneyPnlLeaderboard(request, ctx) {
    const { chain, timeframe, limit } = request as Validated<
      RequestOf<"smartmoneyPnlLeaderboard">,
      "chain" | "timeframe" | "limit"
    >;
    const rows = await ctx.providers.wallet_labels.pnlLeaderboard(chain, timeframe);
    const traders = rows
      .map((r) => ({
        address: r.traderAddress,
        labels: contractLabels(r.labels),
        ...pnlSummaryOf(r),
        roi_pct: r.roiPct,
      }))
      .sort((a, b) => b.total_pnl_usd - a.total_pnl_usd)
      .slice(0, limit)
      .map((t, i) => ({ rank: i + 1, ...t }));
    const lead = traders[0];
    const top = traders.slice(0, 5);
    const brief = lead
      ? `The top ${chain} trader made ${usd(lead.total_pnl_usd)} over ${timeframe} at a ${pct(lead.roi_pct)} ROI across ` +
        `${plural(lead.total_trades, "trade")}; ${top.filter(followWorthy).length} of the top ${top.length} pass the follow bar.`
      : `No labeled trader on ${chain} traded in the last ${timeframe}.`;
    return {
      data: { chain, timeframe, traders },
      sources: [ctx.providers.wallet_labels.source],
      baseline: leaderboardSignal(traders),
      brief,
    };
  },

  async smartmoneyWalletIntel({ chain, address }, ctx) {
    const wallet = { chain, address: providerAddress(chain, address) };
    const p = ctx.providers.wallet_labels;
    const [labelRecords, summary, trades, holdings, firstAt] = await Promise.all([
      p.labels(wallet),
      p.pnlSummary(wallet, "30d"),
      p.trades(wallet, RECENT_TRADES),
      p.balances(wallet),
      p.firstTransactionAt(wallet),
    ]);
    const labels = contractLabels(labelRecords.map((l) => l.label));
    const pnl_summary = pnlSummaryOf(summary);
    const portfolio_value_usd = cents(holdings.reduce((sum, h) => sum + h.valueUsd, 0));
    const facts = { labels, ...pnl_summary, portfolio_value_usd };
    const data: DataOf<"smartmoneyWalletIntel"> = {
      address,
      chain,
      labels,
      pnl_summary,
      archetype: labeledArchetype(facts),
      recent_smart_trades: trades.slice(0, RECENT_TRADES).map(smartTradeOf),
      portfolio_value_usd,
      // A wallet without any transaction is new as of today.
      active_since: new Date(firstAt ?? ctx.clock.now()).toISOString().slice(0, 10),
    };
    return { data, sources: [p.source], baseline: walletSignal(facts), brief: walletBrief(data) };
  },
};
