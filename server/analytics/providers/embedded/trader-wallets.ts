/**
 * The embedded trader population: 80 wallets whose habits produce every archetype (snipers,
 * degens, swing traders, accumulators, whales, LP farmers and near-inactive holders), trading the
 * market's own tokens at the market's own prices. A wallet opens positions on its own seeded
 * rhythm; its skill is the chance that it picks the best of three exit times, so its PnL follows
 * from real price paths. Snipers are the wallets the launches record in their first blocks. Any
 * other address is a quiet wallet: the same engine at a rhythm of a few trades a month or none.
 */
import type { WalletTrade } from "../../markets/records.js";
import type { TokenBalance } from "../chain-rpc.js";
import type { BlueChip, BlueChipKind } from "./blue-chips.js";
import type { LaunchMarket } from "./launch-market.js";
import { LAUNCH_EVERY, type Platform, SNIPER_TRADERS } from "./launch-token.js";
import { keyOf, remember, signatureOf, unit } from "./market-ids.js";
import { rng } from "./random.js";
import { type MarketAsset, mintOf, symbolOf, type TokenActivity } from "./token-activity.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The longest a position stays open: a lookback this long before a window sees every buy its sells close. */
const MAX_HOLD_MS = 21 * DAY;

type Style = "sniper" | "degen" | "swing" | "accumulator" | "whale" | "lp" | "quiet";

const ROSTER: [Style, number][] = [
  ["sniper", SNIPER_TRADERS],
  ["degen", 16],
  ["swing", 20],
  ["accumulator", 8],
  ["whale", 8],
  ["lp", 6],
  ["quiet", 6],
];

type Range = [number, number];

/**
 * Habits by style: skill, opens a day and bankroll in SOL (each wallet draws its own within the
 * range), position size in USD, hold hours, buys per position, the established tokens it trades,
 * and the share of its positions in launch tokens with their age when bought, in hours. Snipers
 * trade only what the launches record; quiet wallets open a position every week or two, or never.
 */
type HabitRow = [
  skill: Range,
  opensPerDay: Range,
  bankrollSol: Range,
  size: Range,
  hold: Range,
  buys: Range,
  kinds: BlueChipKind[],
  launchShare: number,
  launchAge: Range,
];

const HABITS: Record<Style, HabitRow> = {
  sniper: [[0, 0], [0, 0], [20, 120], [0, 0], [0, 0], [1, 1], [], 0, [0, 0]],
  degen: [[0.05, 0.45], [6, 14], [5, 40], [80, 1500], [0.1, 5], [1, 1], [], 1, [0.1, 12]],
  swing: [[0.05, 0.9], [1, 4], [40, 400], [800, 15_000], [4, 96], [1, 1], ["defi", "meme"], 0.3, [12, 120]],
  accumulator: [
    [0.1, 0.8],
    [0.25, 0.6],
    [200, 1500],
    [5000, 50_000],
    [168, 480],
    [3, 6],
    ["lst", "defi", "meme"],
    0,
    [0, 0],
  ],
  whale: [
    [0.1, 0.8],
    [0.5, 2],
    [6000, 40_000],
    [80_000, 600_000],
    [12, 240],
    [1, 1],
    ["lst", "defi", "meme"],
    0,
    [0, 0],
  ],
  lp: [[0.2, 0.8], [0.6, 2], [100, 900], [5000, 80_000], [24, 192], [1, 1], ["lp"], 0, [0, 0]],
  quiet: [[0.05, 0.45], [0, 0.12], [0.01, 3], [50, 2000], [24, 480], [1, 1], ["lst", "defi", "meme"], 0, [0, 0]],
};

interface Habits {
  skill: number;
  opensPerDay: number;
  bankrollSol: number;
  size: Range;
  holdHours: Range;
  buys: Range;
  kinds: BlueChipKind[];
  launchShare: number;
  launchAgeHours: Range;
}

function habits(style: Style, r: ReturnType<typeof rng>): Habits {
  const [skill, opensPerDay, bankrollSol, size, holdHours, buys, kinds, launchShare, launchAgeHours] = HABITS[style];
  return {
    skill: r.range(...skill),
    opensPerDay: r.range(...opensPerDay),
    bankrollSol: r.range(...bankrollSol),
    size,
    holdHours,
    buys,
    kinds,
    launchShare,
    launchAgeHours,
  };
}

/** Fee and slippage per side: pump.fun and LaunchLab charge 1%, an aggregated DEX swap costs about 0.3%. */
const FEE: Record<string, number> = { pump: 0.01, launchlab: 0.01, jupiter: 0.003, meteora: 0 };

interface Position {
  asset: MarketAsset;
  venue: string;
  lp: boolean;
  label: string;
  buys: { time: number; amount: number; valueUsd: number }[];
  sellAt: number;
}

/** What positions are drawn from: the market, its chips at their USD prices, and each address's style and habits. */
interface Traders {
  seed: string;
  market: LaunchMarket;
  chips: BlueChip[];
  population: Map<string, { n: number; style: Style }>;
  habitsOf(address: string): Habits;
  usd(asset: MarketAsset, t: number): number;
}

export function createTraderWallets(market: LaunchMarket, chips: BlueChip[], activity: TokenActivity) {
  const seed = market.seed;
  const population = new Map<string, { n: number; style: Style }>();
  let n = 0;
  for (const [style, count] of ROSTER)
    for (let k = 0; k < count; k++, n++) population.set(market.traderAddress(n), { n, style });
  const memo = new Map<string, Habits>();
  const traders: Traders = {
    seed,
    market,
    chips,
    population,
    habitsOf: (address) =>
      remember(memo, address, () =>
        habits(population.get(address)?.style ?? "quiet", rng(`${seed}:habits:${address}`)),
      ),
    usd: (asset, t) => activity.priceOf(asset, t) * market.solUsd(t),
  };

  return {
    population: () => [...population.keys()],

    /** Trades in [since, now], newest first. */
    trades: (address: string, since: number, now: number): WalletTrade[] => tradesOf(traders, address, since, now),

    /** Token balances at `t`: the positions still open. */
    balances: (address: string, t: number): TokenBalance[] => balancesOf(traders, address, t),

    solBalance: (address: string) => traders.habitsOf(address).bankrollSol,
  };
}

/** A launch token that was `ageHours` old at `t`. */
function launchAt(market: LaunchMarket, t: number, ageHours: number, pump: boolean): MarketAsset {
  const platform: Platform = pump ? "pump" : "launchlab";
  const i = Math.floor((t - ageHours * HOUR) / LAUNCH_EVERY[platform]);
  const token = market.token(platform, i);
  return { kind: "launch", token: token.createdAt <= t ? token : market.token(platform, i - 1) };
}

/**
 * Positions opened on the wallet's rhythm in [from, to]. Each draws from a counter-based hash
 * rather than a seeded generator: a busy wallet opens thousands of them.
 */
function rhythmPositions(
  { seed, market, chips, usd }: Traders,
  address: string,
  h: Habits,
  from: number,
  to: number,
): Position[] {
  if (h.opensPerDay <= 0) return [];
  const every = DAY / h.opensPerDay;
  const pool = chips.filter((c) => h.kinds.includes(c.kind));
  const key = keyOf(seed, `positions:${address}`);
  const out: Position[] = [];
  for (let m = Math.floor(from / every); m <= Math.floor(to / every); m++) {
    const draw = (k: number) => unit(key, m * 16 + k);
    const between = (k: number, [min, max]: [number, number]) => min + (max - min) * draw(k);
    const open = Math.floor((m + draw(0)) * every);
    if (open < from || open > to) continue;
    const asset: MarketAsset =
      draw(1) < h.launchShare || pool.length === 0
        ? launchAt(market, open, between(2, h.launchAgeHours), draw(3) < 0.8)
        : { kind: "chip", chip: pool[Math.floor(draw(2) * pool.length)] as BlueChip };
    const size = Math.exp(between(4, [Math.log(h.size[0]), Math.log(h.size[1])]));
    const holds = [5, 6, 7].map((k) => between(k, h.holdHours) * HOUR);
    const lp = asset.kind === "chip" && asset.chip.kind === "lp";
    const venue = asset.kind === "launch" ? asset.token.platform : lp ? "meteora" : "jupiter";
    const count = Math.floor(between(8, [h.buys[0], h.buys[1] + 1]));
    const buys = Array.from({ length: count }, (_, k) => {
      const time = Math.round(open + (k * Math.min(...holds) * 0.5) / count);
      return { time, amount: ((size / count) * (1 - (FEE[venue] ?? 0))) / usd(asset, time), valueUsd: size / count };
    });
    const best = holds.reduce((a, b) => (usd(asset, open + b) > usd(asset, open + a) ? b : a));
    const hold = draw(9) < h.skill ? best : (holds[0] as number);
    out.push({ asset, venue, lp, label: `${address}:${m}`, buys, sellAt: Math.round(open + hold) });
  }
  return out;
}

/** Positions with a trade in [from, to] or open across it. */
function positions(traders: Traders, address: string, from: number, to: number): Position[] {
  const { market } = traders;
  const member = traders.population.get(address);
  if (member?.style === "sniper") {
    return market.snipesBy(member.n, from - MAX_HOLD_MS, to).map(({ token, snipe }) => ({
      asset: { kind: "launch", token } as MarketAsset,
      venue: token.platform,
      lp: false,
      label: `${address}:${token.mint}`,
      buys: [
        {
          time: snipe.boughtAt,
          amount: snipe.tokens,
          valueUsd: snipe.sol * (1 + (FEE[token.platform] ?? 0)) * market.solUsd(snipe.boughtAt),
        },
      ],
      sellAt: snipe.soldAt,
    }));
  }
  const h = traders.habitsOf(address);
  return rhythmPositions(traders, address, h, from - h.holdHours[1] * HOUR, to);
}

function tradesOf(traders: Traders, address: string, since: number, now: number): WalletTrade[] {
  const { seed, usd } = traders;
  const out: WalletTrade[] = [];
  for (const p of positions(traders, address, since, now)) {
    const base = { venue: p.venue, mint: mintOf(p.asset), symbol: symbolOf(p.asset) };
    const amount = p.buys.reduce((sum, b) => sum + b.amount, 0);
    for (const [k, b] of p.buys.entries()) {
      if (b.time < since || b.time > now) continue;
      const signature = signatureOf(seed, `${p.label}:buy:${k}`);
      out.push({
        ...base,
        signature,
        blockTime: b.time,
        type: p.lp ? "deposit" : "buy",
        amount: b.amount,
        valueUsd: b.valueUsd,
      });
    }
    if (p.sellAt >= since && p.sellAt <= now) {
      const valueUsd = amount * usd(p.asset, p.sellAt) * (1 - (FEE[p.venue] ?? 0));
      out.push({
        ...base,
        signature: signatureOf(seed, `${p.label}:sell`),
        blockTime: p.sellAt,
        type: p.lp ? "withdraw" : "sell",
        amount,
        valueUsd,
      });
    }
  }
  return out.sort((a, b) => b.blockTime - a.blockTime);
}

function balancesOf(traders: Traders, address: string, t: number): TokenBalance[] {
  const byMint = new Map<string, TokenBalance>();
  for (const p of positions(traders, address, t, t)) {
    if (p.sellAt <= t) continue;
    const amount = p.buys.filter((b) => b.time <= t).reduce((sum, b) => sum + b.amount, 0);
    if (amount <= 0) continue;
    const mint = mintOf(p.asset);
    const held = byMint.get(mint);
    byMint.set(mint, { mint, symbol: symbolOf(p.asset), amount: (held?.amount ?? 0) + amount });
  }
  return [...byMint.values()];
}

export type TraderWallets = ReturnType<typeof createTraderWallets>;
