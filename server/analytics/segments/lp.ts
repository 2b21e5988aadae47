/** LP segment: DLMM pools of the pool venue, and LP positions. */
import { entityNotFound, upstreamError } from "../../http/errors.js";
import type { DataOf, RequestOf, Validated } from "../contract/operation-types.js";
import { aprPct, inRange } from "../markets/dlmm.js";
import type { PoolRecord, PoolSortKey, PositionRecord } from "../providers/pools.js";
import {
  type Distribution,
  entrySignal,
  pairIlRisk,
  poolListSignal,
  poolScore,
  poolSignal,
  positionSignal,
  rangeDistancePct,
  rangePctFor,
  rebalanceProposal,
  recommendedDistribution,
  type StrategyInput,
  strategyOption,
  walletSignal,
  weeklyFeesUsd,
} from "../rules/lp.js";
import { pct, usd } from "./format.js";
import type { SegmentContext, SegmentHandlers } from "./types.js";

/** The venue's largest page: pool filters beyond its text query apply to this page. */
const LIST_PAGE = 1000;
/** Pools of a pair scored by the recommendation (the deepest ones; each costs a history call). */
const MAX_CANDIDATES = 6;

type PoolDetail = DataOf<"lpPoolDetail">["pool"];
type LpPosition = DataOf<"lpWalletPositions">["positions"][number];

const r2 = (v: number) => Math.round(v * 100) / 100;
const sameSymbol = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function listPools(ctx: SegmentContext, query: string | undefined, sortBy: PoolSortKey) {
  return ctx.providers.pools.listPools({ query, sortBy, pageSize: LIST_PAGE });
}

async function requirePool(ctx: SegmentContext, address: string): Promise<PoolRecord> {
  const pool = await ctx.providers.pools.pool(address);
  if (!pool) throw entityNotFound("pool", address);
  return pool;
}

/** A pool with its 7-day figures, in the contract's shape. */
async function detailOf(ctx: SegmentContext, pool: PoolRecord): Promise<DataOf<"lpPoolDetail">> {
  const buckets = await ctx.providers.pools.volumeHistory(pool.address, 7);
  const volume7d = r2(buckets.reduce((a, b) => a + b.volumeUsd, 0));
  const fees7d = r2(buckets.reduce((a, b) => a + b.feesUsd, 0));
  return {
    pool: {
      address: pool.address,
      name: pool.name,
      bin_step: pool.binStep,
      base_fee_pct: pool.baseFeePct,
      current_price: pool.currentPrice,
      tvl_usd: pool.tvlUsd,
      volume_24h_usd: pool.volume24hUsd,
      volume_7d_usd: volume7d,
      fees_24h_usd: pool.fees24hUsd,
      fees_7d_usd: fees7d,
      apr_24h_pct: r2(aprPct(pool.fees24hUsd, pool.tvlUsd)),
      apr_7d_pct: r2(aprPct(fees7d, pool.tvlUsd, 7)),
      active_bin_id: pool.activeBinId,
      total_positions: pool.openPositions,
    },
    volume_history: buckets
      .map((b) => ({ date: new Date(b.timestamp * 1000).toISOString().slice(0, 10), volume_usd: b.volumeUsd }))
      .reverse(),
  };
}

const strategyInput = (pool: PoolRecord, detail: PoolDetail): StrategyInput => ({
  grid: pool,
  price: pool.currentPrice,
  apr_24h_pct: detail.apr_24h_pct,
  apr_7d_pct: detail.apr_7d_pct,
  pairIl: pairIlRisk(pool.tokenX.symbol, pool.tokenY.symbol),
});

const recommendedPoolOf = (p: PoolDetail) => ({
  address: p.address,
  name: p.name,
  bin_step: p.bin_step,
  tvl_usd: p.tvl_usd,
  apr_pct: p.apr_24h_pct,
  volume_24h_usd: p.volume_24h_usd,
});

/**
 * A position in the contract's shape, with what a rebalance into `distribution` over `rangePct`
 * (by default the pair's mid-risk width) would look like, and the advice that follows.
 */
async function assess(ctx: SegmentContext, record: PositionRecord, distribution: Distribution, rangePct?: number) {
  const pool = await ctx.providers.pools.pool(record.pool);
  if (!pool)
    throw upstreamError(
      ctx.providers.pools.source,
      `The pool ${record.pool} of position ${record.address} is missing upstream.`,
    );
  const { pool: detail } = await detailOf(ctx, pool);
  const xUsd = record.amountX * pool.tokenX.priceUsd;
  const valueUsd = xUsd + record.amountY * pool.tokenY.priceUsd;
  const position: LpPosition = {
    position_address: record.address,
    pool_address: pool.address,
    pool_name: pool.name,
    lower_bin_id: record.lowerBinId,
    upper_bin_id: record.upperBinId,
    active_bin_id: pool.activeBinId,
    in_range: inRange(record, pool.activeBinId),
    token_x_amount: record.amountX,
    token_y_amount: record.amountY,
    value_usd: r2(valueUsd),
    unclaimed_fees_usd: r2(record.unclaimedFeeX * pool.tokenX.priceUsd + record.unclaimedFeeY * pool.tokenY.priceUsd),
    created_at: new Date(record.createdAt * 1000).toISOString(),
  };
  const input = strategyInput(pool, detail);
  const proposal = rebalanceProposal(
    { ...input, baseFeePct: pool.baseFeePct, valueUsd, xShare: valueUsd > 0 ? xUsd / valueUsd : 0.5 },
    distribution,
    rangePct ?? rangePctFor(distribution, "mid", input.pairIl),
  );
  const distancePct = r2(rangeDistancePct(pool, record, pool.activeBinId));
  const signal = positionSignal({
    distancePct,
    poolApr7dPct: detail.apr_7d_pct,
    rebalanceCostUsd: proposal.estimated_cost_usd,
    newRangeWeeklyFeesUsd: weeklyFeesUsd(valueUsd, proposal.expected_apr_pct),
  });
  return { pool, detail, position, proposal, distancePct, signal };
}

export const lpHandlers: SegmentHandlers<
  "lpPools" | "lpPoolDetail" | "lpPoolsRecommend" | "lpWalletPositions" | "lpPositionRebalance" | "lpPoolsStrategy"
> = {
  async lpPools(request, ctx) {
    // The legacy GET carries sort and limit only: min_tvl keeps its contract default here.
    const {
      sort,
      limit,
      min_tvl = 0,
      token,
      base,
      quote,
    } = request as Validated<RequestOf<"lpPools">, "sort" | "limit">;
    const { pools: page } = await listPools(ctx, token ?? (base && quote ? `${base}-${quote}` : (base ?? quote)), sort);
    const key = { apr: "apr_pct", volume: "volume_24h_usd", tvl: "tvl_usd" } as const;
    const matching = page
      .filter((p) => token === undefined || p.tokenX.mint === token || p.tokenY.mint === token)
      .filter(
        (p) =>
          (base === undefined || sameSymbol(p.tokenX.symbol, base)) &&
          (quote === undefined || sameSymbol(p.tokenY.symbol, quote)),
      )
      .filter((p) => p.tvlUsd >= min_tvl)
      .map((p) => ({
        address: p.address,
        name: p.name,
        bin_step: p.binStep,
        base_fee_pct: p.baseFeePct,
        tvl_usd: p.tvlUsd,
        volume_24h_usd: p.volume24hUsd,
        fees_24h_usd: p.fees24hUsd,
        apr_pct: r2(aprPct(p.fees24hUsd, p.tvlUsd)),
        token_x: { symbol: p.tokenX.symbol, mint: p.tokenX.mint },
        token_y: { symbol: p.tokenY.symbol, mint: p.tokenY.mint },
      }))
      .sort((a, b) => b[key[sort]] - a[key[sort]]);
    const pools = matching.slice(0, limit);
    const top = pools[0];
    const brief = top
      ? `${top.name} (bin step ${top.bin_step}) tops ${matching.length} matching pool${matching.length === 1 ? "" : "s"} by ${sort}: ` +
        `${pct(top.apr_pct)} APR from ${usd(top.volume_24h_usd)} of daily volume on ${usd(top.tvl_usd)} TVL.`
      : "No pool of the venue matches these filters.";
    return {
      data: {
        pools,
        total_pools: matching.length,
        sort,
        filter: { min_tvl, token: token ?? null, base: base ?? null, quote: quote ?? null },
      },
      sources: [ctx.providers.pools.source],
      baseline: poolListSignal(pools),
      brief,
    };
  },

  async lpPoolDetail(request, ctx) {
    const data = await detailOf(ctx, await requirePool(ctx, request.address));
    const p = data.pool;
    return {
      data,
      sources: [ctx.providers.pools.source],
      baseline: poolSignal(p),
      brief:
        `${p.name} (bin step ${p.bin_step}) earns ${pct(p.apr_7d_pct)} APR over 7 days against ${pct(p.apr_24h_pct)} in the last 24 h ` +
        `on ${usd(p.tvl_usd)} TVL, from ${usd(p.volume_7d_usd)} of volume this week.`,
    };
  },

  async lpPoolsRecommend(request, ctx) {
    const { base, quote, strategy, risk } = request as Validated<
      RequestOf<"lpPoolsRecommend">,
      "base" | "quote" | "strategy" | "risk"
    >;
    const isPair = (p: PoolRecord, x: string, y: string) =>
      sameSymbol(p.tokenX.symbol, x) && sameSymbol(p.tokenY.symbol, y);
    const { pools: page } = await listPools(ctx, base, "tvl");
    const pair = page.filter((p) => isPair(p, base, quote) || isPair(p, quote, base)).slice(0, MAX_CANDIDATES);
    if (pair.length === 0) throw entityNotFound("pool pair", `${base}-${quote}`);
    const scored = await Promise.all(
      pair.map(async (record) => {
        const { pool, volume_history } = await detailOf(ctx, record);
        return {
          record,
          pool,
          score: poolScore({ ...pool, daily_volumes: volume_history.map((v) => v.volume_usd) }, risk),
        };
      }),
    );
    scored.sort((a, b) => b.score - a.score);
    const [best, ...rest] = scored as [(typeof scored)[number], ...typeof scored];
    const option = strategyOption(strategyInput(best.record, best.pool), strategy, risk);
    return {
      data: {
        recommended_pool: recommendedPoolOf(best.pool),
        strategy: {
          distribution: strategy,
          suggested_range_pct: option.range_pct,
          risk_level: option.risk_level,
          expected_apr_low: option.expected_apr_low,
          expected_apr_high: option.expected_apr_high,
          il_risk: option.il_risk,
        },
        alternatives: rest.slice(0, 3).map(({ pool: p }) => ({
          address: p.address,
          name: p.name,
          bin_step: p.bin_step,
          tvl_usd: p.tvl_usd,
          apr_pct: p.apr_24h_pct,
        })),
      },
      sources: [ctx.providers.pools.source],
      baseline: entrySignal(best.pool),
      brief:
        `${best.pool.name} at bin step ${best.pool.bin_step} scores best of ${scored.length} pool${scored.length === 1 ? "" : "s"}: ` +
        `${pct(best.pool.apr_7d_pct)} 7-day APR on ${usd(best.pool.tvl_usd)} TVL; a ${strategy} range of ±${option.range_pct}% ` +
        `should earn ${pct(option.expected_apr_low)} to ${pct(option.expected_apr_high)}.`,
    };
  },

  async lpWalletPositions(request, ctx) {
    const { wallet, pool } = request;
    if (pool !== undefined) await requirePool(ctx, pool);
    const records = await ctx.providers.pools.positionsByOwner(wallet);
    const assessed = await Promise.all(
      records.filter((r) => pool === undefined || r.pool === pool).map((r) => assess(ctx, r, "spot")),
    );
    const positions = assessed.map((a) => a.position);
    const total = r2(positions.reduce((a, p) => a + p.value_usd, 0));
    const fees = r2(positions.reduce((a, p) => a + p.unclaimed_fees_usd, 0));
    const inRangeCount = positions.filter((p) => p.in_range).length;
    const farthest = [...assessed].sort((a, b) => b.distancePct - a.distancePct)[0];
    const brief = farthest
      ? `${positions.length} position${positions.length === 1 ? "" : "s"} worth ${usd(total)}, ${inRangeCount} in range, with ${usd(fees)} of fees to claim.` +
        (farthest.distancePct > 0
          ? ` The ${farthest.pool.name} position sits ${pct(farthest.distancePct)} outside its range.`
          : "")
      : "This wallet holds no open DLMM position.";
    return {
      data: { wallet, positions, total_value_usd: total, total_unclaimed_fees_usd: fees, in_range_count: inRangeCount },
      sources: [ctx.providers.pools.source],
      baseline: walletSignal(
        assessed.map((a) => ({
          valueUsd: a.position.value_usd,
          inRange: a.position.in_range,
          poolApr7dPct: a.detail.apr_7d_pct,
          signal: a.signal.signal,
        })),
      ),
      brief,
    };
  },

  async lpPositionRebalance(request, ctx) {
    const { position, strategy, range_pct } = request as Validated<
      RequestOf<"lpPositionRebalance">,
      "strategy" | "range_pct"
    >;
    const record = await ctx.providers.pools.position(position);
    if (!record) throw entityNotFound("position", position);
    const a = await assess(ctx, record, strategy, range_pct);
    const where = a.position.in_range
      ? `The ${a.pool.name} position is in range (active bin ${a.pool.activeBinId}, bins ${record.lowerBinId} to ${record.upperBinId})`
      : `The ${a.pool.name} position is out of range, ${pct(a.distancePct)} from the price`;
    return {
      data: {
        position: a.position,
        current_price: a.pool.currentPrice,
        distance_from_range_pct: a.distancePct,
        proposal: a.proposal,
      },
      sources: [ctx.providers.pools.source],
      baseline: a.signal,
      brief: `${where}; a ±${range_pct}% ${strategy} range would earn about ${pct(a.proposal.expected_apr_pct)} APR and cost ${usd(a.proposal.estimated_cost_usd)} to set up.`,
    };
  },

  async lpPoolsStrategy(request, ctx) {
    const { address, capital_usd, risk } = request as Validated<RequestOf<"lpPoolsStrategy">, "capital_usd" | "risk">;
    const record = await requirePool(ctx, address);
    const { pool } = await detailOf(ctx, record);
    const input = strategyInput(record, pool);
    const strategies = (["spot", "curve", "bidask"] as const).map((d) => strategyOption(input, d, risk));
    const recommended = recommendedDistribution(risk);
    const pick = strategies.find((s) => s.distribution === recommended) as (typeof strategies)[number];
    const perDay = (aprPercent: number) => usd((capital_usd * aprPercent) / 100 / 365);
    return {
      data: { pool: recommendedPoolOf(pool), current_price: record.currentPrice, capital_usd, strategies, recommended },
      sources: [ctx.providers.pools.source],
      baseline: entrySignal(pool),
      brief:
        `For ${usd(capital_usd)} at ${risk} risk in ${pool.name}, a ±${pick.range_pct}% ${recommended} range over ${pick.bin_count} bins ` +
        `should earn ${pct(pick.expected_apr_low)} to ${pct(pick.expected_apr_high)} APR, about ${perDay(pick.expected_apr_low)} to ${perDay(pick.expected_apr_high)} a day.`,
    };
  },
};
