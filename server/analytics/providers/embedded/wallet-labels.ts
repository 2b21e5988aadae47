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
import {
  DAY,
  flowIntelligence,
  keyOf,
  type LabelsContext,
  priceOn,
  sig,
  TOKEN_LIST,
  type Token,
  tokenScreener,
  utcDay,
  WINDOW_MS,
} from "./wallet-labels-tokens.js";

/** Whale line of the `Whale` label, USD. */
const WHALE_USD = 1e6;

/** How far back the latest trades of a quiet wallet are looked for. */
const TRADE_LOOKBACK_DAYS = 90;

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
  {
    chain: "ethereum",
    address: "0x28C6c06298d514Db089934071355E5743bf21d60",
    persona: "smart",
    size: 14.8e6,
    since: "2019-03-14",
  },
  {
    chain: "solana",
    address: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
    persona: "smart",
    size: 640e3,
    since: "2021-02-08",
  },
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

/** The provider's context: its seed, its clock, and each chain's population, built on first use. */
interface WalletsContext extends LabelsContext {
  populations: Map<LabeledChain, Map<string, Wallet>>;
}

/** A wallet of a persona, drawn from the seed and its address: size, habits, first transaction, holdings and labels. */
function makeWallet(seed: string, chain: LabeledChain, address: string, persona: Persona): Wallet {
  const p = PERSONAS[persona];
  const r = rng(`${seed}:wallet:${chain}:${keyOf(chain, address)}`);
  const size = r.range(...p.size);
  const win = r.range(...p.win);
  const perDay = r.range(...p.perDay);
  const ticket = r.range(...p.ticket);
  const since =
    persona === "early"
      ? GENESIS[chain] + r.range(0, 120) * DAY
      : GENESIS[chain] + r.range(0.05, 1) * (LATEST_START - GENESIS[chain]);
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

/** A chain's labeled population by wallet key (the persona cycle, then the famous wallets), built once per chain. */
function population({ seed, populations }: WalletsContext, chain: LabeledChain): Map<string, Wallet> {
  let found = populations.get(chain);
  if (!found) {
    const wallets = Array.from({ length: POPULATION_SIZE }, (_, i) => {
      const address =
        chain === "solana" ? solanaAddress(seed, `wallet:${i}`) : evmAddress(seed, `${chain}:wallet:${i}`);
      return makeWallet(seed, chain, address, CYCLE[i % CYCLE.length] as Persona);
    });
    for (const f of FAMOUS.filter((w) => w.chain === chain)) {
      wallets.push({ ...makeWallet(seed, chain, f.address, f.persona), size: f.size, since: Date.parse(f.since) });
    }
    found = new Map(wallets.map((w) => [keyOf(chain, w.address), w]));
    populations.set(chain, found);
  }
  return found;
}

/** The wallet at a reference: one of its chain's population, or else a quiet one. */
const walletOf = (ctx: WalletsContext, { chain, address }: WalletRef) =>
  population(ctx, chain).get(keyOf(chain, address)) ?? makeWallet(ctx.seed, chain, address, "quiet");

/** A wallet's balances today: its holdings' shares of its size, drifting per UTC day. */
function balances({ seed, clock }: LabelsContext, wallet: Wallet): HoldingRecord[] {
  const day = utcDay(clock.now());
  const r = rng(`${seed}:balances:${wallet.chain}:${keyOf(wallet.chain, wallet.address)}:${day}`);
  return wallet.holdings.map(({ token, weight }) => {
    const valueUsd = round(wallet.size * weight * r.range(0.92, 1.08));
    return {
      tokenSymbol: token.symbol,
      tokenAddress: token.address,
      amount: sig(valueUsd / priceOn(seed, token, day)),
      valueUsd,
    };
  });
}

/** A wallet's labels: its persona's, and `Whale` while its balances sum above the line. */
function labels(ctx: LabelsContext, wallet: Wallet): WalletLabelRecord[] {
  const worth = balances(ctx, wallet).reduce((sum, h) => sum + h.valueUsd, 0);
  return [...wallet.labels, ...(worth > WHALE_USD ? ["Whale"] : [])].map((label) => ({
    label,
    category: LABEL_CATEGORY[label] ?? "behavioral",
  }));
}

/** One UTC day of a wallet's trades, oldest first. */
function tradesOn(seed: string, wallet: Wallet, day: number): TradeRecord[] {
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
function tradesSince({ seed, clock }: LabelsContext, wallet: Wallet, from: number): TradeRecord[] {
  const now = clock.now();
  const out: TradeRecord[] = [];
  for (let day = Math.max(utcDay(from), utcDay(wallet.since)); day <= utcDay(now); day++) {
    out.push(
      ...tradesOn(seed, wallet, day).filter(
        (t) => t.timestamp > from && t.timestamp <= now && t.timestamp >= wallet.since,
      ),
    );
  }
  return out;
}

/** A wallet's PnL over the window: realized from its sells, unrealized from its buys. */
function pnlSummary(ctx: LabelsContext, wallet: Wallet, window: PnlWindow): PnlSummaryRecord {
  const trades = tradesSince(ctx, wallet, ctx.clock.now() - WINDOW_MS[window]);
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

/** Every wallet of a chain's population with its labels and its PnL over the window, in population order. */
function pnlLeaderboard(ctx: WalletsContext, chain: LabeledChain, window: PnlWindow): LeaderboardRecord[] {
  return [...population(ctx, chain).values()].map((wallet) => ({
    traderAddress: wallet.address,
    labels: labels(ctx, wallet).map((l) => l.label),
    ...pnlSummary(ctx, wallet, window),
  }));
}

export function createEmbeddedWalletLabels({ seed, clock }: { seed: string; clock: Clock }): WalletLabelsProvider {
  const ctx: WalletsContext = { seed, clock, populations: new Map() };
  return {
    source: "embedded-labels",
    async labels(ref) {
      return labels(ctx, walletOf(ctx, ref));
    },
    async pnlSummary(ref, window) {
      return pnlSummary(ctx, walletOf(ctx, ref), window);
    },
    async trades(ref, limit) {
      const wallet = walletOf(ctx, ref);
      return tradesSince(ctx, wallet, clock.now() - TRADE_LOOKBACK_DAYS * DAY)
        .reverse()
        .slice(0, limit);
    },
    async balances(ref) {
      return balances(ctx, walletOf(ctx, ref));
    },
    async firstTransactionAt(ref) {
      return walletOf(ctx, ref).since;
    },
    async flowIntelligence(token, window) {
      return flowIntelligence(ctx, token, window);
    },
    async tokenScreener(chains, window): Promise<ScreenerRecord[]> {
      return tokenScreener(ctx, chains, window);
    },
    async pnlLeaderboard(chain, window): Promise<LeaderboardRecord[]> {
      return pnlLeaderboard(ctx, chain, window);
    },
  };
}
