/**
 * Embedded wallet-labels provider: a labeled-wallet population on ethereum, solana, base and
 * arbitrum, and the well-known tokens of those chains with their flows by wallet category.
 *
 * How the numbers agree:
 * - A wallet's trades are generated per UTC day, and every PnL figure sums the trades inside its
 *   window: realized from sells, unrealized from buys, win rate = trades in profit / trades.
 * - `Whale` is labeled exactly when the wallet's balances sum above USD 1M; balances and prices drift
 *   per UTC day, so a wallet near the line can gain or lose the label.
 * - A token's flows are hourly buy and sell volumes per wallet category, generated per UTC day; a
 *   window sums the hours it overlaps (partly overlapped hours pro rata), so nested windows nest,
 *   net = buys − sells, and the screener's 7-day figures equal flow intelligence's.
 * - Market cap = price × circulating supply.
 * Any other valid address is a quiet, unlabeled wallet; a token not listed here is unknown.
 */
import type { Clock } from "../../clock.js";
import type {
  CategoryFlowRecord,
  FlowWindow,
  HoldingRecord,
  LabeledChain,
  LeaderboardRecord,
  PnlSummaryRecord,
  PnlWindow,
  ScreenerRecord,
  TradeRecord,
  WalletLabelRecord,
  WalletLabelsProvider,
  WalletRef,
} from "../wallet-labels.js";
import { evmAddress, rng, round, solanaAddress } from "./random.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WINDOW_MS: Record<FlowWindow | PnlWindow, number> = {
  "5m": 5 * 60_000,
  "1h": HOUR,
  "6h": 6 * HOUR,
  "12h": 12 * HOUR,
  "1d": DAY,
  "7d": 7 * DAY,
  "30d": 30 * DAY,
};

/** Whale line of the `Whale` label, USD. */
const WHALE_USD = 1e6;

/** How far back the latest trades of a quiet wallet are looked for. */
const TRADE_LOOKBACK_DAYS = 90;

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

interface Token {
  chain: LabeledChain;
  symbol: string;
  address: string;
  launched: number;
  price: number;
  supply: number;
  interest: number;
}

const TOKEN_LIST: Token[] = Object.entries(TOKENS).flatMap(([chain, seeds]) =>
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

/** First day of each chain's mainnet: the earliest possible first transaction. */
const GENESIS: Record<LabeledChain, number> = {
  ethereum: Date.parse("2015-07-30"),
  solana: Date.parse("2020-03-16"),
  base: Date.parse("2023-08-09"),
  arbitrum: Date.parse("2021-08-31"),
};
/** Latest first transaction of a generated wallet. */
const LATEST_START = Date.parse("2025-06-01");

type Persona = "smart" | "whale" | "fund" | "early" | "dex" | "nft" | "quiet";
type Span = readonly [number, number];

/** Per persona: portfolio size (USD), chance that a trade wins, trades per day, trade size as a share of the portfolio. */
const PERSONAS: Record<Persona, { size: Span; win: Span; perDay: Span; ticket: Span }> = {
  smart: { size: [80e3, 4e6], win: [0.6, 0.78], perDay: [1.5, 12], ticket: [0.01, 0.05] },
  whale: { size: [1.5e6, 80e6], win: [0.45, 0.65], perDay: [0.2, 2], ticket: [0.005, 0.03] },
  fund: { size: [8e6, 250e6], win: [0.5, 0.7], perDay: [0.1, 1], ticket: [0.002, 0.01] },
  early: { size: [50e3, 3e6], win: [0.45, 0.6], perDay: [0.2, 3], ticket: [0.01, 0.05] },
  dex: { size: [10e3, 600e3], win: [0.4, 0.56], perDay: [6, 30], ticket: [0.02, 0.1] },
  nft: { size: [5e3, 900e3], win: [0.35, 0.55], perDay: [0.5, 4], ticket: [0.02, 0.08] },
  quiet: { size: [50, 8e3], win: [0.3, 0.55], perDay: [0, 0.15], ticket: [0.05, 0.3] },
};

const PERSONA_LABEL: Partial<Record<Persona, string>> = {
  smart: "Smart Money",
  fund: "Fund",
  early: "Early Adopter",
  dex: "DEX Trader",
  nft: "NFT Trader",
};
const LABEL_CATEGORY: Record<string, WalletLabelRecord["category"]> = { "Smart Money": "smart_money", Fund: "fund" };

/** Each chain's population: this cycle of personas, three times over. */
const CYCLE: Persona[] = ["smart", "dex", "whale", "smart", "early", "nft", "smart", "fund", "dex", "whale"];
const POPULATION_SIZE = 30;

/** Well-known wallets (the contract's examples) with a fixed persona, size and first transaction. */
const FAMOUS: { chain: LabeledChain; address: string; persona: Persona; size: number; since: string }[] = [
  { chain: "ethereum", address: "0x28C6c06298d514Db089934071355E5743bf21d60", persona: "smart", size: 14.8e6, since: "2019-03-14" },
  { chain: "solana", address: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM", persona: "smart", size: 640e3, since: "2021-02-08" },
];

interface Wallet {
  chain: LabeledChain;
  /** As displayed (checksummed for the famous EVM wallets). */
  address: string;
  persona: Persona;
  size: number;
  win: number;
  perDay: number;
  ticket: number;
  since: number;
  holdings: { token: Token; weight: number }[];
  labels: string[];
}

/** EVM addresses are case-insensitive; base58 is not. */
const keyOf = (chain: LabeledChain, address: string) => (chain === "solana" ? address : address.toLowerCase());

/** Six significant digits: token prices span from 1e-6 to hundreds of dollars. */
const sig = (value: number) => Number(value.toPrecision(6));

const utcDay = (ms: number) => Math.floor(ms / DAY);

export function createEmbeddedWalletLabels({ seed, clock }: { seed: string; clock: Clock }): WalletLabelsProvider {
  const priceOn = (token: Token, day: number) => sig(token.price * (1 + rng(`${seed}:price:${token.symbol}:${day}`).range(-0.06, 0.06)));

  /** The 24 hourly buckets of one token, category and UTC day; the day leans towards buyers or sellers. */
  function flowDay(token: Token, category: Category, day: number) {
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

  function categoryFlow(token: Token, category: Category, window: FlowWindow): CategoryFlowRecord {
    const to = clock.now();
    const from = to - WINDOW_MS[window];
    let buy = 0;
    let sell = 0;
    let wallets = 0;
    for (let day = utcDay(from); day <= utcDay(to); day++) {
      flowDay(token, category, day).forEach((hour, i) => {
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

  function makeWallet(chain: LabeledChain, address: string, persona: Persona): Wallet {
    const p = PERSONAS[persona];
    const r = rng(`${seed}:wallet:${chain}:${keyOf(chain, address)}`);
    const size = r.range(...p.size);
    const win = r.range(...p.win);
    const perDay = r.range(...p.perDay);
    const ticket = r.range(...p.ticket);
    const since =
      persona === "early" ? GENESIS[chain] + r.range(0, 120) * DAY : GENESIS[chain] + r.range(0.05, 1) * (LATEST_START - GENESIS[chain]);
    const tokens = TOKEN_LIST.filter((t) => t.chain === chain);
    const held = tokens.filter(() => r.chance(0.6));
    const picked = held.length ? held : [r.pick(tokens)];
    const weights = picked.map(() => r.range(0.2, 1));
    const total = weights.reduce((a, b) => a + b, 0);
    const own = PERSONA_LABEL[persona];
    const labels = own ? [own] : [];
    if (persona === "smart" && perDay > 10) labels.push("DEX Trader");
    if (persona === "early" && r.chance(0.3)) labels.push("NFT Trader");
    return {
      chain,
      address,
      persona,
      size,
      win,
      perDay,
      ticket,
      since,
      holdings: picked.map((token, i) => ({ token, weight: (weights[i] as number) / total })),
      labels,
    };
  }

  const populations = new Map<LabeledChain, Map<string, Wallet>>();
  function population(chain: LabeledChain): Map<string, Wallet> {
    let found = populations.get(chain);
    if (!found) {
      const wallets = Array.from({ length: POPULATION_SIZE }, (_, i) => {
        const address = chain === "solana" ? solanaAddress(seed, `wallet:${i}`) : evmAddress(seed, `${chain}:wallet:${i}`);
        return makeWallet(chain, address, CYCLE[i % CYCLE.length] as Persona);
      });
      for (const f of FAMOUS.filter((w) => w.chain === chain)) {
        wallets.push({ ...makeWallet(chain, f.address, f.persona), size: f.size, since: Date.parse(f.since) });
      }
      found = new Map(wallets.map((w) => [keyOf(chain, w.address), w]));
      populations.set(chain, found);
    }
    return found;
  }

  const walletOf = ({ chain, address }: WalletRef) => population(chain).get(keyOf(chain, address)) ?? makeWallet(chain, address, "quiet");

  function balances(wallet: Wallet): HoldingRecord[] {
    const day = utcDay(clock.now());
    const r = rng(`${seed}:balances:${wallet.chain}:${keyOf(wallet.chain, wallet.address)}:${day}`);
    return wallet.holdings.map(({ token, weight }) => {
      const valueUsd = round(wallet.size * weight * r.range(0.92, 1.08));
      return { tokenSymbol: token.symbol, tokenAddress: token.address, amount: sig(valueUsd / priceOn(token, day)), valueUsd };
    });
  }

  function labels(wallet: Wallet): WalletLabelRecord[] {
    const worth = balances(wallet).reduce((sum, h) => sum + h.valueUsd, 0);
    return [...wallet.labels, ...(worth > WHALE_USD ? ["Whale"] : [])].map((label) => ({
      label,
      category: LABEL_CATEGORY[label] ?? "behavioral",
    }));
  }

  /** One UTC day of a wallet's trades, oldest first. */
  function tradesOn(wallet: Wallet, day: number): TradeRecord[] {
    const r = rng(`${seed}:trades:${wallet.chain}:${keyOf(wallet.chain, wallet.address)}:${day}`);
    const expected = wallet.perDay * r.range(0.4, 1.6);
    const count = Math.floor(expected) + (r.chance(expected % 1) ? 1 : 0);
    return Array.from({ length: count }, (): TradeRecord => {
      const { token } = r.pick(wallet.holdings);
      const valueUsd = round(wallet.size * wallet.ticket * r.range(0.3, 1.7));
      const side = r.chance(0.55) ? "buy" : "sell";
      const pnlUsd = round(r.chance(wallet.win) ? valueUsd * r.range(0.01, 0.12) : -valueUsd * r.range(0.01, 0.1));
      const timestamp = day * DAY + Math.floor(r.next() * DAY);
      return { tokenSymbol: token.symbol, tokenAddress: token.address, side, valueUsd, timestamp, pnlUsd };
    }).sort((a, b) => a.timestamp - b.timestamp);
  }

  /** Trades in (from, now], oldest first; none before the wallet's first transaction. */
  function tradesSince(wallet: Wallet, from: number): TradeRecord[] {
    const now = clock.now();
    const out: TradeRecord[] = [];
    for (let day = Math.max(utcDay(from), utcDay(wallet.since)); day <= utcDay(now); day++) {
      out.push(...tradesOn(wallet, day).filter((t) => t.timestamp > from && t.timestamp <= now && t.timestamp >= wallet.since));
    }
    return out;
  }

  function pnlSummary(wallet: Wallet, window: PnlWindow): PnlSummaryRecord {
    const trades = tradesSince(wallet, clock.now() - WINDOW_MS[window]);
    const sum = (list: TradeRecord[]) => list.reduce((total, t) => total + t.pnlUsd, 0);
    const realized = sum(trades.filter((t) => t.side === "sell"));
    const unrealized = sum(trades.filter((t) => t.side === "buy"));
    const traded = trades.reduce((total, t) => total + t.valueUsd, 0);
    return {
      realizedPnlUsd: round(realized),
      unrealizedPnlUsd: round(unrealized),
      roiPct: traded ? round(((realized + unrealized) / traded) * 100) : 0,
      tradedTimes: trades.length,
      winRate: trades.length ? trades.filter((t) => t.pnlUsd > 0).length / trades.length : 0,
    };
  }

  const tokenOf = (chain: LabeledChain, address: string) =>
    TOKEN_LIST.find((t) => t.chain === chain && keyOf(chain, t.address) === keyOf(chain, address));

  return {
    source: "embedded-labels",
    async labels(ref) {
      return labels(walletOf(ref));
    },
    async pnlSummary(ref, window) {
      return pnlSummary(walletOf(ref), window);
    },
    async trades(ref, limit) {
      const wallet = walletOf(ref);
      return tradesSince(wallet, clock.now() - TRADE_LOOKBACK_DAYS * DAY)
        .reverse()
        .slice(0, limit);
    },
    async balances(ref) {
      return balances(walletOf(ref));
    },
    async firstTransactionAt(ref) {
      return walletOf(ref).since;
    },
    async flowIntelligence({ chain, tokenAddress }, window) {
      const token = tokenOf(chain, tokenAddress);
      if (!token) return undefined;
      return {
        smartTrader: categoryFlow(token, "smartTrader", window),
        whale: categoryFlow(token, "whale", window),
        publicFigure: categoryFlow(token, "publicFigure", window),
      };
    },
    async tokenScreener(chains, window): Promise<ScreenerRecord[]> {
      const now = clock.now();
      return TOKEN_LIST.filter((t) => chains.includes(t.chain)).map((token) => {
        const price = priceOn(token, utcDay(now));
        const smart = categoryFlow(token, "smartTrader", window);
        return {
          chain: token.chain,
          tokenAddress: token.address,
          tokenSymbol: token.symbol,
          priceUsd: price,
          marketCapUsd: round(price * token.supply),
          tokenAgeDays: round((now - token.launched) / DAY, 1),
          smartMoneyNetflowUsd: smart.netFlowUsd,
          smartMoneyTraders: smart.walletCount,
          whaleTraders: categoryFlow(token, "whale", window).walletCount,
        };
      });
    },
    async pnlLeaderboard(chain, window): Promise<LeaderboardRecord[]> {
      return [...population(chain).values()].map((wallet) => ({
        traderAddress: wallet.address,
        labels: labels(wallet).map((l) => l.label),
        ...pnlSummary(wallet, window),
      }));
    },
  };
}
