/**
 * One embedded market per seed, shared by the launch feed and the chain so both tell the same
 * story. Its parts are pure functions of the seed and the time asked about (their memos only
 * cache), so readers on different clocks can share it safely.
 */
import { type BlueChip, blueChips } from "./blue-chips.js";
import { EMBEDDED_POPCAT_MINT } from "./contract-examples.js";
import { createLaunchMarket, type LaunchMarket } from "./launch-market.js";
import { createTokenActivity, type MarketAsset, type TokenActivity } from "./token-activity.js";
import { createTraderWallets, type TraderWallets } from "./trader-wallets.js";

export interface EmbeddedMarket {
  launches: LaunchMarket;
  chips: BlueChip[];
  activity: TokenActivity;
  wallets: TraderWallets;
  /** The token behind a mint if it exists at `t`. */
  asset(mint: string, t: number): MarketAsset | undefined;
}

const markets = new Map<string, EmbeddedMarket>();
const KEPT = 8;

export function marketFor(seed: string): EmbeddedMarket {
  const found = markets.get(seed);
  if (found) return found;
  const launches = createLaunchMarket(seed);
  // The contract's example launch has Popcat's mainnet mint: Popcat trades under the market's own mint here.
  const chips = blueChips(seed, launches.solUsd).map((c) =>
    c.symbol === "POPCAT" ? { ...c, mint: EMBEDDED_POPCAT_MINT } : c,
  );
  const activity = createTokenActivity(launches);
  const market: EmbeddedMarket = {
    launches,
    chips,
    activity,
    wallets: createTraderWallets(launches, chips, activity),
    asset(mint, t) {
      const token = launches.byMint(mint);
      if (token) return token.createdAt <= t ? { kind: "launch", token } : undefined;
      const chip = chips.find((c) => c.mint === mint);
      return chip && { kind: "chip", chip };
    },
  };
  if (markets.size >= KEPT) markets.delete(markets.keys().next().value as string);
  markets.set(seed, market);
  return market;
}
