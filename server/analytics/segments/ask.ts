/**
 * `/ask`: one free-text question. The context is the answer of two specific operations (top chains
 * by TVL, top DLMM pools by APR), fetched through their own handlers so caching and mapping are
 * shared; the question is routed to the specific endpoints that go deeper. The baseline signal
 * reads the yield landscape of the context (the DeFi vocabulary), with the confidence lowered for a
 * broad question; a configured model may answer with any signal of any segment.
 */
import type { RequestOf } from "../contract/operation-types.js";
import { routeQuestion } from "../rules/ask.js";
import { confidence } from "../rules/confidence.js";
import { yieldsSignal } from "../rules/defi.js";
import { defiHandlers } from "./defi.js";
import { pct, usd } from "./format.js";
import { lpHandlers } from "./lp.js";
import type { SegmentHandlers } from "./types.js";

const CONTEXT_SIZE = 5;

export const askHandlers: SegmentHandlers<"ask"> = {
  async ask(request: RequestOf<"ask">, ctx) {
    const [tvl, pools] = await Promise.all([
      defiHandlers.defiTvl({ chain: "all", limit: CONTEXT_SIZE }, ctx),
      lpHandlers.lpPools({ sort: "apr", limit: CONTEXT_SIZE, min_tvl: 0 }, ctx),
    ]);
    const chains = tvl.data.chains.map(({ name, tvl_usd }) => ({ name, tvl_usd }));
    const topPools = pools.data.pools.map(({ name, apr_pct, tvl_usd }) => ({ name, apr_pct, tvl_usd }));
    const endpoints = routeQuestion(request.query).map((path) => `${ctx.prefix}${path}`);
    const baseline = yieldsSignal(topPools.map((p) => ({ apy_pct: p.apr_pct, tvl_usd: p.tvl_usd })));
    const [chain] = chains;
    const [pool] = topPools;
    const brief =
      `${chain ? `${chain.name} leads TVL with ${usd(chain.tvl_usd)}` : "No chain TVL is available"}; ` +
      `${pool ? `the best DLMM pool by APR is ${pool.name} at ${pct(pool.apr_pct)} on ${usd(pool.tvl_usd)} TVL` : "no pool APR is available"}. ` +
      `For this question, see ${endpoints.slice(0, 3).join(", ")}.`;
    return {
      data: {
        query: request.query,
        context: { top_chains_by_tvl: chains, top_meteora_pools_by_apr: topPools },
        available_endpoints: endpoints,
      },
      sources: [...tvl.sources, ...pools.sources],
      baseline: { signal: baseline.signal, confidence: confidence(baseline.confidence * 0.8) },
      brief,
    };
  },
};
