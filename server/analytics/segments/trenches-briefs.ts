/** The embedded insight writer's sentences for the Trenches answers: each cites the answer's own numbers. */
import { MINUTE } from "../clock.js";
import type { DataOf } from "../contract/operation-types.js";
import { EMPTY_CURVE_CAP_SOL } from "../markets/pump-curve.js";
import { MAX_ESTIMATE_HOURS } from "../rules/trenches.js";
import { pct } from "./format.js";
import type { TokenInfo } from "./trenches-parts.js";

type LaunchRow = DataOf<"trenchesNewTokens">["tokens"][number];
type Graduating = DataOf<"trenchesGraduating">["graduating"][number];
type Verdict = DataOf<"trenchesTokenVerdict">;

function hoursText(hours: number): string {
  if (hours === 0) return "it has completed and graduated";
  if (hours >= MAX_ESTIMATE_HOURS) return "it has not moved forward in the last hour";
  return `at the last hour's pace it completes in about ${hours < 10 ? hours.toFixed(1) : Math.round(hours)} h`;
}

function authoritiesText(token: TokenInfo): string {
  const live = [token.freeze_authority && "freeze", token.mint_authority && "mint"].filter(Boolean);
  return live.length ? `a live ${live.join(" and ")} authority` : "both authorities revoked";
}

/** A fresh-launch list: its size over the minutes it spans, its newest token, and how many doubled the empty-curve cap. */
export function launchListBrief(
  tokens: readonly Pick<LaunchRow, "symbol" | "initial_buy_sol" | "market_cap_sol" | "created_at">[],
  launchpad: string,
  now: number,
): string {
  const newest = tokens[0];
  const oldest = tokens[tokens.length - 1];
  if (!newest || !oldest) return `No ${launchpad} launch in the feed yet.`;
  const minutes = Math.max(1, Math.round((now - Date.parse(oldest.created_at)) / MINUTE));
  const doubled = tokens.filter((t) => t.market_cap_sol >= 2 * EMPTY_CURVE_CAP_SOL).length;
  return (
    `${tokens.length} ${launchpad} launch${tokens.length === 1 ? "" : "es"} in the last ${minutes} min; the newest, ${newest.symbol}, ` +
    `opened with a ${newest.initial_buy_sol.toFixed(2)} SOL dev buy and sits at a ${newest.market_cap_sol.toFixed(1)} SOL cap. ` +
    `${doubled} of them already doubled the empty-curve cap.`
  );
}

export function curveBrief(data: DataOf<"trenchesCurve">): string {
  const { curve } = data;
  return `The curve is ${pct(curve.progress_pct)} complete with ${curve.sol_in_curve.toFixed(2)} SOL in and a ${data.market_cap_sol.toFixed(1)} SOL cap; ${hoursText(curve.estimated_graduation_hours)}.`;
}

export function tokenBrief(token: TokenInfo): string {
  return `${token.symbol} has ${authoritiesText(token)}; the dev holds ${pct(token.dev_holds_pct)} and the top 5 wallets ${pct(token.top_holders_pct)} across ${token.holders} holders.`;
}

export function snipersBrief(data: DataOf<"trenchesTokenSnipers">): string {
  const { count, total_pct, risk_level } = data.snipers;
  const holding = data.wallets.filter((w) => w.still_holding).length;
  return count
    ? `${count} wallet${count === 1 ? "" : "s"} bought ${pct(total_pct)} of the supply in the first 3 blocks and ${holding} still hold: ${risk_level} sniper risk.`
    : "No wallet bought in the first 3 blocks: no sniper pressure.";
}

/** The soonest graduation among the listed tokens, and how many are listed. */
export function graduatingBrief(soonest: Graduating | undefined, listed: number): string {
  return soonest
    ? `${soonest.symbol} is ${pct(soonest.progress_pct)} through its curve with ${soonest.sol_in_curve.toFixed(1)} SOL in; ${hoursText(soonest.estimated_hours_remaining)}. ${listed} token${listed === 1 ? " is" : "s are"} above 85%.`
    : "No token is above 85% of its curve right now.";
}

export function verdictBrief({ token, snipers, curve }: Verdict): string {
  return (
    `${token.symbol}: ${authoritiesText(token)}, ${pct(snipers.total_pct)} sniped (${snipers.risk_level} risk), ` +
    `the dev at ${pct(token.dev_holds_pct)} and the top 5 at ${pct(token.top_holders_pct)}, with the curve at ${pct(curve.progress_pct)}.`
  );
}
