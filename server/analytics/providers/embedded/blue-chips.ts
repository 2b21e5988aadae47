/**
 * Established Solana tokens of the embedded market (real mints), and the LP tokens of a few pools:
 * what swing traders, accumulators, whales and LP farmers hold beside launchpad tokens. Prices
 * follow seeded waves around a reference level; liquid-staking tokens track SOL at their exchange
 * rate and LP tokens grow with the fees they earn.
 */
import { WSOL_MINT } from "../chain-rpc.js";
import { waveSum } from "./launch-curves.js";
import { rng, solanaAddress } from "./random.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const YEAR = 365 * DAY;

export type BlueChipKind = "native" | "stable" | "lst" | "defi" | "meme" | "lp";

export interface BlueChip {
  mint: string;
  symbol: string;
  name: string;
  kind: BlueChipKind;
  decimals: number;
  supply: number;
  holders: number;
  dailyVolumeUsd: number;
  mintAuthority: string | null;
  freezeAuthority: string | null;
  priceUsd(t: number): number;
}

type Row = [
  symbol: string,
  name: string,
  mint: string,
  kind: BlueChipKind,
  decimals: number,
  supply: number,
  price: number,
  holders: number,
  volume: number,
];

const ROWS: Row[] = [
  ["SOL", "Wrapped SOL", WSOL_MINT, "native", 9, 600e6, 1, 4_200_000, 2.1e9],
  ["USDC", "USD Coin", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "stable", 6, 9.1e9, 1, 3_100_000, 900e6],
  ["USDT", "USDT", "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB", "stable", 6, 2.4e9, 1, 1_200_000, 310e6],
  ["JitoSOL", "Jito Staked SOL", "J1toso1uCk3RLmjorhTtrVwY9HJ7X8V9yYac6Y7kGCPn", "lst", 9, 14.2e6, 1.19, 180_000, 41e6],
  ["mSOL", "Marinade staked SOL", "mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So", "lst", 9, 4.1e6, 1.28, 120_000, 12e6],
  ["JUP", "Jupiter", "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN", "defi", 6, 6.9e9, 0.82, 780_000, 62e6],
  ["JTO", "Jito", "jtojtomepa8beP8AuQc6eXt5FriJwfFMwQx2v2f9mCL", "defi", 9, 1e9, 2.1, 95_000, 24e6],
  ["RAY", "Raydium", "4k3Dyjzvzp8eMZWUXbBCjEvwSkkk59S5iCNLY3QrkX6R", "defi", 6, 555e6, 2.9, 260_000, 31e6],
  ["PYTH", "Pyth Network", "HZ1JovNiVvGrGNiiYvEozEVgZ58xaU3RKwX8eACQBCt3", "defi", 6, 10e9, 0.16, 310_000, 18e6],
  ["BONK", "Bonk", "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263", "meme", 5, 88e12, 0.0000215, 950_000, 120e6],
  ["WIF", "dogwifhat", "EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm", "meme", 6, 998.9e6, 1.45, 220_000, 180e6],
  ["POPCAT", "Popcat", "7GCihgDB8fe6KNjn2MYtkzZcRjQy3t9GHdC8uHYmW2hr", "meme", 9, 979.9e6, 0.42, 120_000, 35e6],
  ["SOL-USDC LP", "Meteora SOL-USDC LP", "", "lp", 6, 48e6, 1.04, 2_300, 0],
  ["JitoSOL-SOL LP", "Meteora JitoSOL-SOL LP", "", "lp", 6, 21e6, 1.02, 900, 0],
  ["JUP-SOL LP", "Meteora JUP-SOL LP", "", "lp", 6, 6e6, 1.07, 600, 0],
  ["BONK-SOL LP", "Meteora BONK-SOL LP", "", "lp", 6, 3e6, 1.11, 450, 0],
];

/** Amplitudes of the price waves by kind: memes swing most, LP tokens barely. */
const SWING: Record<BlueChipKind, number> = { native: 0, stable: 0.0005, lst: 0, defi: 0.12, meme: 0.25, lp: 0.01 };

export function blueChips(seed: string, solUsd: (t: number) => number): BlueChip[] {
  return ROWS.map(([symbol, name, fixedMint, kind, decimals, supply, price, holders, volume]) => {
    const r = rng(`${seed}:blue-chip:${symbol}`);
    const a = SWING[kind];
    const waves: [number, number, number][] = [
      [a, r.range(5, 12) * DAY, r.range(0, 2 * Math.PI)],
      [a * 0.4, r.range(20, 50) * HOUR, r.range(0, 2 * Math.PI)],
      [a * 0.15, r.range(2, 6) * HOUR, r.range(0, 2 * Math.PI)],
    ];
    const priceUsd =
      kind === "native" || kind === "lst"
        ? (t: number) => solUsd(t) * price
        : kind === "lp"
          ? (t: number) =>
              price * Math.exp((0.35 * t) / YEAR - 0.35 * (Date.UTC(2026, 0, 1) / YEAR) + waveSum(waves, t))
          : (t: number) => price * Math.exp(waveSum(waves, t));
    const issuer = kind === "stable" ? solanaAddress("issuer", symbol) : null;
    return {
      mint: fixedMint || solanaAddress("meteora-lp", symbol),
      symbol,
      name,
      kind,
      decimals,
      supply,
      holders,
      dailyVolumeUsd: volume || supply * price * 0.05,
      mintAuthority: issuer,
      freezeAuthority: issuer,
      priceUsd,
    };
  });
}
