/**
 * Embedded DLMM venue: thirty Solana pools (SOL-USDC at five bin steps, LST pairs, stables, majors
 * and memes) with the real mints of their tokens, and LP wallets that own positions in them.
 * The numbers agree: the current price is the price of the active bin; TVL is the reserves at the
 * pool's prices; fees are volume times the base fee; the daily buckets are the days' volumes, the
 * newest being the last 24 h. Prices, volumes and TVL drift with the UTC day (deterministically, from
 * the seed and the day), so positions fall out of range and back in. Each position slot of a wallet
 * is closed and reopened around the then price on its own cycle of one to four weeks; a few
 * positions are held for good once opened. The flagship SOL-USDC pool, the first LP wallet and its
 * held position are the ones the contract's examples name.
 */
import type { Clock } from "../../clock.js";
import { aprPct, type BinGrid, binIdAt, binPrice, inRange } from "../../markets/dlmm.js";
import type { PoolProvider, PoolRecord, PoolSortKey, PositionRecord, VolumeBucket } from "../pools.js";
import { CONTRACT_EXAMPLES, EMBEDDED_POPCAT_MINT } from "./contract-examples.js";
import { type Rng, rng, round, solanaAddress } from "./random.js";

const DAY_MS = 86_400_000;
/** 2026-11-21, the day the reference prices below were taken. */
const REF_DAY = 20_778;

type Kind = "stable" | "lst" | "major" | "meme";
const KINDS: Kind[] = ["stable", "lst", "major", "meme"];

/** Reference USD price (for an LST: its value in SOL), and how wildly the price swings day to day. */
const TOKENS: Record<string, { mint: string; decimals: number; price: number; kind: Kind }> = {
  SOL: { mint: "So11111111111111111111111111111111111111112", decimals: 9, price: 142.4, kind: "major" },
  USDC: { mint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", decimals: 6, price: 1, kind: "stable" },
  USDT: { mint: "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB", decimals: 6, price: 1, kind: "stable" },
  JitoSOL: { mint: "J1toso1uCk3RLmjorhTtrVwY9HJ7X8V9yYac6Y7kGCPn", decimals: 9, price: 1.2372, kind: "lst" },
  mSOL: { mint: "mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So", decimals: 9, price: 1.2931, kind: "lst" },
  JUP: { mint: "JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN", decimals: 6, price: 0.52, kind: "major" },
  JTO: { mint: "jtojtomepa8beP8AuQc6eXt5FriJwfFMwQx2v2f9mCL", decimals: 9, price: 1.62, kind: "major" },
  PYTH: { mint: "HZ1JovNiVvGrGNiiYvEozEVgZ58xaU3RKwX8eACQBCt3", decimals: 6, price: 0.121, kind: "major" },
  RAY: { mint: "4k3Dyjzvzp8eMZWUXbBCjEvwSkkk59S5iCNLY3QrkX6R", decimals: 6, price: 2.08, kind: "major" },
  cbBTC: { mint: "cbbtcf3aa214zXHbiAZQwf4122FBYbraNdFqgw4iMij", decimals: 8, price: 91_250, kind: "major" },
  BONK: { mint: "DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263", decimals: 5, price: 0.0000141, kind: "meme" },
  WIF: { mint: "EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm", decimals: 6, price: 0.71, kind: "meme" },
  POPCAT: { mint: EMBEDDED_POPCAT_MINT, decimals: 9, price: 0.24, kind: "meme" },
  TRUMP: { mint: "6p6xgHyF7AeE6TZkSmFsko444wqoP15icUSqi2jfGiPN", decimals: 6, price: 7.9, kind: "meme" },
  FARTCOIN: { mint: "9BB6NFEcjBCtnNLFko2FqVQBq8HHM13kCyYcdQbgpump", decimals: 6, price: 0.38, kind: "meme" },
  MOODENG: { mint: "ED5nyyWEzpPPiWimP8vYm7sD7TD3LAt3Q3gRTWHzPJBY", decimals: 6, price: 0.11, kind: "meme" },
};

/** Log-price amplitude, daily volume dispersion and daily TVL dispersion, by the riskier side of a pair. */
const SWING: Record<Kind, { price: number; volume: number; tvl: number }> = {
  stable: { price: 0.0003, volume: 0.12, tvl: 0.02 },
  lst: { price: 0.05, volume: 0.15, tvl: 0.03 },
  major: { price: 0.06, volume: 0.2, tvl: 0.04 },
  meme: { price: 0.13, volume: 0.55, tvl: 0.08 },
};

/** LST exchange rates grow with staking rewards, about 7 % a year. */
const LST_GROWTH = 0.07;

/** A pool: its pair, bin step, base fee, reference TVL and daily volume, creation day, and a fixed address if it has one. */
type PoolDef = [
  x: string,
  y: string,
  binStep: number,
  baseFeePct: number,
  tvlUsd: number,
  volumeUsd: number,
  created: string,
  address?: string,
];

const POOLS: PoolDef[] = [
  ["SOL", "USDC", 4, 0.04, 8.41e6, 41.2e6, "2024-01-16", CONTRACT_EXAMPLES.pool],
  ["SOL", "USDC", 10, 0.1, 5.12e6, 6.3e6, "2023-11-29"],
  ["SOL", "USDC", 20, 0.2, 2.31e6, 2.1e6, "2024-02-07"],
  ["SOL", "USDC", 1, 0.01, 3.62e6, 52.4e6, "2024-06-12"],
  ["SOL", "USDC", 100, 1, 0.41e6, 0.12e6, "2024-03-21"],
  ["SOL", "USDT", 5, 0.05, 1.93e6, 7.5e6, "2024-02-19"],
  ["JitoSOL", "SOL", 1, 0.01, 12.4e6, 26.1e6, "2023-12-04"],
  ["mSOL", "SOL", 1, 0.01, 4.2e6, 4.1e6, "2023-11-30"],
  ["JitoSOL", "USDC", 10, 0.1, 0.95e6, 1.1e6, "2024-05-02"],
  ["USDC", "USDT", 1, 0.01, 6.8e6, 22.1e6, "2023-11-28"],
  ["JUP", "SOL", 50, 0.25, 3.05e6, 3.2e6, "2024-01-31"],
  ["JUP", "USDC", 20, 0.2, 1.42e6, 2.2e6, "2024-01-31"],
  ["JTO", "SOL", 20, 0.2, 0.48e6, 0.34e6, "2023-12-07"],
  ["JTO", "USDC", 25, 0.25, 0.36e6, 0.29e6, "2024-03-02"],
  ["PYTH", "USDC", 50, 0.5, 0.28e6, 0.12e6, "2023-11-30"],
  ["RAY", "SOL", 50, 0.5, 0.41e6, 0.21e6, "2024-04-18"],
  ["RAY", "USDC", 10, 0.1, 0.52e6, 0.05e6, "2024-04-18"],
  ["cbBTC", "USDC", 10, 0.1, 1.21e6, 0.8e6, "2024-09-19"],
  ["cbBTC", "SOL", 20, 0.2, 0.62e6, 0.35e6, "2024-10-02"],
  ["BONK", "SOL", 100, 1, 2.12e6, 0.86e6, "2023-12-15"],
  ["BONK", "SOL", 200, 2, 0.14e6, 0.11e6, "2024-05-20"],
  ["BONK", "USDC", 80, 0.8, 0.9e6, 0.6e6, "2024-01-05"],
  ["WIF", "SOL", 80, 0.8, 1.85e6, 0.95e6, "2024-02-28"],
  ["WIF", "USDC", 100, 1, 0.62e6, 0.31e6, "2024-03-10"],
  ["POPCAT", "SOL", 100, 1, 0.74e6, 0.28e6, "2024-06-01"],
  ["TRUMP", "USDC", 50, 0.5, 2.6e6, 1.9e6, "2025-01-17"],
  ["TRUMP", "SOL", 100, 1, 0.8e6, 0.35e6, "2025-01-18"],
  ["FARTCOIN", "SOL", 100, 1, 1.1e6, 0.9e6, "2024-10-25"],
  ["FARTCOIN", "USDC", 80, 0.8, 0.55e6, 0.42e6, "2024-11-12"],
  ["MOODENG", "SOL", 100, 2, 0.21e6, 0.19e6, "2024-09-14"],
];

/** Roughly standard normal (sum of three uniforms, rescaled). */
const normalish = (r: Rng) => (r.next() + r.next() + r.next() - 1.5) * 2;

const token = (symbol: string) => TOKENS[symbol] as (typeof TOKENS)[string];

/** USD price of a token on a day: two slow waves plus daily noise around the reference price. */
function priceUsd(seed: string, symbol: string, day: number): number {
  const t = token(symbol);
  if (t.kind === "lst") return priceUsd(seed, "SOL", day) * t.price * (1 + (LST_GROWTH * (day - REF_DAY)) / 365);
  const phase = rng(`${seed}:phase:${symbol}`);
  const wave =
    0.9 * Math.sin((2 * Math.PI * day) / 23 + phase.range(0, 6.3)) +
    0.6 * Math.sin((2 * Math.PI * day) / 9 + phase.range(0, 6.3)) +
    0.5 * normalish(rng(`${seed}:price:${symbol}:${day}`));
  return t.price * Math.exp(SWING[t.kind].price * wave);
}

interface PoolSpec {
  def: PoolDef;
  address: string;
  grid: BinGrid;
  kind: Kind;
  createdDay: number;
}

function specOf(seed: string, def: PoolDef): PoolSpec {
  const [x, y, binStep, , , , created, address] = def;
  const kind = KINDS[Math.max(KINDS.indexOf(token(x).kind), KINDS.indexOf(token(y).kind))] as Kind;
  return {
    def,
    address: address ?? solanaAddress(seed, `pool:${x}-${y}:${binStep}`),
    grid: { binStep, tokenX: token(x), tokenY: token(y) },
    kind,
    createdDay: Date.parse(created) / DAY_MS,
  };
}

/** A pool's volume over one UTC day (the current day's being the last 24 h); memes spike now and then. */
function dayVolume(seed: string, pool: PoolSpec, day: number): number {
  if (day < pool.createdDay) return 0;
  const r = rng(`${seed}:volume:${pool.address}:${day}`);
  const spike = pool.kind === "meme" && r.chance(0.12) ? r.range(2, 4) : 1;
  return round(pool.def[5] * Math.exp(SWING[pool.kind].volume * normalish(r)) * spike);
}

const dayFees = (pool: PoolSpec, volume: number) => round((volume * pool.def[3]) / 100);

function poolOn(seed: string, pool: PoolSpec, day: number): PoolRecord {
  const [x, y, binStep, baseFeePct, tvl] = pool.def;
  const quoteUsd = priceUsd(seed, y, day);
  const activeBinId = binIdAt(pool.grid, priceUsd(seed, x, day) / quoteUsd);
  const currentPrice = binPrice(pool.grid, activeBinId);
  const r = rng(`${seed}:pool:${pool.address}:${day}`);
  const tokenX = { mint: token(x).mint, symbol: x, decimals: token(x).decimals, priceUsd: currentPrice * quoteUsd };
  const tokenY = { mint: token(y).mint, symbol: y, decimals: token(y).decimals, priceUsd: quoteUsd };
  const targetTvl = tvl * (1 + SWING[pool.kind].tvl * normalish(r));
  const xShare = Math.min(0.85, Math.max(0.15, 0.5 + 0.12 * normalish(r)));
  const reserveX = round((targetTvl * xShare) / tokenX.priceUsd, Math.min(tokenX.decimals, 6));
  const reserveY = round((targetTvl * (1 - xShare)) / tokenY.priceUsd, Math.min(tokenY.decimals, 6));
  const tvlUsd = round(reserveX * tokenX.priceUsd + reserveY * tokenY.priceUsd);
  const volume24hUsd = dayVolume(seed, pool, day);
  return {
    address: pool.address,
    name: `${x}-${y}`,
    tokenX,
    tokenY,
    binStep,
    baseFeePct,
    currentPrice,
    activeBinId,
    reserveX,
    reserveY,
    tvlUsd,
    volume24hUsd,
    fees24hUsd: dayFees(pool, volume24hUsd),
    openPositions: Math.max(3, Math.round((tvlUsd / 6_000) * r.range(0.8, 1.2))),
    createdAt: pool.createdDay * 86_400,
  };
}

/** The wallet of the contract's examples, then seeded LP wallets. */
export function embeddedLpWallets(seed: string): string[] {
  return [CONTRACT_EXAMPLES.wallet, ...Array.from({ length: 9 }, (_, i) => solanaAddress(seed, `lp-wallet:${i}`))];
}

/** A position's opening: its owner and address, when it opens, and the label that seeds its width, size and fee share. */
interface Opening {
  owner: string;
  address: string;
  openedAt: number;
  label: string;
}

/** Positions held for good once opened, never closed and reopened: the contract's example position is one. */
const HELD: { owner: string; pool: string; address: string; openedAt: number }[] = [
  { owner: CONTRACT_EXAMPLES.wallet, pool: CONTRACT_EXAMPLES.pool, ...CONTRACT_EXAMPLES.position },
];

/** A position opened around the then price, as it stands at `now`; undefined before it opens. */
function positionAt(
  seed: string,
  pool: PoolSpec,
  { owner, address, openedAt: opened, label }: Opening,
  now: number,
): PositionRecord | undefined {
  if (opened > now || Math.floor(opened / DAY_MS) < pool.createdDay) return undefined;
  const r = rng(`${seed}:position:${label}`);
  const width = r.int(10, 69);
  const lowerBinId =
    poolOn(seed, pool, Math.floor(opened / DAY_MS)).activeBinId - Math.floor(width * r.range(0.3, 0.7));
  const upperBinId = lowerBinId + width;
  const valueUsd = Math.exp(r.range(Math.log(200), Math.log(60_000)));
  const today = poolOn(seed, pool, Math.floor(now / DAY_MS));
  const active = today.activeBinId;
  const earning = inRange({ lowerBinId, upperBinId }, active);
  // Bins above the active one hold X, bins below hold Y: a range the price left is all one token.
  const xShare = active < lowerBinId ? 1 : active > upperBinId ? 0 : (upperBinId - active + 0.5) / (width + 1);
  const ageDays = (now - opened) / DAY_MS;
  const feesUsd =
    ((valueUsd * aprPct(today.fees24hUsd, today.tvlUsd)) / 100) *
    (ageDays / 365) *
    (earning ? 0.8 : 0.35) *
    r.range(0.3, 1);
  const units = (usd: number, t: PoolRecord["tokenX"]) => round(usd / t.priceUsd, Math.min(t.decimals, 6));
  return {
    address,
    pool: pool.address,
    owner,
    lowerBinId,
    upperBinId,
    amountX: units(valueUsd * xShare, today.tokenX),
    amountY: units(valueUsd * (1 - xShare), today.tokenY),
    unclaimedFeeX: units(feesUsd / 2, today.tokenX),
    unclaimedFeeY: units(feesUsd / 2, today.tokenY),
    createdAt: Math.floor(opened / 1000),
  };
}

/** The position a wallet's slot holds at `now`: opened at the start of the slot's current cycle. */
function slotPosition(
  seed: string,
  pools: PoolSpec[],
  wallet: string,
  slot: number,
  now: number,
): PositionRecord | undefined {
  const plan = rng(`${seed}:slot:${wallet}:${slot}`);
  const pool = plan.pick(pools);
  const cycleDays = plan.int(7, 28);
  const phaseDays = plan.int(0, cycleDays - 1);
  const openedAt = (cycle: number) =>
    (phaseDays + cycle * cycleDays) * DAY_MS + rng(`${seed}:open:${wallet}:${slot}:${cycle}`).int(0, 12) * 3_600_000;
  let cycle = Math.floor((now / DAY_MS - phaseDays) / cycleDays);
  if (openedAt(cycle) > now) cycle -= 1;
  const label = `${wallet}:${slot}:${cycle}`;
  return positionAt(
    seed,
    pool,
    { owner: wallet, address: solanaAddress(seed, `position:${label}`), openedAt: openedAt(cycle), label },
    now,
  );
}

function walletPositions(seed: string, pools: PoolSpec[], wallet: string, now: number): PositionRecord[] {
  const slots = rng(`${seed}:slots:${wallet}`).int(1, 4);
  const held = HELD.filter((h) => h.owner === wallet).map((h) =>
    positionAt(
      seed,
      pools.find((p) => p.address === h.pool) as PoolSpec,
      { ...h, label: `${wallet}:held:${h.address}` },
      now,
    ),
  );
  return [...Array.from({ length: slots }, (_, slot) => slotPosition(seed, pools, wallet, slot, now)), ...held].filter(
    (p) => p !== undefined,
  );
}

const SORT: Record<PoolSortKey, (p: PoolRecord) => number> = {
  apr: (p) => aprPct(p.fees24hUsd, p.tvlUsd),
  volume: (p) => p.volume24hUsd,
  tvl: (p) => p.tvlUsd,
};

function matches(pool: PoolRecord, query: string): boolean {
  const q = query.trim().toLowerCase();
  const exact = [pool.address, pool.tokenX.mint, pool.tokenY.mint, pool.tokenX.symbol, pool.tokenY.symbol].map((s) =>
    s.toLowerCase(),
  );
  return exact.includes(q) || pool.name.toLowerCase().includes(q);
}

export function createEmbeddedPools({ seed, clock }: { seed: string; clock: Clock }): PoolProvider {
  const pools = POOLS.map((def) => specOf(seed, def));
  const wallets = embeddedLpWallets(seed);
  const day = () => Math.floor(clock.now() / DAY_MS);
  const live = () => pools.filter((p) => p.createdDay <= day());
  const find = (address: string) => live().find((p) => p.address === address);
  return {
    source: "embedded-pools",
    async listPools({ query, sortBy, pageSize }) {
      const all = live()
        .map((p) => poolOn(seed, p, day()))
        .filter((p) => query === undefined || matches(p, query))
        .sort((a, b) => SORT[sortBy](b) - SORT[sortBy](a));
      return { total: all.length, pools: all.slice(0, pageSize) };
    },
    async pool(address) {
      const found = find(address);
      return found && poolOn(seed, found, day());
    },
    async volumeHistory(address, days): Promise<VolumeBucket[]> {
      const found = find(address);
      if (!found) return [];
      return Array.from({ length: days }, (_, i) => {
        const d = day() - days + 1 + i;
        const volumeUsd = dayVolume(seed, found, d);
        return { timestamp: d * 86_400, volumeUsd, feesUsd: dayFees(found, volumeUsd) };
      });
    },
    async positionsByOwner(wallet) {
      return wallets.includes(wallet) ? walletPositions(seed, pools, wallet, clock.now()) : [];
    },
    async position(address) {
      const now = clock.now();
      return wallets.flatMap((wallet) => walletPositions(seed, pools, wallet, now)).find((p) => p.address === address);
    },
  };
}
