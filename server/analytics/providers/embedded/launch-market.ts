/**
 * The embedded launchpad market shared by the launch feed and the chain: a pump.fun token every 3
 * minutes and a LaunchLab token every 9 (each at a seeded moment inside its slot), each with a
 * bonding curve that follows its own path in time (launch-curves.ts). Long-lived tokens take the
 * place of the launch in their slot and stay on their curve for good, wandering near its end (the
 * contract's example token, ORCAT, is one).
 *
 * Everything is a pure function of the seed and the time asked about, so two readers of one seed
 * see one market, and moving the clock forward reveals new tokens and moves the curves.
 */
import { DAY, HOUR, MINUTE } from "../../clock.js";
import { PUMP_CURVE, virtualTokensAtSol } from "../../markets/pump-curve.js";
import { CONTRACT_EXAMPLES } from "./contract-examples.js";
import { curvePath, priceSol, settlingPath, waveSum } from "./launch-curves.js";
import {
  COMPLETE_SOL,
  LAUNCH_EVERY,
  type LaunchToken,
  type Platform,
  SNIPER_TRADERS,
  type Snipe,
  type Waves,
} from "./launch-token.js";
import { base58Chars, indexedAddress, indexFromAddress, keyOf, remember, unit } from "./market-ids.js";
import { rng, solanaAddress } from "./random.js";
import { slotAt } from "./slots.js";
import { tokenName } from "./token-names.js";

const VT0 = PUMP_CURVE.initialVirtualTokenReserves;

const SALT: Record<Platform, number> = { pump: 0x1b873593, launchlab: 0x7fe5a2c1 };

const KINDS: Record<Platform, { mint: string; curve: string; suffix: string }> = {
  pump: { mint: "pump-mint", curve: "pump-curve", suffix: "pump" },
  launchlab: { mint: "launchlab-mint", curve: "launchlab-pool", suffix: "bonk" },
};

/**
 * A token that lives on its curve for good, in the slot of the launch it replaces: it climbed to
 * `settleSol` in its first days and has wandered within `wanderSol` of it since, never completing.
 */
interface LongLivedLaunch {
  platform: Platform;
  mint: string;
  curve: string;
  dev: string;
  name: string;
  symbol: string;
  createdAt: number;
  /** The dev's first buy, and the share of it the dev keeps after selling the rest. */
  devSol: number;
  devKeep: number;
  /** How many of the market's snipers bought in its first blocks, and the range of their buys in SOL. */
  snipers: number;
  sniperSol: [number, number];
  settleSol: number;
  wanderSol: number;
  holderDensity: number;
}

/**
 * The market's long-lived tokens. ORCAT, the contract's example: a pump.fun token from June that
 * hovers around 93 % of its curve, with a modest dev buy half sold, three light snipers, both
 * authorities revoked and about 800 holders.
 */
const LONG_LIVED: readonly LongLivedLaunch[] = [
  {
    ...CONTRACT_EXAMPLES.launch,
    platform: "pump",
    createdAt: Date.UTC(2026, 5, 18, 14, 7, 31),
    devSol: 1.25,
    devKeep: 0.5,
    snipers: 3,
    sniperSol: [0.3, 0.5],
    settleSol: 67,
    wanderSol: 4,
    holderDensity: 11.8,
  },
];

export interface LaunchMarket {
  readonly seed: string;
  /** The token at an index, whether or not it exists yet at a given time. */
  token(platform: Platform, index: number): LaunchToken;
  byMint(mint: string): LaunchToken | undefined;
  byCurve(address: string): LaunchToken | undefined;
  /** Tokens created in [from, to], newest first. */
  createdBetween(platform: Platform, from: number, to: number): LaunchToken[];
  /** The long-lived tokens created by `t`, newest first: launch feeds keep watching them past their usual window. */
  longLived(platform: Platform, t: number): LaunchToken[];
  /** Snipes of one sniper trader among tokens created in [from, to], oldest first. */
  snipesBy(trader: number, from: number, to: number): { token: LaunchToken; snipe: Snipe }[];
  /** The population wallet address of trader `n`. */
  traderAddress(n: number): string;
  solUsd(t: number): number;
}

/**
 * The addresses of a token other than its mint, derived when first read (most tokens are only ever
 * traded) unless the token has fixed ones.
 */
function lazyAddresses(
  seed: string,
  platform: Platform,
  index: number,
  mintLive: boolean,
  freezeLive: boolean,
  fixed?: { dev: string; curve: string },
) {
  let dev = fixed?.dev;
  let curve = fixed?.curve;
  return {
    get curve() {
      curve ??= indexedAddress(seed, KINDS[platform].curve, index, "");
      return curve;
    },
    get dev() {
      dev ??= indexedAddress(seed, `${platform}-dev`, index, "");
      return dev;
    },
    get uri() {
      return `https://ipfs.io/ipfs/Qm${base58Chars(`${seed}:uri:${platform}:${index}`, 44)}`;
    },
    get mintAuthority() {
      return mintLive ? this.dev : null;
    },
    get freezeAuthority() {
      return freezeLive ? this.dev : null;
    },
  };
}

/** When each launch happens, how hyped it is and which snipers buy it: the seeded draws every launch is built on. */
function launchSchedule(seed: string) {
  const timingKey = { pump: keyOf(seed, "timing:pump"), launchlab: keyOf(seed, "timing:launchlab") };
  const hypeKey = keyOf(seed, "hype");
  const snipers = Array.from({ length: SNIPER_TRADERS }, (_, n) => {
    const r = rng(`${seed}:sniper:${n}`);
    return { key: keyOf(seed, `sniper-key:${n}`), rate: r.range(0.006, 0.02), skill: r.range(0.05, 0.8) };
  });

  /** Long-lived tokens by the slot they take, with the snipers (drawn from the seed) that bought them. */
  const pinned = new Map(
    LONG_LIVED.map((launch) => {
      const index = Math.floor(launch.createdAt / LAUNCH_EVERY[launch.platform]);
      const draw = rng(`${seed}:long-lived:${launch.mint}`);
      const pool = Array.from({ length: SNIPER_TRADERS }, (_, n) => n);
      const chosen = Array.from(
        { length: launch.snipers },
        () => pool.splice(draw.int(0, pool.length - 1), 1)[0] as number,
      );
      return [`${launch.platform}:${index}`, { launch, index, snipers: new Set(chosen) }];
    }),
  );
  const pinnedAt = (platform: Platform, index: number) => pinned.get(`${platform}:${index}`);

  const createdAt = (platform: Platform, index: number) =>
    pinnedAt(platform, index)?.launch.createdAt ??
    index * LAUNCH_EVERY[platform] + Math.floor(unit(timingKey[platform], index) * LAUNCH_EVERY[platform]);
  const hype = (platform: Platform, index: number) => {
    const u = unit(hypeKey ^ SALT[platform], index);
    return u < 0.6 ? 0.4 : u < 0.9 ? 1.5 : 5;
  };
  const snipedBy = (n: number, platform: Platform, index: number) => {
    const long = pinnedAt(platform, index);
    if (long) return long.snipers.has(n);
    const sniper = snipers[n];
    return sniper !== undefined && unit(sniper.key ^ SALT[platform], index) < sniper.rate * hype(platform, index);
  };
  return { snipers, pinned, pinnedAt, createdAt, hype, snipedBy };
}

type LaunchSchedule = ReturnType<typeof launchSchedule>;

/**
 * The launch at an index: its opening buys (the dev's, then the snipers' of the first blocks), its
 * curve's path, its name and authorities, and when the dev and each sniper sell.
 */
function buildToken(
  seed: string,
  schedule: LaunchSchedule,
  traderAddress: (n: number) => string,
  platform: Platform,
  index: number,
): LaunchToken {
  const { snipers, createdAt, pinnedAt, hype, snipedBy } = schedule;
  const r = rng(`${seed}:${platform}:${index}`);
  const at = createdAt(platform, index);
  const long = pinnedAt(platform, index)?.launch;
  const devSol = long ? long.devSol : r.chance(0.12) ? r.range(3, 10) : r.chance(0.15) ? 0 : r.range(0.2, 2.5);
  let sol = devSol;
  const devTokens = VT0 - virtualTokensAtSol(sol);
  const bigBuys = hype(platform, index) >= 5 ? 2 : 1;
  const buys = snipers
    .map((_, n) => n)
    .filter((n) => snipedBy(n, platform, index))
    .map((n) => ({ n, blockOffset: r.int(0, 2), sol: long ? r.range(...long.sniperSol) : r.range(0.3, 2.5) * bigBuys }))
    .sort((a, b) => a.blockOffset - b.blockOffset || a.n - b.n);
  const bought = buys.map((b) => {
    const before = virtualTokensAtSol(sol);
    sol += b.sol;
    return { ...b, tokens: before - virtualTokensAtSol(sol) };
  });

  const { path, completeAfter } = long
    ? { path: settlingPath(r, sol, long), completeAfter: null }
    : curvePath(r, sol, COMPLETE_SOL[platform]);
  const completeAt = completeAfter === null ? null : at + completeAfter;

  const { name, symbol } = long ?? tokenName(r);
  const kinds = KINDS[platform];
  const devKeep = long ? long.devKeep : r.chance(0.35) ? 0 : r.chance(0.7) ? 1 : r.range(0.2, 0.8);
  // A long-lived token has both authorities revoked.
  const [mintLive, freezeLive] = long ? [false, false] : [r.chance(0.03), r.chance(0.04)];
  const token: LaunchToken = Object.assign(lazyAddresses(seed, platform, index, mintLive, freezeLive, long), {
    platform,
    index,
    mint: long?.mint ?? indexedAddress(seed, kinds.mint, index, kinds.suffix),
    name,
    symbol,
    createdAt: at,
    slot: slotAt(at),
    devSol,
    devTokens,
    devKeep,
    devSellAt: at + Math.round(r.range(3, 40) * MINUTE),
    snipes: [],
    openSol: sol,
    completeAt,
    holderDensity: long ? long.holderDensity : r.range(3, 14),
    path,
  });
  token.snipes = bought.map((b) => {
    const boughtAt = at + b.blockOffset * 400;
    const skill = snipers[b.n]?.skill ?? 0.5;
    const holds = [r.range(0.5, 90), r.range(0.5, 90), r.range(0.5, 90)].map((m) => m * MINUTE);
    const bestHold = holds.reduce((best, h) =>
      priceSol(token, boughtAt + h) > priceSol(token, boughtAt + best) ? h : best,
    );
    const hold = r.chance(0.12) ? r.range(2, 20) * DAY : r.chance(skill) ? bestHold : (holds[0] as number);
    return {
      trader: b.n,
      wallet: traderAddress(b.n),
      blockOffset: b.blockOffset,
      sol: b.sol,
      tokens: b.tokens,
      boughtAt,
      soldAt: boughtAt + Math.round(hold),
    };
  });
  return token;
}

export function createLaunchMarket(seed: string): LaunchMarket {
  const tokens = new Map<string, LaunchToken>();
  const traders = new Map<number, string>();
  const schedule = launchSchedule(seed);
  const { pinned, createdAt, snipedBy } = schedule;
  const solPhase = rng(`${seed}:sol-usd`);
  const solWaves: Waves = [
    [0.07, 9 * DAY, solPhase.range(0, 2 * Math.PI)],
    [0.03, 31 * HOUR, solPhase.range(0, 2 * Math.PI)],
    [0.01, 4.7 * HOUR, solPhase.range(0, 2 * Math.PI)],
  ];

  const traderAddress = (n: number) => remember(traders, n, () => solanaAddress(seed, `trader:${n}`));

  const token = (platform: Platform, index: number) =>
    remember(tokens, `${platform}:${index}`, () => buildToken(seed, schedule, traderAddress, platform, index));

  /** The token whose mint or curve an address is: a long-lived token's fixed address, or an address carrying its index. */
  function find(address: string, field: "mint" | "curve"): LaunchToken | undefined {
    for (const { launch, index } of pinned.values())
      if (launch[field] === address) return token(launch.platform, index);
    for (const platform of ["pump", "launchlab"] as const) {
      const kind = KINDS[platform];
      const index = indexFromAddress(seed, kind[field], address, field === "mint" ? kind.suffix : "");
      // A long-lived token's slot no longer answers to the addresses derived for it.
      const found = index === undefined ? undefined : token(platform, index);
      if (found?.[field] === address) return found;
    }
    return undefined;
  }

  /** Indexes of the tokens created in [from, to], oldest first. */
  function indexesBetween(platform: Platform, from: number, to: number): number[] {
    const out: number[] = [];
    for (let i = Math.floor(from / LAUNCH_EVERY[platform]); i <= Math.floor(to / LAUNCH_EVERY[platform]); i++) {
      const at = createdAt(platform, i);
      if (at >= from && at <= to) out.push(i);
    }
    return out;
  }

  return {
    seed,
    token,
    traderAddress,
    byMint: (mint) => find(mint, "mint"),
    byCurve: (address) => find(address, "curve"),
    createdBetween: (platform, from, to) =>
      indexesBetween(platform, from, to)
        .reverse()
        .map((i) => token(platform, i)),
    longLived: (platform, t) =>
      [...pinned.values()]
        .filter(({ launch }) => launch.platform === platform && launch.createdAt <= t)
        .sort((a, b) => b.launch.createdAt - a.launch.createdAt)
        .map(({ index }) => token(platform, index)),
    snipesBy(trader, from, to) {
      const out: { token: LaunchToken; snipe: Snipe }[] = [];
      for (const platform of ["pump", "launchlab"] as const) {
        for (const i of indexesBetween(platform, from, to)) {
          if (!snipedBy(trader, platform, i)) continue;
          const t = token(platform, i);
          const snipe = t.snipes.find((s) => s.trader === trader);
          if (snipe) out.push({ token: t, snipe });
        }
      }
      return out.sort((a, b) => a.snipe.boughtAt - b.snipe.boughtAt);
    },
    solUsd: (t) => 172 * Math.exp(waveSum(solWaves, t)),
  };
}
