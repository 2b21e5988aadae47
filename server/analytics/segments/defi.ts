/** DeFi segment: chain TVL and yield pools from the TVL aggregator. */
import { entityNotFound, invalidField } from "../../http/errors.js";
import type { RequestOf, Validated } from "../contract/operation-types.js";
import { EMISSIONS_APY_PCT, ilRiskLevel, tvlSignal, yieldsSignal } from "../rules/defi.js";
import { pct, usd } from "./format.js";
import type { SegmentHandlers } from "./types.js";

const isAll = (chain: string) => chain.trim().toLowerCase() === "all";
const sameChain = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
/** A 400 naming `chain`: a filter that no listed chain matches is a mistake to say, not an empty answer to charge for. */
const unlistedChain = (example: string | undefined) =>
  invalidField("body", "chain", `is not a chain the TVL aggregator lists (e.g. ${example ?? "Ethereum"})`);

export const defiHandlers: SegmentHandlers<"defiTvl" | "defiYields"> = {
  async defiTvl(request, ctx) {
    const { chain, limit, protocol } = request as Validated<RequestOf<"defiTvl">, "chain" | "limit">;
    const all = await ctx.providers.tvl.chains();
    const known = (name: string) => all.find((c) => sameChain(c.name, name));
    if (!isAll(chain) && !known(chain)) throw unlistedChain(all[0]?.name);

    let rows = all.map((c) => ({ name: c.name, tvl_usd: c.tvlUsd, token_symbol: c.tokenSymbol ?? "" }));
    if (protocol !== undefined) {
      const found = await ctx.providers.tvl.protocol(protocol.trim().toLowerCase());
      if (!found) throw entityNotFound("protocol", protocol);
      rows = found.chains.map((c) => ({
        name: c.name,
        tvl_usd: c.tvlUsd,
        token_symbol: known(c.name)?.tokenSymbol ?? "",
      }));
    }
    const chains = rows
      .filter((row) => isAll(chain) || sameChain(row.name, chain))
      .sort((a, b) => b.tvl_usd - a.tvl_usd)
      .slice(0, limit);
    const total = Math.round(chains.reduce((sum, c) => sum + c.tvl_usd, 0) * 100) / 100;
    const lead = chains[0];
    const subject = protocol !== undefined ? `${protocol.trim()} holds` : "The listed chains hold";
    const brief = lead
      ? `${subject} ${usd(total)} across ${chains.length} chain${chains.length === 1 ? "" : "s"}; ${lead.name} leads with ${usd(lead.tvl_usd)} (${pct((lead.tvl_usd / (total || 1)) * 100)}).`
      : "No TVL matches this filter.";
    return {
      data: {
        chains,
        total_tvl_usd: total,
        filter: { chain: chain.trim().toLowerCase(), protocol: protocol?.trim() ?? null },
      },
      sources: [ctx.providers.tvl.source],
      baseline: tvlSignal(total, chains.length),
      brief,
    };
  },

  async defiYields(request, ctx) {
    const { chain, limit, stablecoin, min_apy } = request as Validated<RequestOf<"defiYields">, "chain" | "limit">;
    const stableOnly = stablecoin === true || stablecoin === "true";
    const all = await ctx.providers.tvl.yieldPools();
    // A chain with no pool is still a chain if the aggregator lists its TVL: then the answer is an empty list.
    if (!isAll(chain) && !all.some((p) => sameChain(p.chain, chain))) {
      const chains = await ctx.providers.tvl.chains();
      if (!chains.some((c) => sameChain(c.name, chain))) throw unlistedChain(chains[0]?.name);
    }
    const pools = all
      .filter((p) => isAll(chain) || sameChain(p.chain, chain))
      .filter((p) => !stableOnly || p.stablecoin)
      .filter((p) => min_apy === undefined || p.apy >= min_apy)
      .sort((a, b) => b.apy - a.apy)
      .slice(0, limit)
      .map((p) => ({
        pool: p.symbol,
        project: p.project,
        chain: p.chain,
        apy_pct: p.apy,
        tvl_usd: p.tvlUsd,
        stablecoin: p.stablecoin,
        il_risk: ilRiskLevel(p),
        reward_tokens: p.rewardTokens,
      }));
    const top = pools[0];
    const emissions = pools.filter((p) => p.apy_pct > EMISSIONS_APY_PCT);
    const brief = top
      ? `${top.pool} on ${top.project} (${top.chain}) leads at ${pct(top.apy_pct)} APY on ${usd(top.tvl_usd)} TVL.` +
        (emissions.length
          ? ` ${emissions.length} pool${emissions.length === 1 ? "" : "s"} above 100% APY likely rest${emissions.length === 1 ? "s" : ""} on emissions that shrink.`
          : ` ${pools.length} pools match.`)
      : "No pool matches these filters.";
    return {
      data: { pools, filter: { chain: chain.trim().toLowerCase(), stablecoin: stableOnly, min_apy: min_apy ?? null } },
      sources: [ctx.providers.tvl.source],
      baseline: yieldsSignal(pools),
      brief,
    };
  },
};
