/**
 * Bridge segment: cross-chain swap quotes from the swap-bridge aggregator, and whether moving a
 * position to a better-yielding chain pays for the bridge.
 */
import { entityNotFound, invalidField } from "../../http/errors.js";
import type { DataOf, RequestOf, Validated } from "../contract/operation-types.js";
import {
  fromBaseUnits,
  type QuoteRecord,
  type SwapChain,
  type SwapTokenRecord,
  toBaseUnits,
} from "../providers/swap-bridge.js";
import type { YieldPoolRecord } from "../providers/tvl.js";
import {
  annualGainUsd,
  breakEvenDays,
  migrateSignal,
  priceImpactPct,
  quoteSignal,
  routeCostUsd,
} from "../rules/bridge.js";
import { pct, usd } from "./format.js";
import type { SegmentHandlers } from "./types.js";

const CHAINS: SwapChain[] = ["ethereum", "solana", "base", "arbitrum", "optimism", "polygon"];
/** Slippage allowed on the migration's bridge, as a fraction. */
const MIGRATE_SLIPPAGE = 0.005;

const r2 = (v: number) => Math.round(v * 100) / 100;
const r4 = (v: number) => Math.round(v * 10_000) / 10_000;
const sum = (costs: { amountUsd: number }[]) => costs.reduce((a, c) => a + c.amountUsd, 0);
const units = (v: number) => String(Number(v.toPrecision(6)));
/** A chain as the TVL aggregator spells the six bridge chains (`optimism` → `Optimism`). */
const displayChain = (chain: SwapChain) => chain.charAt(0).toUpperCase() + chain.slice(1);
const duration = (s: number) => (s < 90 ? `${s} s` : `${Math.round(s / 60)} min`);

/** A quote's costs: fees, gas, impact, and everything together. */
function costsOf(q: QuoteRecord) {
  const feesUsd = sum(q.feeCosts);
  const gasUsd = sum(q.gasCosts);
  const impactPct = priceImpactPct(q.fromAmountUsd, q.toAmountUsd, feesUsd);
  return {
    feesUsd,
    gasUsd,
    impactPct,
    totalUsd: routeCostUsd({ amountUsd: q.fromAmountUsd, feesUsd, gasUsd, priceImpactPct: impactPct }),
  };
}

const tokenData = (t: SwapTokenRecord) => ({ symbol: t.symbol, address: t.address, decimals: t.decimals });

function quoteData(q: QuoteRecord, from: SwapChain, to: SwapChain): DataOf<"bridgeQuote"> {
  const { feesUsd, gasUsd, impactPct } = costsOf(q);
  return {
    from_chain: from,
    to_chain: to,
    from_token: tokenData(q.fromToken),
    to_token: tokenData(q.toToken),
    from_amount: fromBaseUnits(q.fromAmount, q.fromToken.decimals),
    to_amount: fromBaseUnits(q.toAmount, q.toToken.decimals),
    to_amount_min: fromBaseUnits(q.toAmountMin, q.toToken.decimals),
    tool: q.tool,
    steps: q.steps.map((s) => ({
      type: s.type === "cross" ? "bridge" : "swap",
      tool: s.tool,
      from_chain: s.fromChain,
      to_chain: s.toChain,
    })),
    estimated_duration_s: Math.round(q.executionDurationS),
    fees_usd: r4(feesUsd),
    gas_usd: r4(gasUsd),
    price_impact_pct: r4(impactPct),
  };
}

const venueOf = (p: YieldPoolRecord) => ({
  chain: p.chain,
  project: p.project,
  pool: p.symbol,
  apy_pct: p.apy,
  tvl_usd: p.tvlUsd,
});

export const bridgeHandlers: SegmentHandlers<"bridgeQuote" | "bridgeYieldMigrate"> = {
  async bridgeQuote(request, ctx) {
    const { from_chain, to_chain, from_token, to_token, amount, from_address, slippage_pct } = request as Validated<
      RequestOf<"bridgeQuote">,
      "slippage_pct"
    >;
    const from = await ctx.providers.swap_bridge.token(from_chain, from_token);
    if (!from) throw invalidField("body", "from_token", `is not a token the aggregator lists on ${from_chain}`);
    const to = await ctx.providers.swap_bridge.token(to_chain, to_token);
    if (!to) throw invalidField("body", "to_token", `is not a token the aggregator lists on ${to_chain}`);
    if (from_chain === to_chain && from.address === to.address)
      throw invalidField("body", "to_token", "is the token sent, on the same chain");
    const fromAmount = toBaseUnits(amount, from.decimals);
    if (fromAmount === 0n)
      throw invalidField("body", "amount", `is less than one unit of ${from.symbol}'s smallest denomination`);
    const quote = await ctx.providers.swap_bridge.quote({
      fromChain: from_chain,
      toChain: to_chain,
      fromToken: from,
      toToken: to,
      fromAmount,
      slippage: slippage_pct / 100,
      fromAddress: from_address,
    });
    if (!quote) throw invalidField("body", "amount", "has no route: it does not cover the route's fees");

    const data = quoteData(quote, from_chain, to_chain);
    const { totalUsd } = costsOf(quote);
    return {
      data,
      sources: [ctx.providers.swap_bridge.source],
      baseline: quoteSignal({
        amountUsd: quote.fromAmountUsd,
        feesUsd: data.fees_usd,
        gasUsd: data.gas_usd,
        priceImpactPct: data.price_impact_pct,
        durationS: data.estimated_duration_s,
      }),
      brief:
        `${units(data.from_amount)} ${from.symbol} on ${from_chain} arrives as ${units(data.to_amount)} ${to.symbol} on ${to_chain} via ${data.tool} ` +
        `in about ${duration(data.estimated_duration_s)}, for ${usd(totalUsd)} all-in (${pct((totalUsd / (quote.fromAmountUsd || 1)) * 100, 2)} of the amount).`,
    };
  },

  async bridgeYieldMigrate(request, ctx) {
    const { token, amount_usd, from_chain, current_apy_pct } = request as Validated<
      RequestOf<"bridgeYieldMigrate">,
      "token"
    >;
    const all = await ctx.providers.tvl.yieldPools();
    const chainOf = (p: YieldPoolRecord) => CHAINS.find((c) => c === p.chain.toLowerCase());
    const pools = all
      .filter((p) => p.exposure === "single" && p.symbol.toLowerCase() === token.toLowerCase() && chainOf(p))
      .sort((a, b) => b.apy - a.apy);
    const here = pools.filter((p) => chainOf(p) === from_chain);

    // The current venue: the pool on from_chain closest to the stated APY (at that APY), else its best pool.
    const closest =
      current_apy_pct === undefined
        ? here[0]
        : [...here].sort((a, b) => Math.abs(a.apy - current_apy_pct) - Math.abs(b.apy - current_apy_pct))[0];
    if (!closest && current_apy_pct === undefined)
      throw invalidField("body", "current_apy_pct", `is needed: no ${token} pool on ${from_chain} to assume`);
    const current = closest
      ? { ...venueOf(closest), apy_pct: current_apy_pct ?? closest.apy }
      : {
          chain: displayChain(from_chain),
          project: "unspecified",
          pool: token,
          apy_pct: current_apy_pct as number,
          tvl_usd: 0,
        };

    const from = await ctx.providers.swap_bridge.token(from_chain, token);
    if (!from) throw invalidField("body", "token", `is not a token the aggregator lists on ${from_chain}`);
    // The aggregator lists some tokens without a price: amount_usd cannot be converted into them.
    if (!(from.priceUsd > 0))
      throw invalidField("body", "token", `has no USD price at the aggregator on ${from_chain}`);
    const fromAmount = toBaseUnits(amount_usd / from.priceUsd, from.decimals);
    if (fromAmount === 0n)
      throw invalidField("body", "amount_usd", `is less than one unit of ${from.symbol}'s smallest denomination`);
    let target: { pool: YieldPoolRecord; chain: SwapChain; token: SwapTokenRecord } | undefined;
    for (const pool of pools.filter((p) => chainOf(p) !== from_chain)) {
      const chain = chainOf(pool) as SwapChain;
      const to = await ctx.providers.swap_bridge.token(chain, token);
      if (to) {
        target = { pool, chain, token: to };
        break;
      }
    }
    if (!target) throw entityNotFound("yield pool", `${token} on a chain the bridge reaches from ${from_chain}`);

    const quote = await ctx.providers.swap_bridge.quote({
      fromChain: from_chain,
      toChain: target.chain,
      fromToken: from,
      toToken: target.token,
      fromAmount,
      slippage: MIGRATE_SLIPPAGE,
    });
    if (!quote) throw invalidField("body", "amount_usd", "is too small to cover the bridge's fees");
    const cost = r2(costsOf(quote).totalUsd);
    const best = venueOf(target.pool);
    const gain = r2(best.apy_pct - current.apy_pct);
    const days = breakEvenDays(cost, amount_usd, gain);
    const move = `${usd(amount_usd)} ${token} from ${current.project} on ${current.chain} (${pct(current.apy_pct)}) to ${best.project} on ${best.chain} (${pct(best.apy_pct)})`;
    return {
      data: {
        token,
        amount_usd,
        current,
        best,
        apy_gain_pct: gain,
        bridge_cost_usd: cost,
        annual_gain_usd: r2(annualGainUsd(cost, amount_usd, gain)),
        break_even_days: days === null ? null : r2(days),
      },
      sources: [ctx.providers.tvl.source, ctx.providers.swap_bridge.source],
      baseline: migrateSignal({ apyGainPct: gain, breakEvenDays: days }),
      brief:
        days === null
          ? `Moving ${move} gains nothing, so the ${usd(cost)} bridge would never pay back.`
          : `Moving ${move} gains ${gain.toFixed(2)} points and repays the ${usd(cost)} bridge in ${days.toFixed(1)} days.`,
    };
  },
};
