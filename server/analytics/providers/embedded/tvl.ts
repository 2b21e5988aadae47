/**
 * Embedded TVL aggregator: believable chains, protocols and yield pools. Values drift a little
 * from day to day (deterministically, from the seed and the UTC day), and protocol TVLs are parts of
 * their chains' totals.
 */
import type { Clock } from "../../clock.js";
import type { ChainTvlRecord, ProtocolTvlRecord, TvlProvider, YieldPoolRecord } from "../tvl.js";
import { rng, round } from "./random.js";

const CHAINS: [name: string, tvlUsd: number, token: string | null][] = [
  ["Ethereum", 61.2e9, "ETH"],
  ["Solana", 9.88e9, "SOL"],
  ["Tron", 5.92e9, "TRX"],
  ["BSC", 5.41e9, "BNB"],
  ["Bitcoin", 5.05e9, "BTC"],
  ["Base", 3.46e9, "ETH"],
  ["Arbitrum", 2.71e9, "ETH"],
  ["Sui", 1.62e9, "SUI"],
  ["Avalanche", 1.38e9, "AVAX"],
  ["Hyperliquid L1", 1.21e9, "HYPE"],
  ["Polygon", 0.98e9, "POL"],
  ["Aptos", 0.87e9, "APT"],
  ["Optimism", 0.66e9, "ETH"],
  ["Sonic", 0.61e9, "S"],
  ["Berachain", 0.58e9, "BERA"],
  ["Mantle", 0.49e9, "MNT"],
  ["TON", 0.41e9, "TON"],
  ["Cardano", 0.36e9, "ADA"],
  ["Linea", 0.33e9, "ETH"],
  ["Near", 0.27e9, "NEAR"],
  ["Starknet", 0.24e9, "STRK"],
  ["Scroll", 0.18e9, "ETH"],
  ["Blast", 0.15e9, "ETH"],
  ["zkSync Era", 0.12e9, "ETH"],
  ["SKALE", 0.0061e9, null],
];

const PROTOCOLS: { slug: string; name: string; chains: [string, number][] }[] = [
  {
    slug: "aave-v3",
    name: "Aave V3",
    chains: [
      ["Ethereum", 21.4e9],
      ["Arbitrum", 0.71e9],
      ["Base", 0.62e9],
      ["Avalanche", 0.41e9],
      ["Polygon", 0.22e9],
    ],
  },
  { slug: "lido", name: "Lido", chains: [["Ethereum", 19.8e9]] },
  { slug: "jito", name: "Jito", chains: [["Solana", 2.41e9]] },
  { slug: "kamino-lend", name: "Kamino Lend", chains: [["Solana", 1.93e9]] },
  { slug: "raydium-amm", name: "Raydium AMM", chains: [["Solana", 1.12e9]] },
  { slug: "meteora-dlmm", name: "Meteora DLMM", chains: [["Solana", 0.68e9]] },
  { slug: "marinade-liquid-staking", name: "Marinade Liquid Staking", chains: [["Solana", 0.72e9]] },
  {
    slug: "uniswap-v3",
    name: "Uniswap V3",
    chains: [
      ["Ethereum", 2.21e9],
      ["Arbitrum", 0.36e9],
      ["Base", 0.31e9],
      ["Polygon", 0.09e9],
      ["Optimism", 0.05e9],
    ],
  },
  {
    slug: "morpho-blue",
    name: "Morpho Blue",
    chains: [
      ["Ethereum", 3.9e9],
      ["Base", 1.02e9],
    ],
  },
  { slug: "aerodrome-slipstream", name: "Aerodrome Slipstream", chains: [["Base", 0.74e9]] },
  {
    slug: "pancakeswap-amm-v3",
    name: "PancakeSwap AMM V3",
    chains: [
      ["BSC", 1.31e9],
      ["Ethereum", 0.08e9],
      ["Base", 0.04e9],
    ],
  },
  { slug: "justlend", name: "JustLend", chains: [["Tron", 3.61e9]] },
];

type PoolSeed = [
  symbol: string,
  project: string,
  chain: string,
  apyBase: number,
  apyReward: number,
  tvlUsd: number,
  stable: boolean,
  exposure: "single" | "multi",
  rewards: string[],
];

const POOLS: PoolSeed[] = [
  ["USDC", "aave-v3", "Ethereum", 4.12, 0, 1.82e9, true, "single", []],
  ["USDT", "aave-v3", "Ethereum", 4.46, 0, 1.21e9, true, "single", []],
  ["WETH", "aave-v3", "Ethereum", 1.94, 0, 2.9e9, false, "single", []],
  ["USDC", "aave-v3", "Base", 6.41, 0, 312e6, true, "single", []],
  ["USDC", "aave-v3", "Arbitrum", 5.32, 0, 188e6, true, "single", []],
  ["STETH", "lido", "Ethereum", 2.81, 0, 19.8e9, false, "single", []],
  ["JITOSOL", "jito", "Solana", 7.42, 0.0, 2.41e9, false, "single", []],
  ["MSOL", "marinade-liquid-staking", "Solana", 7.18, 0, 0.72e9, false, "single", []],
  ["USDC", "kamino-lend", "Solana", 8.34, 1.12, 612e6, true, "single", ["KMNO"]],
  ["JITOSOL-SOL", "kamino-liquidity", "Solana", 9.61, 5.21, 48.2e6, false, "multi", ["KMNO"]],
  ["SOL-USDC", "raydium-amm", "Solana", 28.4, 0, 61.3e6, false, "multi", []],
  ["SOL-USDC", "meteora-dlmm", "Solana", 71.6, 0, 8.41e6, false, "multi", []],
  ["JUP-SOL", "meteora-dlmm", "Solana", 96.2, 0, 3.05e6, false, "multi", []],
  ["BONK-SOL", "meteora-dlmm", "Solana", 148.3, 0, 2.12e6, false, "multi", []],
  ["WIF-SOL", "raydium-amm", "Solana", 64.8, 42.1, 5.6e6, false, "multi", ["RAY"]],
  ["USDC-USDT", "orca-whirlpools", "Solana", 6.2, 0, 41.7e6, true, "multi", []],
  ["USDC", "morpho-blue", "Base", 8.92, 0, 142e6, true, "single", []],
  ["USDC", "morpho-blue", "Ethereum", 6.87, 0.4, 681e6, true, "single", ["MORPHO"]],
  ["WETH-USDC", "aerodrome-slipstream", "Base", 18.9, 24.3, 92.1e6, false, "multi", ["AERO"]],
  ["AERO-USDC", "aerodrome-slipstream", "Base", 12.1, 131.6, 21.4e6, false, "multi", ["AERO"]],
  ["CBBTC-WETH", "aerodrome-slipstream", "Base", 9.4, 16.2, 48.7e6, false, "multi", ["AERO"]],
  ["USDC-USDT", "uniswap-v3", "Ethereum", 3.1, 0, 98.2e6, true, "multi", []],
  ["WETH-USDC", "uniswap-v3", "Ethereum", 14.7, 0, 211e6, false, "multi", []],
  ["WETH-USDC", "uniswap-v3", "Arbitrum", 21.3, 0, 64.4e6, false, "multi", []],
  ["ARB-WETH", "uniswap-v3", "Arbitrum", 17.6, 0, 12.2e6, false, "multi", []],
  ["GMX", "gmx-v2", "Arbitrum", 11.2, 6.3, 310e6, false, "single", ["GMX"]],
  ["USDT", "justlend", "Tron", 3.9, 1.1, 1.31e9, true, "single", ["JST"]],
  ["CAKE-BNB", "pancakeswap-amm-v3", "BSC", 22.8, 38.5, 33.1e6, false, "multi", ["CAKE"]],
  ["USDT-USDC", "pancakeswap-amm-v3", "BSC", 4.4, 2.1, 121e6, true, "multi", ["CAKE"]],
  ["AVAX-USDC", "trader-joe-v2.1", "Avalanche", 26.1, 0, 14.9e6, false, "multi", []],
  ["USDC", "aave-v3", "Polygon", 5.08, 0, 74e6, true, "single", []],
  ["WETH-OP", "velodrome-v2", "Optimism", 15.2, 44.8, 9.3e6, false, "multi", ["VELO"]],
  ["SUI-USDC", "cetus-clmm", "Sui", 31.5, 12.2, 18.6e6, false, "multi", ["CETUS"]],
  ["HYPE", "hyperliquid-hlp", "Hyperliquid L1", 18.4, 0, 402e6, false, "single", []],
  ["USDC", "euler-v2", "Sonic", 9.7, 14.2, 56e6, true, "single", ["S"]],
  ["HONEY-USDC", "kodiak-v3", "Berachain", 11.3, 188.4, 7.8e6, true, "multi", ["BGT"]],
];

/** 1 ± 2% for a given key and UTC day: yesterday's numbers differ a little from today's. */
function drift(seed: string, key: string, day: number): number {
  return 1 + rng(`${seed}:${key}:${day}`).range(-0.02, 0.02);
}

export function createEmbeddedTvl({ seed, clock }: { seed: string; clock: Clock }): TvlProvider {
  const day = () => Math.floor(clock.now() / 86_400_000);
  return {
    source: "embedded-tvl",
    async chains(): Promise<ChainTvlRecord[]> {
      const d = day();
      return CHAINS.map(([name, tvl, tokenSymbol]) => ({
        name,
        tvlUsd: round(tvl * drift(seed, name, d)),
        tokenSymbol,
      }));
    },
    async protocol(slugOrName): Promise<ProtocolTvlRecord | undefined> {
      const wanted = slugOrName.trim().toLowerCase();
      const found = PROTOCOLS.find((p) => p.slug === wanted || p.name.toLowerCase() === wanted);
      if (!found) return undefined;
      const d = day();
      return {
        slug: found.slug,
        name: found.name,
        chains: found.chains.map(([name, tvl]) => ({
          name,
          tvlUsd: round(tvl * drift(seed, `${found.slug}:${name}`, d)),
        })),
      };
    },
    async yieldPools(): Promise<YieldPoolRecord[]> {
      const d = day();
      return POOLS.map(([symbol, project, chain, apyBase, apyReward, tvl, stablecoin, exposure, rewardTokens], i) => {
        const f = drift(seed, `pool:${i}`, d);
        const base = round(apyBase * f);
        const reward = round(apyReward * f);
        return {
          id: `${project}:${chain}:${symbol}`.toLowerCase(),
          symbol,
          project,
          chain,
          apy: round(base + reward),
          apyBase: base,
          apyReward: apyReward ? reward : null,
          tvlUsd: round(tvl * f),
          stablecoin,
          ilRisk: exposure === "multi" && !stablecoin ? "yes" : "no",
          exposure,
          rewardTokens,
        };
      });
    },
  };
}
