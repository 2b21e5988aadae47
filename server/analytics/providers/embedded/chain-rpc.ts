/**
 * Embedded Solana chain: the shared embedded market read through RPC-shaped calls at the clock's
 * time. Launch tokens exist from their creation on; the established tokens always; any other mint
 * is absent. Any wallet address answers: population wallets with their histories, others as quiet
 * wallets.
 */
import type { Clock } from "../../clock.js";
import type { CandleInterval, ChainRpcProvider, PriceCandle } from "../chain-rpc.js";
import { launchLabPoolAccount, pumpCurveAccount, solInCurve } from "./launch-curves.js";
import { type EmbeddedMarket, marketFor } from "./market.js";
import { signatureOf, unit } from "./market-ids.js";
import { round, solanaAddress } from "./random.js";
import { slotTime } from "./slots.js";
import { type MarketAsset, symbolOf } from "./token-activity.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const INTERVAL_MS: Record<CandleInterval, number> = {
  "1m": MINUTE,
  "5m": 5 * MINUTE,
  "15m": 15 * MINUTE,
  "1h": HOUR,
  "4h": 4 * HOUR,
  "1d": DAY,
};

/** Six significant digits: launch-token prices are tiny, blue-chip prices are not. */
const sig = (value: number) => Number(value.toPrecision(6));

/** What every group of reads shares: the seed's market and the mint's asset at the clock's time. */
interface Embedded {
  seed: string;
  clock: Clock;
  market: EmbeddedMarket;
  asset(mint: string): MarketAsset | undefined;
}

export function createEmbeddedChainRpc({ seed, clock }: { seed: string; clock: Clock }): ChainRpcProvider {
  const market = marketFor(seed);
  const embedded: Embedded = { seed, clock, market, asset: (mint) => market.asset(mint, clock.now()) };
  return {
    source: "embedded-chain",
    ...accountReads(embedded),
    ...holderReads(embedded),
    ...tradeReads(embedded),
    ...priceReads(embedded),
  };
}

type AccountReads = Pick<
  ChainRpcProvider,
  "curveAddresses" | "curveAccount" | "mintAccount" | "tokenMetadata" | "mintCreation"
>;

/** The accounts of a mint and its launch: curve, mint, metadata and creation. */
function accountReads({ seed, clock, market, asset }: Embedded): AccountReads {
  const { launches } = market;
  return {
    curveAddresses(mint) {
      const token = launches.byMint(mint);
      return {
        pump: token?.platform === "pump" ? token.curve : solanaAddress("pda", `bonding-curve:${mint}`),
        launchLab: token?.platform === "launchlab" ? token.curve : solanaAddress("pda", `launchlab-pool:${mint}`),
      };
    },
    async curveAccount(address) {
      const now = clock.now();
      const token = launches.byCurve(address);
      if (!token || token.createdAt > now) return undefined;
      return token.platform === "pump" ? pumpCurveAccount(token, now) : launchLabPoolAccount(token, now);
    },
    async mintAccount(mint) {
      const a = asset(mint);
      if (!a) return undefined;
      if (a.kind === "chip") {
        const { decimals, supply, mintAuthority, freezeAuthority } = a.chip;
        return { mint, program: "spl-token", decimals, supply, mintAuthority, freezeAuthority };
      }
      const { mintAuthority, freezeAuthority } = a.token;
      return { mint, program: "spl-token", decimals: 6, supply: 1e9, mintAuthority, freezeAuthority };
    },
    async tokenMetadata(mint) {
      const a = asset(mint);
      if (!a) return undefined;
      const { name, symbol } = a.kind === "launch" ? a.token : a.chip;
      const uri = a.kind === "launch" ? a.token.uri : `https://arweave.net/${solanaAddress("metadata", mint)}`;
      return { mint, name, symbol, uri };
    },
    async mintCreation(mint) {
      const a = asset(mint);
      if (a?.kind !== "launch") return undefined;
      const t = a.token;
      return { signature: signatureOf(seed, `${mint}:create`), slot: t.slot, blockTime: t.createdAt, creator: t.dev };
    },
  };
}

type HolderReads = Pick<ChainRpcProvider, "largestHolders" | "holderCount" | "tokenAccounts">;

/** Who holds a token, and what a wallet holds. */
function holderReads({ seed, clock, market, asset }: Embedded): HolderReads {
  const { activity, wallets } = market;
  return {
    async largestHolders(mint) {
      const a = asset(mint);
      if (!a) return [];
      return activity
        .holders(a, clock.now())
        .sort((x, y) => y.amount - x.amount)
        .slice(0, 20)
        .map((e) => ({
          tokenAccount: solanaAddress(seed, `${mint}:ata:${e.owner}`),
          owner: e.owner,
          ownerKind: e.ownerKind,
          amount: round(e.amount, 6),
        }));
    },
    async holderCount(mint) {
      const a = asset(mint);
      return a ? activity.holderCount(a, clock.now()) : 0;
    },
    async tokenAccounts(owner, mint) {
      const now = clock.now();
      const own = wallets.balances(owner, now).filter((b) => mint === undefined || b.mint === mint);
      if (own.length || mint === undefined) return own.map((b) => ({ ...b, amount: round(b.amount, 6) }));
      // A token's dev and large holders are not population wallets: their balance is the token's own record.
      const a = asset(mint);
      const held = a && activity.holders(a, now).find((e) => e.owner === owner && e.ownerKind === "wallet");
      return a && held ? [{ mint, symbol: symbolOf(a), amount: round(held.amount, 6) }] : [];
    },
  };
}

type TradeReads = Pick<ChainRpcProvider, "tokenTrades" | "walletTrades" | "solBalance" | "activeTraders">;

/** The trades of a token or a wallet, and the wallets that trade. */
function tradeReads({ clock, market, asset }: Embedded): TradeReads {
  const { activity, wallets } = market;
  return {
    async tokenTrades(mint, window) {
      const a = asset(mint);
      if (!a) return [];
      const now = clock.now();
      if ("since" in window) return activity.trades(a, window.since, now);
      const to = Math.min(now, slotTime(window.toSlot + 1) - 1);
      return activity
        .trades(a, slotTime(window.fromSlot), to)
        .filter((t) => t.slot >= window.fromSlot && t.slot <= window.toSlot);
    },
    walletTrades: async (address, since) => wallets.trades(address, since, clock.now()),
    solBalance: async (address) => round(wallets.solBalance(address), 9),
    activeTraders: async (_since, limit) => wallets.population().slice(0, limit),
  };
}

const priceUsd = (market: EmbeddedMarket, a: MarketAsset, t: number) =>
  market.activity.priceOf(a, t) * market.launches.solUsd(t);

/** USD traded in [from, to]: curve flow with churn and a fading base activity; a share of daily volume for chips. */
function volumeUsd(market: EmbeddedMarket, a: MarketAsset, from: number, to: number): number {
  const hours = (to - from) / HOUR;
  const churn = 0.7 + 0.6 * unit(Math.floor(from / MINUTE), 1);
  if (a.kind === "chip") return a.chip.dailyVolumeUsd * (hours / 24) * churn;
  const token = a.token;
  const moved = Math.abs(solInCurve(token, to) - solInCurve(token, from));
  const age = (from - token.createdAt) / DAY;
  const base = (solInCurve(token, from) + 1) * 0.4 * hours * Math.exp(-age / 2);
  return (moved * 1.6 + base * churn) * market.launches.solUsd(to);
}

function candle(market: EmbeddedMarket, a: MarketAsset, open: number, from: number, to: number): PriceCandle {
  const samples = [0, 0.2, 0.4, 0.6, 0.8, 1].map((f) => priceUsd(market, a, from + f * (to - from)));
  const wick = 0.002 + 0.02 * unit(Math.floor(open / MINUTE), 7);
  return {
    time: open,
    open: sig(samples[0] as number),
    high: sig(Math.max(...samples) * (1 + wick)),
    low: sig(Math.min(...samples) * (1 - wick)),
    close: sig(samples[samples.length - 1] as number),
    volumeUsd: round(volumeUsd(market, a, from, to)),
  };
}

/** Prices now and candles back in time, both read off the market's price paths. */
function priceReads({ clock, market, asset }: Embedded): Pick<ChainRpcProvider, "prices" | "candles"> {
  return {
    async prices(mints) {
      const now = clock.now();
      const out = new Map<string, number>();
      for (const mint of mints) {
        const a = asset(mint);
        if (a) out.set(mint, sig(priceUsd(market, a, now)));
      }
      return out;
    },
    async candles(mint, interval, limit) {
      const a = asset(mint);
      if (!a) return [];
      const now = clock.now();
      const step = INTERVAL_MS[interval];
      const born = a.kind === "launch" ? a.token.createdAt : Number.NEGATIVE_INFINITY;
      const last = Math.floor(now / step) * step;
      const out: PriceCandle[] = [];
      for (let open = last - (limit - 1) * step; open <= last; open += step) {
        if (open + step <= born) continue;
        out.push(candle(market, a, open, Math.max(open, born), Math.min(open + step, now)));
      }
      return out;
    },
  };
}
