/**
 * The well-known tokens of the embedded wallet-labels provider (wallet-labels.ts, whose header says how
 * its figures agree), their daily prices and their hourly flows by wallet category.
 */
import type { Clock } from "../../clock.js";
import type {
  CategoryFlowRecord,
  FlowIntelRecord,
  FlowWindow,
  LabeledChain,
  PnlWindow,
  ScreenerRecord,
  TokenRef,
} from "../wallet-labels.js";
import { rng, round } from "./random.js";

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const WINDOW_MS: Record<FlowWindow | PnlWindow, number> = {
  "5m": 5 * 60_000,
  "1h": HOUR,
  "6h": 6 * HOUR,
  "12h": 12 * HOUR,
  "1d": DAY,
  "7d": 7 * DAY,
  "30d": 30 * DAY,
};

/** symbol, address, launch date, reference price (USD), circulating supply, how much labeled wallets trade it (0..1). */
type TokenSeed = [symbol: string, address: string, launched: string, price: number, supply: number, interest: number];

const TOKENS: Record<LabeledChain, TokenSeed[]> = {
  solana: [
    ["JUP", "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN", "2024-01-31", 0.62, 3.05e9, 0.9],
    ["BONK", "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263", "2022-12-25", 0.0000214, 7.9e13, 0.8],
    ["WIF", "EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm", "2023-11-20", 0.92, 9.99e8, 0.7],
    ["JTO", "jtojtomepa8beP8AuQc6eXt5FriJwfFMwQx2v2f9mCL", "2023-12-07", 1.85, 3.3e8, 0.4],
    ["PYTH", "HZ1JovNiVvGrGNiiYvEozEVgZ58xaU3RKwX8eACQBCt3", "2023-11-20", 0.14, 5.75e9, 0.15],
  ],
  ethereum: [
    ["AAVE", "0x7Fc66500c84A76Ad7e9c93437bFc5Ac33E2DDaE9", "2020-10-02", 238, 1.52e7, 0.85],
    ["UNI", "0x1f9840a85d5aF5bf1D1762F925BDADdC4201F984", "2020-09-16", 8.4, 6.3e8, 0.6],
    ["LINK", "0x514910771AF9Ca656af840dff83E8264EcF986CA", "2017-09-16", 15.2, 6.78e8, 0.7],
    ["PEPE", "0x6982508145454Ce325dDbE47a25d4ec3d2311933", "2023-04-14", 0.0000094, 4.2069e14, 0.75],
    ["ENA", "0x57e114B691Db790C35207b2e685D4A43181e6061", "2024-04-02", 0.41, 7.1e9, 0.5],
  ],
  base: [
    ["AERO", "0x940181a94A35A4569E4529A3CDfB74e38FD98631", "2023-08-28", 0.98, 8.9e8, 0.6],
    ["BRETT", "0x532f27101965dd16442E59d40670FaF5eBB142E4", "2024-02-26", 0.034, 9.9e9, 0.05],
    ["DEGEN", "0x4ed4E862860beD51a9570b96d89aF5E1B0Efefed", "2024-01-12", 0.0029, 2.6e10, 0.004],
  ],
  arbitrum: [
    ["ARB", "0x912CE59144191C1204E64559FE8253a0e49E6548", "2023-03-23", 0.33, 5.4e9, 0.6],
    ["GMX", "0xfc5A1A6EB076a2C7aD06eD22C90d7E710E35ad0a", "2021-09-01", 13.1, 1.03e7, 0.35],
    ["PENDLE", "0x0c880f6761F1af8d9Aa9C466984b80DAb9a8c9e8", "2023-03-01", 3.2, 1.66e8, 0.3],
  ],
};

export interface Token {
  chain: LabeledChain;
  symbol: string;
  address: string;
  launched: number;
  price: number;
  supply: number;
  interest: number;
}

export const TOKEN_LIST: Token[] = Object.entries(TOKENS).flatMap(([chain, seeds]) =>
  seeds.map(([symbol, address, launched, price, supply, interest]) => ({
    chain: chain as LabeledChain,
    symbol,
    address,
    launched: Date.parse(launched),
    price,
    supply,
    interest,
  })),
);

/**
 * Per wallet category: chance that an hour sees trading (times the token's interest), wallets per
 * active hour, USD per wallet and hour for a $1B token (scaled by the square root of market cap),
 * and how many wallets of the category trade a token of full interest.
 */
const CATEGORIES = {
  smartTrader: { hourly: 0.9, wallets: [1, 6], ticket: 15_000, pool: 150 },
  whale: { hourly: 0.35, wallets: [1, 2], ticket: 180_000, pool: 35 },
  publicFigure: { hourly: 0.12, wallets: [1, 2], ticket: 5_000, pool: 12 },
} as const;
type Category = keyof typeof CATEGORIES;

/** EVM addresses are case-insensitive; base58 is not. */
export const keyOf = (chain: LabeledChain, address: string) => (chain === "solana" ? address : address.toLowerCase());

/** Six significant digits: token prices span from 1e-6 to hundreds of dollars. */
export const sig = (value: number) => Number(value.toPrecision(6));

export const utcDay = (ms: number) => Math.floor(ms / DAY);

/** What the provider's reads are drawn from: its seed and its clock. */
export interface LabelsContext {
  seed: string;
  clock: Clock;
}

/** A token's price on a UTC day: its reference price, off by up to ±6% each day. */
export const priceOn = (seed: string, token: Token, day: number) =>
  sig(token.price * (1 + rng(`${seed}:price:${token.symbol}:${day}`).range(-0.06, 0.06)));

/** The 24 hourly buckets of one token, category and UTC day; the day leans towards buyers or sellers. */
function flowDay(seed: string, token: Token, category: Category, day: number) {
  const c = CATEGORIES[category];
  const r = rng(`${seed}:flow:${token.chain}:${token.symbol}:${category}:${day}`);
  const lean = r.range(-0.4, 0.4);
  const scale = Math.sqrt((token.price * token.supply) / 1e9);
  return Array.from({ length: 24 }, () => {
    if (!r.chance(c.hourly * token.interest)) return { buy: 0, sell: 0, wallets: 0 };
    const wallets = r.int(c.wallets[0], c.wallets[1]);
    const gross = wallets * c.ticket * scale * r.range(0.5, 1.5);
    const buyShare = Math.min(0.95, Math.max(0.05, 0.5 + lean / 2 + r.range(-0.2, 0.2)));
    return { buy: gross * buyShare, sell: gross * (1 - buyShare), wallets };
  });
}

/** A category's flow of a token over the window ending now: the hours it overlaps, partly overlapped ones pro rata. */
function categoryFlow(
  { seed, clock }: LabelsContext,
  token: Token,
  category: Category,
  window: FlowWindow,
): CategoryFlowRecord {
  const to = clock.now();
  const from = to - WINDOW_MS[window];
  let buy = 0;
  let sell = 0;
  let wallets = 0;
  for (let day = utcDay(from); day <= utcDay(to); day++) {
    flowDay(seed, token, category, day).forEach((hour, i) => {
      const start = day * DAY + i * HOUR;
      const overlap = (Math.min(to, start + HOUR) - Math.max(from, start)) / HOUR;
      if (overlap <= 0) return;
      buy += hour.buy * overlap;
      sell += hour.sell * overlap;
      wallets += hour.wallets * overlap;
    });
  }
  // Distinct wallets saturate at the category's pool: wallet-hours draw from it with repeats.
  const pool = Math.max(1, Math.round(CATEGORIES[category].pool * token.interest));
  const buyVolumeUsd = round(buy);
  const sellVolumeUsd = round(sell);
  return {
    netFlowUsd: round(buyVolumeUsd - sellVolumeUsd),
    buyVolumeUsd,
    sellVolumeUsd,
    walletCount: wallets > 0 ? Math.max(1, Math.round(pool * (1 - Math.exp(-wallets / pool)))) : 0,
  };
}

/** A listed token by chain and address; undefined for any other. */
const tokenOf = (chain: LabeledChain, address: string) =>
  TOKEN_LIST.find((t) => t.chain === chain && keyOf(chain, t.address) === keyOf(chain, address));

/** A listed token's flows by wallet category over the window; undefined for a token not listed. */
export function flowIntelligence(
  ctx: LabelsContext,
  { chain, tokenAddress }: TokenRef,
  window: FlowWindow,
): FlowIntelRecord | undefined {
  const token = tokenOf(chain, tokenAddress);
  if (!token) return undefined;
  return {
    smartTrader: categoryFlow(ctx, token, "smartTrader", window),
    whale: categoryFlow(ctx, token, "whale", window),
    publicFigure: categoryFlow(ctx, token, "publicFigure", window),
  };
}

/** The listed tokens of the chains with today's price and market cap and the window's smart-money and whale flows. */
export function tokenScreener(ctx: LabelsContext, chains: LabeledChain[], window: FlowWindow): ScreenerRecord[] {
  const now = ctx.clock.now();
  return TOKEN_LIST.filter((t) => chains.includes(t.chain)).map((token) => {
    const price = priceOn(ctx.seed, token, utcDay(now));
    const smart = categoryFlow(ctx, token, "smartTrader", window);
    return {
      chain: token.chain,
      tokenAddress: token.address,
      tokenSymbol: token.symbol,
      priceUsd: price,
      marketCapUsd: round(price * token.supply),
      tokenAgeDays: round((now - token.launched) / DAY, 1),
      smartMoneyNetflowUsd: smart.netFlowUsd,
      smartMoneyTraders: smart.walletCount,
      whaleTraders: categoryFlow(ctx, token, "whale", window).walletCount,
    };
  });
}
